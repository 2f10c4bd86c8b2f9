// Смута's table in a Telegram Mini App: draws the state the server sends
// (api/state, then live through api/events), answers the decision with a tap
// (api/answer). Every text comes from the server; it is shown with
// textContent, never as HTML.
// Runs once the page and Telegram's script are loaded (boot.js ran first and
// may have asked for the state already).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";

  var boot = window.smuta || {};
  var tg = window.Telegram && window.Telegram.WebApp;
  var initData = (tg && tg.initData) || boot.initData || "";
  var chat = boot.chat ||
    (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || null;
  var words = {};
  var state = null;
  var level = 0;        // the decision's menu level shown
  var decisionId = null;
  var sending = false;
  var toast = "";
  var clockOffset = 0;  // server time − our time, seconds
  var streamAbort = null;
  var replaced = false;  // this page's stream gave way to a newer page's
  var drawn = false;

  var $ = function (id) { return document.getElementById(id); };
  var EMOJI = { red: "🔴", blue: "🔵", green: "🟢", orange: "🟠" };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // ------------------------------------------------------------------ theme
  function applyTheme() {
    if (tg) boot.applyTheme(tg.themeParams, tg.colorScheme);
  }

  // ------------------------------------------------------------------ server
  function api(path, options) {
    options = options || {};
    var headers = Object.assign({ "Authorization": "tma " + initData }, options.headers || {});
    return fetch(path, Object.assign({}, options, { headers: headers, cache: "no-store" }));
  }

  function notice(text) {
    var box = $("notice");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function start() {
    applyTheme();
    if (tg) {
      tg.onEvent("themeChanged", applyTheme);
      tg.ready();
      tg.expand();
    }
    if (chat) open(chat, boot.chat === chat ? boot.first : null);
    else pickGame();
  }

  function pickGame() {
    api("api/games").then(function (r) { return r.json(); }).then(function (data) {
      if (!data.ok) { notice(data.text); return; }
      words = data.words;
      if (data.games.length === 1) { open(String(data.games[0].chat)); return; }
      var list = el("div", "games");
      list.appendChild(el("h2", "", words[data.games.length ? "app-pick-game" : "app-no-games"]));
      data.games.forEach(function (g) {
        var b = el("button", "opt", g.title);
        b.addEventListener("click", function () { open(String(g.chat)); });
        list.appendChild(b);
      });
      $("table").replaceChildren(list);
    }).catch(function () { notice("…"); });
  }

  // the chat's state: the one boot.js asked for, else asked for now
  function open(id, asked) {
    chat = id;
    (asked || api("api/state?chat=" + encodeURIComponent(chat)).then(function (r) {
      return r.json();
    })).then(function (data) {
      if (data.ok === false) {
        notice(data.text);
        if (data.error === "app-too-fast") setTimeout(function () { open(chat); }, 5000);
        return;
      }
      words = data.words;
      document.documentElement.lang = data.state.lang;
      show(data.state);
      follow();
    }).catch(function () { notice(words["app-offline"] || "…"); retry(); });
  }

  // server-sent events over fetch (EventSource cannot send initData)
  var backoff = 0;
  function retry() {
    var wait = [500, 1000, 2000, 5000][Math.min(backoff, 3)];
    backoff += 1;
    setTimeout(function () { if (state) follow(); else open(chat); }, wait);
  }

  function follow() {
    if (streamAbort) streamAbort.abort();
    var ctrl = new AbortController();
    streamAbort = ctrl;
    var headers = {};
    if (state) headers["Last-Event-ID"] = String(state.v);
    api("api/events?chat=" + encodeURIComponent(chat), { headers: headers, signal: ctrl.signal })
      .then(function (r) {
        if (r.status === 401 || r.status === 403 || r.status === 404) {
          // not theirs to see (any more): say why, and stop asking
          return r.json().then(function (data) { notice(data.text); });
        }
        if (r.status === 429 || r.status === 503) {
          // refused, not lost: the server's words, and again when it says
          var after = Number(r.headers.get("Retry-After")) || 5;
          return r.json().then(function (data) {
            notice(data.text);
            setTimeout(function () { if (streamAbort === ctrl) follow(); }, after * 1000);
          });
        }
        if (!r.ok || !r.body) throw new Error("stream " + r.status);
        notice("");
        backoff = 0;
        var reader = r.body.getReader();
        var decoder = new TextDecoder();
        var buffer = "";
        function pump() {
          return reader.read().then(function (part) {
            if (part.done) throw new Error("stream ended");
            buffer += decoder.decode(part.value, { stream: true });
            var cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              event(buffer.slice(0, cut));
              buffer = buffer.slice(cut + 2);
            }
            return pump();
          });
        }
        return pump();
      })
      .catch(function () {
        if (ctrl.signal.aborted || replaced) return;
        notice(words["app-offline"]);
        retry();
      });
  }

  function event(block) {
    var name = "message", data = "";
    block.split("\n").forEach(function (line) {
      if (line.indexOf("event: ") === 0) name = line.slice(7);
      else if (line.indexOf("data: ") === 0) data += line.slice(6);
    });
    if (name === "state") show(JSON.parse(data));
    else if (name === "gone") { state = null; notice(words["app-no-game"]); }
    else if (name === "replaced") { replaced = true; notice(JSON.parse(data).text); }
  }

  // ------------------------------------------------------------------ drawing
  // a card: [name, type, colours, kind, points]
  function cardOf(id) {
    var c = state.cards[id];
    var t = state.types[c[1]];
    return [c[0], c[1], t[0], c[2], t[1]];
  }

  function cardButton(id, houseColour) {
    var c = cardOf(id);
    var colours = c[3];
    var b = el("button", "card " + (c[2] === "smuta" ? "smuta" : colours[0] || ""));
    var name = c[0];
    var alt = null;
    if (houseColour && colours[0] === houseColour && c[2] === "house") {
      name = name.replace(/^\S+\s/, "");  // the house shows its colour
      if (colours.length > 1) alt = EMOJI[colours[1]];  // a Слуга's other side
    }
    b.appendChild(document.createTextNode(name));
    if (alt) b.appendChild(el("span", "alt", alt));
    if (c[2] === "house") b.appendChild(el("span", "pts", String(c[4])));
    b.dataset.card = id;
    b.title = c[0];
    return b;
  }

  function currentLevel() {
    var d = state && state.decision;
    return d ? d.levels[level] : null;
  }

  function show(next) {
    if (!next) return;
    var fresh = !state || !next.decision || !state.decision ||
      next.decision.id !== decisionId;
    state = next;
    clockOffset = state.now ? state.now - Date.now() / 1000 : 0;
    if (fresh) {
      level = 0;
      decisionId = state.decision ? state.decision.id : null;
      sending = false;
      toast = "";
    }
    draw();
  }

  function draw() {
    var s = state;
    document.body.dataset.version = String(s.v);
    $("title").textContent = s.title || "";
    $("head").textContent = s.head || "";
    var table = $("table");
    var parts = [];
    if (!s.players) { table.replaceChildren(); return; }

    var piles = el("div", "piles");
    [s.deck, s.orders, s.graveyard.text, s.orders_discard.text, s.smuta_discard.text, s.castles]
      .forEach(function (text) { piles.appendChild(el("span", "chip", text)); });
    parts.push(piles);

    var picks = choosable();
    s.players.forEach(function (p) {
      var box = el("div", "player" + (p.seat === s.current ? " turn" : ""));
      var who = el("div", "who");
      who.appendChild(el("span", "name", p.name + (p.bot ? " 🤖" : "")));
      who.appendChild(el("span", "figs", "✋ " + p.hand + " · ⭐ " + p.points));
      if (p.status) who.appendChild(el("span", "status", p.status));
      if (picks.parts[String(p.seat)] !== undefined) {
        who.classList.add("pick");
        who.addEventListener("click", function () { choose(picks.parts[String(p.seat)]); });
      }
      box.appendChild(who);
      var houses = el("div", "houses");
      if (!p.houses.length) houses.className = "houses none";
      p.houses.forEach(function (h) {
        var house = el("div", "house " + h.colour);
        if (h.castle) {
          var castle = el("div", "castle", h.castle === "permanent" ? "🏰♾️" : "🏰⚡");
          castle.dataset.topic = "castle-" + h.colour;
          house.appendChild(castle);
        }
        h.cards.forEach(function (id) { house.appendChild(cardButton(id, h.colour)); });
        houses.appendChild(house);
      });
      box.appendChild(houses);
      parts.push(box);
    });
    if (s.result) {
      var result = el("div", "player");
      s.result.forEach(function (line) { result.appendChild(el("p", "", line)); });
      parts.push(result);
    }
    table.replaceChildren.apply(table, parts);

    drawHand(picks);
    drawLog();
    drawChoice();
    mark(picks);
    tick();
    if (!drawn) {
      drawn = true;
      if (window.performance && performance.mark) performance.mark("table-drawn");
    }
  }

  function drawHand() {
    var hand = $("hand");
    if (!state.hand) { hand.hidden = true; return; }
    hand.hidden = false;
    var cards = el("div", "cards");
    state.hand.forEach(function (id) { cards.appendChild(cardButton(id, null)); });
    if (!state.hand.length) cards.appendChild(el("span", "chip", words["app-hand-empty"]));
    hand.replaceChildren(el("h2", "", state.hand_title), cards);
  }

  function drawLog() {
    var log = $("log");
    if (!state.log || !state.log.length) { log.hidden = true; return; }
    log.hidden = false;
    var list = el("ul");
    state.log.forEach(function (line) { list.appendChild(el("li", "", line)); });
    log.replaceChildren(el("h2", "", words["app-log"]), list);
  }

  function drawChoice() {
    var box = $("choice");
    var node = currentLevel();
    var parts = [];
    if (node) {
      node.lines.forEach(function (n, i) {
        var line = state.decision.texts[n];
        parts.push(el("p", line.indexOf("❓") === 0 || i === 0 ? "question" : "", line));
      });
      var opts = el("div", "opts");
      node.opts.forEach(function (o) {
        var b = el("button", "opt", o[0]);
        b.disabled = sending;
        b.addEventListener("click", function () { choose(o); });
        opts.appendChild(b);
      });
      if (node.up >= 0) {
        var back = el("button", "opt back", words["btn-back"]);
        back.addEventListener("click", function () { level = node.up; draw(); });
        opts.appendChild(back);
      }
      parts.push(opts);
      if (toast) parts.push(el("p", "toast", toast));
    } else if (state.status === "finished") {
      parts.push(el("p", "wait", words["app-finished"]));
    } else if (state.me === null) {
      parts.push(el("p", "wait", words["app-spectator"]));
    } else if (state.deciding !== null && state.deciding !== undefined) {
      var who = state.players[state.deciding];
      parts.push(el("p", "wait", "⏳ " + (who ? who.name : "") + (who && who.status ? " · " + who.status : "")));
    }
    box.hidden = !parts.length;
    box.replaceChildren.apply(box, parts);
  }

  // the cards and players this level's options name: tapping one chooses it
  function choosable() {
    var node = currentLevel();
    var found = { parts: {} };
    if (!node) return found;
    node.opts.forEach(function (o) {
      if (found.parts[o[3]] === undefined) found.parts[o[3]] = o;
    });
    return found;
  }

  function mark(picks) {
    document.querySelectorAll("[data-card]").forEach(function (b) {
      var o = picks.parts[b.dataset.card];
      if (o !== undefined) {
        b.classList.add("pick");
        b.addEventListener("click", function (e) { e.stopPropagation(); choose(o); });
      } else {
        b.addEventListener("click", function () { about(cardOf(b.dataset.card)[1]); });
      }
    });
    document.querySelectorAll("[data-topic]").forEach(function (b) {
      b.addEventListener("click", function () { about(b.dataset.topic); });
    });
  }

  function choose(o) {
    if (sending) return;
    if (o[1] >= 0) { level = o[1]; toast = ""; draw(); return; }
    sending = true;
    toast = "";
    draw();
    if (tg && tg.HapticFeedback) tg.HapticFeedback.selectionChanged();
    api("api/answer", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ chat: Number(chat), game: state.game, decision: state.decision.id, option: o[2] })
    }).then(function (r) { return r.json(); }).then(function (data) {
      if (!data.ok) { sending = false; toast = data.text; draw(); }
    }).catch(function () { sending = false; toast = words["app-offline"]; draw(); });
  }

  function about(topic) {
    api("api/card?chat=" + encodeURIComponent(chat) + "&topic=" + encodeURIComponent(topic))
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (!data.ok) return;
        var sheet = el("div", "sheet");
        sheet.appendChild(el("h3", "", data.title));
        sheet.appendChild(el("div", "about", data.text));
        var close = el("button", "opt", words["app-close"]);
        sheet.appendChild(close);
        var box = $("card");
        box.replaceChildren(sheet);
        box.hidden = false;
        var hide = function () { box.hidden = true; };
        close.addEventListener("click", hide);
        box.addEventListener("click", function (e) { if (e.target === box) hide(); });
      });
  }

  // the deadline, counted down here (the server sends when it falls)
  function tick() {
    var timer = $("timer");
    if (!state || !state.deadline) { timer.hidden = true; return; }
    var left = Math.max(0, Math.round(state.deadline - (Date.now() / 1000 + clockOffset)));
    timer.hidden = false;
    timer.textContent = "⏱ " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    timer.classList.toggle("low", left <= 10);
  }
  setInterval(tick, 1000);

  // a page put away lets its stream go at once; one that gave way to a newer
  // page takes it back when it is looked at again
  window.addEventListener("pagehide", function () { if (streamAbort) streamAbort.abort(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted && state) follow(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && replaced && chat) {
      replaced = false;
      follow();
    }
  });

  start();
});
