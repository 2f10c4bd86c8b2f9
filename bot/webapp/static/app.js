// Смута's table in a Telegram Mini App: draws the state the server sends
// (api/state, then live through api/events), answers the decision with a tap
// (api/answer). Every text comes from the server; it is shown with
// textContent, never as HTML.
// Runs at the end of the page, once it is parsed. When boot.js has already
// asked for the state (Telegram put the initData in the address), the table
// is drawn as soon as the state comes, without waiting for Telegram's script;
// that script's part (ready, expand, the theme's changes) is done once it has
// run (DOMContentLoaded). Else (a reload: the initData only in Telegram's
// script) everything waits for it.
(function () {
  "use strict";

  var boot = window.smuta || {};
  var tg = null;  // Telegram.WebApp, once its script has run
  var initData = boot.initData || "";
  var chat = boot.chat || null;
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

  function withTelegram() {
    tg = window.Telegram && window.Telegram.WebApp;
    if (!tg) return;
    if (!initData) initData = tg.initData || "";
    if (!chat && !boot.replay) {
      chat = (tg.initDataUnsafe && tg.initDataUnsafe.start_param) || null;
    }
    applyTheme();
    tg.onEvent("themeChanged", applyTheme);
    tg.ready();
    tg.expand();
  }

  function start() {
    var replayAt = boot.replay;
    var param = /^r(\d+)_(\d+)$/.exec(chat || "");
    if (!replayAt && param) { replayAt = [param[1], param[2]]; chat = null; }
    if (replayAt) openReplay(replayAt[0], Number(replayAt[1]) || 0, boot.replay ? boot.first : null);
    else if (chat) open(chat, boot.chat === chat ? boot.first : null);
    else pickGame();
  }

  // ------------------------------------------------------------------ a replay
  // a finished game, move by move: every frame comes at once (the slider is
  // the page's own), the log shows the moves up to the frame shown
  var replay = null;

  function openReplay(number, move, asked) {
    (asked || api("api/replay?game=" + encodeURIComponent(number)).then(function (r) {
      return r.json();
    })).then(function (data) {
      if (data.ok === false) { notice(data.text); return; }
      words = data.words;
      document.documentElement.lang = data.replay.lang;
      var last = data.replay.frames.length - 1;
      replay = { data: data.replay, at: Math.max(0, Math.min(move, last)) };
      buildReplayControls();
      showFrame(replay.at);
    }).catch(function () { notice(words["app-offline"] || "…"); });
  }

  function frameState(k) {
    var r = replay.data;
    var turns = [];
    r.turns.forEach(function (t) {
      var lines = t.moves.filter(function (m) { return m[0] <= k; })
        .map(function (m) { return m[1]; });
      if (lines.length) turns.push({ title: t.title, seat: t.seat, lines: lines, new: false });
    });
    turns.reverse();
    return Object.assign({}, r.frames[k], {
      v: "r" + r.number + "." + k,
      title: r.title + (r.chat_title ? " · " + r.chat_title : ""),
      status: "replay",
      me: null,
      cards: r.cards,
      types: r.types,
      labels: r.labels,
      story: { turns: turns, last: r.frames[k].last },
      result: k === r.frames.length - 1 ? r.result : null
    });
  }

  function showFrame(k) {
    var total = replay.data.frames.length - 1;
    replay.at = Math.max(0, Math.min(k, total));
    state = frameState(replay.at);
    draw();
    var box = $("replay");
    box.querySelector("input").value = String(replay.at);
    var where = replay.data.move_text.replace("{move}", String(replay.at))
      .replace("{total}", String(total));
    box.querySelector(".where").textContent = where;
    box.querySelector("input").setAttribute("aria-valuetext", where);
    box.querySelector(".prev").disabled = replay.at === 0;
    box.querySelector(".next").disabled = replay.at === total;
    $("live").textContent = state.story.last.text || where;
  }

  function buildReplayControls() {
    var box = $("replay");
    var total = replay.data.frames.length - 1;
    var prev = el("button", "opt prev", words["app-replay-prev"]);
    var next = el("button", "opt next", words["app-replay-next"]);
    var slider = el("input", "slider");
    slider.type = "range";
    slider.min = "0";
    slider.max = String(total);
    slider.step = "1";
    slider.setAttribute("aria-label", words["app-replay-slider"]);
    prev.addEventListener("click", function () { showFrame(replay.at - 1); });
    next.addEventListener("click", function () { showFrame(replay.at + 1); });
    slider.addEventListener("input", function () { showFrame(Number(slider.value)); });
    var row = el("div", "controls");
    row.append(prev, slider, next);
    box.replaceChildren(el("p", "where"), row);
    box.hidden = false;
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
      listGames();
    }).catch(function () { notice(words["app-offline"] || "…"); retry(); });
  }

  // ------------------------------------------------------------------ a person's games
  // more than one: a row of buttons under the title switches between them
  // (the one shown marked), each opening that game's table and its stream
  function listGames() {
    api("api/games").then(function (r) { return r.json(); }).then(function (data) {
      if (data.ok) drawGames(data.games || []);
    }).catch(function () {});
  }

  function drawGames(games) {
    var nav = $("games");
    if (games.length < 2) { nav.hidden = true; nav.replaceChildren(); return; }
    nav.setAttribute("aria-label", words["app-pick-game"] || "");
    nav.replaceChildren.apply(nav, games.map(function (g) {
      var b = el("button", "game", g.title);
      b.type = "button";
      b.dataset.chat = String(g.chat);
      if (String(g.chat) === String(chat)) b.setAttribute("aria-current", "true");
      b.addEventListener("click", function () { switchTo(String(g.chat)); });
      return b;
    }));
    nav.hidden = false;
  }

  function switchTo(id) {
    if (id === String(chat)) return;
    // the stream of the game left goes first: none of its states is drawn again
    if (streamAbort) { streamAbort.abort(); streamAbort = null; }
    state = null;
    decisionId = null;
    level = 0;
    sending = false;
    toast = "";
    backoff = 0;
    notice("");
    open(id);
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
  // a card: [name, type, colours, kind, points, accessible name]
  function cardOf(id) {
    var c = state.cards[id];
    var t = state.types[c[1]];
    return [c[0], c[1], t[0], c[2], t[1], t[2]];
  }

  // text only a screen reader reads
  function hidden(text) { return el("span", "sr", text); }
  // text a screen reader skips (its words are said another way)
  function shown(cls, text) {
    var node = el("span", cls, text);
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  // a card's button; in a house of its colour its name goes without the
  // colour's emoji (the house shows it), a Слуга's other side beside it
  function cardButton(id, extra, houseColour) {
    var c = cardOf(id);
    var kind = c[2];
    var b = el("button", "card k-" + kind + " " + (kind === "smuta" ? "" : c[3][0] || ""));
    var name = c[0];
    var alt = null;
    if (houseColour && c[3][0] === houseColour && kind === "house") {
      name = name.replace(/^\S+\s/, "");
      if (c[3].length > 1) alt = EMOJI[c[3][1]];
    }
    b.appendChild(shown("cn", name));
    var meta = el("span", "meta");
    meta.setAttribute("aria-hidden", "true");
    if (alt) meta.appendChild(el("span", "alt", alt));
    if (kind === "house") meta.appendChild(el("span", "pts", String(c[4])));
    if (kind === "order") meta.appendChild(el("span", "tag", words["app-order-tag"]));
    b.appendChild(meta);
    var label = c[5];
    if (extra) label += ", " + extra;
    b.appendChild(hidden(label));
    b.dataset.card = id;
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
    var moved = state && state.v !== next.v;
    state = next;
    clockOffset = state.now ? state.now - Date.now() / 1000 : 0;
    if (fresh) {
      level = 0;
      decisionId = state.decision ? state.decision.id : null;
      sending = false;
      toast = "";
    }
    draw();
    if (moved) announce();
  }

  // each move in one line, for a screen reader (the live region)
  function announce() {
    var line = state.story ? state.story.last.text :
      (state.log && state.log.length ? state.log[state.log.length - 1] : "");
    $("live").textContent = line || "";
  }

  function draw() {
    var s = state;
    $("title").textContent = s.title || "";
    $("head").textContent = s.head || "";
    var table = $("table");
    var parts = [];
    document.body.dataset.chat = String(chat);
    if (!s.players) { table.replaceChildren(); document.body.dataset.version = String(s.v); return; }

    var piles = el("div", "piles");
    [s.deck, s.orders, s.graveyard.text, s.orders_discard.text, s.smuta_discard.text, s.castles]
      .forEach(function (text) { piles.appendChild(el("span", "chip", text)); });
    parts.push(piles);
    var last = s.story ? s.story.last : (s.last || null);
    if (last && last.text) parts.push(el("p", "last-move", last.text));
    var lastCards = {};
    (last ? last.cards : []).forEach(function (id) { lastCards[id] = true; });

    var picks = choosable();
    s.players.forEach(function (p) {
      var box = el("section", "player" + (p.seat === s.current ? " turn" : "") +
        (last && last.seat === p.seat ? " moved" : ""));
      var who = el(picks.parts[String(p.seat)] !== undefined ? "button" : "div", "who");
      var name = el("h2", "name", p.name);
      if (p.bot) name.appendChild(shown("", " 🤖"));
      if (p.bot) name.appendChild(hidden(", " + words["app-computer"]));
      who.appendChild(name);
      var figs = el("span", "figs");
      figs.appendChild(shown("", "✋ " + p.hand + " · ⭐ " + p.points + " = " + p.score[0] + " + 🏰 " + p.score[1]));
      figs.appendChild(hidden(s.labels["hand:" + p.hand] + "; " + p.score_label));
      who.appendChild(figs);
      if (p.status) who.appendChild(el("span", "status", p.status));
      if (who.tagName === "BUTTON") {
        who.classList.add("pick");
        who.addEventListener("click", function () { choose(picks.parts[String(p.seat)]); });
      }
      box.appendChild(who);
      var houses = el("div", "houses");
      if (!p.houses.length) houses.className = "houses none";
      p.houses.forEach(function (h) {
        var house = el("div", "house " + h.colour);
        house.setAttribute("role", "group");
        house.setAttribute("aria-label", s.labels["house:" + h.colour + ":" + (h.castle || "")]);
        var top = el("div", "house-top");
        top.appendChild(shown("dot", EMOJI[h.colour]));
        if (h.castle) {
          var castle = el("button", "castle", h.castle === "permanent" ? "🏰 ♾️" : "🏰 ⚡");
          castle.setAttribute("aria-label", s.labels["house:" + h.colour + ":" + h.castle]);
          castle.dataset.topic = "castle-" + h.colour;
          top.appendChild(castle);
        }
        house.appendChild(top);
        h.cards.forEach(function (id) {
          var b = cardButton(id, lastCards[id] ? words["app-last-mark"] : "", h.colour);
          if (lastCards[id]) b.classList.add("last");
          house.appendChild(b);
        });
        houses.appendChild(house);
      });
      box.appendChild(houses);
      if (p.known && p.known.length) {
        var known = el("div", "known");
        known.appendChild(el("span", "known-title", words["app-known"]));
        p.known.forEach(function (id) { known.appendChild(cardButton(id, "")); });
        box.appendChild(known);
      }
      parts.push(box);
    });
    if (s.result && s.result.length) {
      var result = el("section", "player result");
      s.result.forEach(function (line) { result.appendChild(el("p", "", line)); });
      parts.push(result);
    }
    table.replaceChildren.apply(table, parts);

    drawHand(picks);
    drawChoice();
    mark(picks);
    tick();
    if (!drawn) {
      // the first time, the log (below the table) is built once the table is
      // on screen: the first paint does not wait for it
      drawn = true;
      if (window.performance && performance.mark) performance.mark("table-drawn");
      requestAnimationFrame(function () { setTimeout(finishDraw, 0); });
    } else {
      finishDraw();
    }
  }

  // the rest of a draw: the log, then the version the page shows (what a
  // test waits for: everything of it drawn)
  function finishDraw() {
    if (!state) return;
    drawLog();
    document.body.dataset.version = String(state.v);
  }

  function drawHand() {
    var hand = $("hand");
    if (!state.hand) { hand.hidden = true; return; }
    hand.hidden = false;
    var cards = el("div", "cards");
    state.hand.forEach(function (id) { cards.appendChild(cardButton(id, "")); });
    if (!state.hand.length) cards.appendChild(el("span", "chip", words["app-hand-empty"]));
    hand.replaceChildren(el("h2", "", state.hand_title), cards);
  }

  function turnBox(turn) {
    var box = el("li", "turn" + (turn.new ? " new" : ""));
    box.appendChild(el("h4", "", turn.title));
    var lines = el("ul");
    turn.lines.forEach(function (line) { lines.appendChild(el("li", "", line)); });
    box.appendChild(lines);
    return box;
  }

  // the log, newest turn first; the turns since the viewer's own last one
  // (never their own) are marked, under a heading of their own: words, not
  // only a colour
  function drawLog() {
    var log = $("log");
    var parts = [el("h2", "", words["app-log"])];
    if (state.story) {
      var turns = state.story.turns;
      if (!turns.length) { log.hidden = true; return; }
      var list = null, marked = null, seenNew = false;
      turns.forEach(function (t) {
        if (list === null || marked !== t.new) {
          if (t.new) { parts.push(el("h3", "new", words["app-log-new"])); seenNew = true; }
          else if (seenNew) parts.push(el("h3", "", words["app-log-earlier"]));
          list = el("ol", "turns" + (t.new ? " new" : ""));
          parts.push(list);
          marked = t.new;
        }
        list.appendChild(turnBox(t));
      });
    } else {
      if (!state.log || !state.log.length) { log.hidden = true; return; }
      var plainList = el("ul", "lines");
      state.log.forEach(function (line) { plainList.appendChild(el("li", "", line)); });
      parts.push(plainList);
    }
    log.hidden = false;
    log.replaceChildren.apply(log, parts);
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
    } else if (state.status === "replay") {
      // the replay's controls stand in its place
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
        var sr = b.querySelector(".sr");
        if (sr) sr.textContent += ", " + words["app-can-pick"];
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
    var where = replay ? "replay=" + encodeURIComponent(replay.data.number)
      : "chat=" + encodeURIComponent(chat);
    var opener = document.activeElement;
    api("api/card?" + where + "&topic=" + encodeURIComponent(topic))
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (!data.ok) return;
        var sheet = el("div", "sheet");
        sheet.setAttribute("role", "dialog");
        sheet.setAttribute("aria-modal", "true");
        sheet.setAttribute("aria-labelledby", "card-title");
        var title = el("h3", "", data.title);
        title.id = "card-title";
        sheet.appendChild(title);
        sheet.appendChild(el("div", "about", data.text));
        var close = el("button", "opt", words["app-close"]);
        sheet.appendChild(close);
        var box = $("card");
        box.replaceChildren(sheet);
        box.hidden = false;
        close.focus();
        var hide = function () {
          box.hidden = true;
          if (opener && opener.focus) opener.focus();
        };
        close.addEventListener("click", hide);
        box.addEventListener("click", function (e) { if (e.target === box) hide(); });
        box.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
      });
  }


  // the deadline, counted down here (the server sends when it falls)
  function tick() {
    var timer = $("timer");
    if (!state || !state.deadline) { timer.hidden = true; return; }
    var left = Math.max(0, Math.round(state.deadline - (Date.now() / 1000 + clockOffset)));
    var time = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    timer.hidden = false;
    var texts = state.timer || ["⏱ {time}", "{time}"];
    timer.textContent = texts[0].replace("{time}", time);
    timer.setAttribute("aria-label", texts[1].replace("{time}", time));
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

  if (boot.first) {
    start();
    document.addEventListener("DOMContentLoaded", withTelegram);
  } else {
    document.addEventListener("DOMContentLoaded", function () { withTelegram(); start(); });
  }
})();
