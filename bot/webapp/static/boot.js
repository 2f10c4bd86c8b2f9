// Before anything else: Telegram puts the page's initData and its colours in
// the page's address (#tgWebAppData=…&tgWebAppThemeParams=…), so the game's
// state is asked for at once — while Telegram's own script is still on its
// way — and the page takes Telegram's colours before its first paint.
(function () {
  "use strict";

  var hash = new URLSearchParams(location.hash.slice(1));
  var query = new URLSearchParams(location.search);
  var theme = null;
  try {
    theme = JSON.parse(hash.get("tgWebAppThemeParams") || "null");
  } catch (e) {
    theme = null;
  }
  var THEME = {
    bg_color: "--tg-bg", text_color: "--tg-text", hint_color: "--tg-hint",
    link_color: "--tg-link", button_color: "--tg-button",
    button_text_color: "--tg-button-text", secondary_bg_color: "--tg-secondary-bg"
  };

  // dark when the background is: as Telegram's script tells colorScheme
  function schemeOf(params) {
    var bg = /^#([0-9a-f]{6})$/i.exec((params && params.bg_color) || "");
    if (!bg) return "light";
    var n = parseInt(bg[1], 16);
    var light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return light < 120 ? "dark" : "light";
  }

  function applyTheme(params, scheme) {
    var root = document.documentElement;
    params = params || {};
    Object.keys(THEME).forEach(function (key) {
      if (params[key]) root.style.setProperty(THEME[key], params[key]);
      else root.style.removeProperty(THEME[key]);
    });
    root.setAttribute("data-scheme", scheme || schemeOf(params));
  }

  var data = hash.get("tgWebAppData");
  var chat = query.get("chat") || query.get("tgWebAppStartParam");
  // a finished game's replay: ?replay=N&move=M, or the start parameter rN_M
  var replay = null;
  var param = /^r(\d+)_(\d+)$/.exec(chat || "");
  if (query.get("replay")) replay = [query.get("replay"), query.get("move") || "0"];
  else if (param) replay = [param[1], param[2]];
  if (replay) chat = null;
  window.smuta = {
    initData: data, chat: chat, replay: replay, applyTheme: applyTheme, first: null
  };
  if (theme) applyTheme(theme, null);
  if (data && (chat || replay)) {
    var path = replay ? "api/replay?game=" + encodeURIComponent(replay[0])
      : "api/state?chat=" + encodeURIComponent(chat);
    window.smuta.first = fetch(path, {
      headers: { "Authorization": "tma " + data },
      cache: "no-store"
    }).then(function (r) { return r.json(); });
  }
})();
