// Offline at the table, loaded by app.js once the page is interactive, after queue.js and
// score.js, before waiting.js and replay.js; with a service worker or without one (a plain-HTTP
// address on the LAN: the page itself then queues what it writes, replay.js). What every page needs:
// - CarteOffline: the words (in the page's language; the worker keeps the last ones), small
//   helpers, and a queued item read as the scorer reads a manche;
// - a page the worker served from its cache says so, with the time it was fetched;
// - a form that writes a manche makes its own key at once (a kept copy never hands out the same);
// - "Mettre à jour" when a new worker waits.
(function () {
  "use strict";
  var Q = window.CarteQueue, T = {};
  if (!Q || !window.CarteScore) return;

  function say(key, values) {
    return (T[key] || key).replace(/\{(\w+)\}/g, function (_, name) { return values && name in values ? values[name] : ""; });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function clock(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function field(item, name) {
    var pair = item.pairs.find(function (p) { return p[0] === name; });
    return pair ? pair[1] : "";
  }
  function setField(item, name, value) {
    item.pairs = item.pairs.filter(function (p) { return p[0] !== name; }).concat([[name, String(value)]]);
  }
  function gamePath(game) { return "/games/" + encodeURIComponent(game); }

  // A manche in a queued form, as the scorer reads one (the API's names): {number, winner, values:
  // {player: value}} (a hand typed, or its keypad counts valued by the keys' points: CarteScore.handValue).
  function result(m, item) {
    var winnerField = field(item, "winner"), winner = null, values = Object.create(null);
    if (winnerField !== "blocked" && winnerField !== "") winner = m.players[+winnerField] || null;
    m.players.forEach(function (name, seat) {
      var typed = field(item, "p" + seat + "-typed").trim(), counts = Object.create(null), cards = 0;
      if (typed) { values[name] = parseInt(typed, 10) || 0; return; }
      Object.keys(m.keys).forEach(function (token) {
        var n = parseInt(field(item, "p" + seat + "-n_" + token), 10) || 0;
        if (n) counts[token] = n;
        cards += n;
      });
      if (cards) values[name] = CarteScore.handValue(m, counts);
    });
    return { number: item.number, winner: winner, values: values };
  }
  // A manche in a few words: who went out (or blocked), then each other hand's value.
  function summary(players, manche) {
    var winner = manche.blocked ? null : manche.winner, values = manche.values;
    var parts = [winner ? say("wentOut", { name: winner }) : say("blocked")];
    players.forEach(function (name) { if (name !== winner && Object.prototype.hasOwnProperty.call(values, name)) parts.push(name + " " + values[name]); });
    return parts.join(" · ");
  }

  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/static/css/offline.css";
  document.head.appendChild(style);

  var since = document.documentElement.dataset.offlineSince;
  // The forms that write a manche make their own key at once (the manche entry, a correction, the
  // deletion of the last manche): queued offline and sent again, each is made once.
  document.querySelectorAll("form[data-manche-form], form[action$='/delete']").forEach(function (form) {
    var input = form.elements.nonce;
    if (!input) input = form.appendChild(el("input", { type: "hidden", name: "nonce" }));
    input.value = newKey();
    if (!form.elements.version) return;
    // a correction changed again (back on its page, say) is a new write: a new key; the same one
    // sent twice keeps its key, and counts once
    function renew(event) {
      if (event.type !== "click" || event.target.closest("[data-step]")) input.value = newKey();
    }
    ["input", "change", "click"].forEach(function (type) { form.addEventListener(type, renew); });
  });

  var ready = fetch("/offline/texts.json", { credentials: "same-origin" }).then(function (r) { return r.json(); })
    .catch(function () { return {}; }).then(function (texts) { T = texts; });

  window.CarteOffline = {
    ready: ready, since: since, say: say, el: el, newKey: newKey, field: field, setField: setField,
    gamePath: gamePath, result: result, summary: summary,
  };

  ready.then(function () {
    if (since) {
      var line = el("p", { class: "offline-line", role: "status" }, say("since", { time: clock(+since) }));
      document.getElementById("main").prepend(line);
    }
    updates();
  });

  // --- a new version waiting: "Mettre à jour" -------------------------------------------------

  function updates() {
    if (!navigator.serviceWorker) return;
    function offerUpdate(registration) {
      if (!registration.waiting || !navigator.serviceWorker.controller || document.querySelector(".update-bar")) return;
      var bar = el("p", { class: "update-bar panel", role: "status" }, say("ready") + " ");
      bar.appendChild(el("button", { class: "button primary", type: "button" }, say("update"))).addEventListener("click", function () {
        registration.waiting.postMessage({ type: "SKIP_WAITING" });
      });
      document.getElementById("main").prepend(bar);
    }
    navigator.serviceWorker.getRegistration().then(function (registration) {
      if (!registration) return;
      function follow(worker) {
        if (worker) worker.addEventListener("statechange", function () { if (worker.state === "installed") offerUpdate(registration); });
      }
      offerUpdate(registration);
      follow(registration.installing);  // found before this page listened
      registration.addEventListener("updatefound", function () { follow(registration.installing); });
    });
    var reloaded = false;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (!reloaded && document.querySelector(".update-bar")) { reloaded = true; location.reload(); }
    });
  }
})();
