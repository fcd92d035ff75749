// Offline at the table (issue 15), loaded by app.js once the page is interactive, after queue.js.
// - CarteScore: the provisional scorer, models/core/scoring.py's play_through in JavaScript (fed the
//   game's data by the page; tests/browser/test_offline_scorer.py checks that they agree);
// - a page the worker served from its cache says so, with the time it was fetched;
// - the manche entry makes its own key and number (a cached entry never hands out the same two);
// - the game page shows the manches waiting to be sent, with provisional totals and dealer;
// - the queue is sent in order, with the same keys (page load, `online`, every 20 s), through
//   the same form post as a save online; a conflict or a refusal waits for the person's choice;
// - the shared view says since when it is offline; "Mettre à jour" when a new worker waits.
(function () {
  "use strict";

  // --- the provisional scorer (models/core/scoring.py) --------------------------------------------

  function sidesOf(m) {
    var of = {};
    m.players.forEach(function (p) { of[p] = p; });
    if (m.teams) Object.keys(m.teams).forEach(function (team) { m.teams[team].forEach(function (p) { of[p] = team; }); });
    return of;
  }
  function sideNames(m) { return m.teams ? Object.keys(m.teams) : m.players.slice(); }

  // manche_points
  function manchePoints(mode, sides, values, winning) {
    var points = {};
    sides.forEach(function (s) { points[s] = 0; });
    if (winning === null) {
      var low = Math.min.apply(null, sides.map(function (s) { return values[s] || 0; }));
      var lowest = sides.filter(function (s) { return (values[s] || 0) === low; });
      if (mode === "penalty") {
        sides.forEach(function (s) { points[s] = lowest.indexOf(s) !== -1 ? 0 : values[s] || 0; });
        return points;
      }
      if (lowest.length > 1) return points;
      winning = lowest[0];
      points[winning] = mode === "winner" ? sides.reduce(function (sum, s) { return s === winning ? sum : sum + (values[s] || 0) - low; }, 0) : 1;
      return points;
    }
    if (mode === "penalty") sides.forEach(function (s) { if (s !== winning) points[s] = values[s] || 0; });
    else if (mode === "winner") points[winning] = sides.reduce(function (sum, s) { return s === winning ? sum : sum + (values[s] || 0); }, 0);
    else points[winning] = 1;
    return points;
  }

  // side_points: the winner's side's own hands do not count when someone went out; `table` is
  // the game seen from one manche (those dealt in it, their teams if everybody is there)
  function sidePoints(table, winner, values) {
    var of = sidesOf(table), winning = winner ? of[winner] : null, bySide = {};
    Object.keys(values).forEach(function (p) {
      if (winning !== null && of[p] === winning) return;
      bySide[of[p]] = (bySide[of[p]] || 0) + values[p];
    });
    return manchePoints(table.mode, sideNames(table), bySide, winning);
  }

  // standing: those who left (`gone`) are ranked after those playing, each in a place of their own
  function standing(m, totals, played, gone) {
    var low = m.mode === "penalty", sides = Object.keys(totals);
    gone = gone || {};
    function rank(list) {
      return list.map(function (s, i) { return [s, totals[s], i]; }).sort(function (a, b) {
        return (low ? a[1] - b[1] : b[1] - a[1]) || a[2] - b[2];
      });
    }
    var ordered = rank(sides.filter(function (s) { return !gone[s]; }))
      .concat(rank(sides.filter(function (s) { return gone[s]; })));
    var ranking = [], place = 0;
    ordered.forEach(function (row, i) {
      if (i === 0 || row[1] !== ordered[i - 1][1] || gone[row[0]]) place = i + 1;
      ranking.push([place, row[0], row[1]]);
    });
    var finished = m.rounds ? played >= m.rounds : played > 0 && sides.some(function (s) { return totals[s] >= m.target; });
    return {
      finished: finished,
      winners: finished ? ranking.filter(function (r) { return r[0] === 1 && !gone[r[1]]; }).map(function (r) { return r[1]; }) : [],
      ranking: ranking,
    };
  }

  // Seat: [joined, left, start] (manches played before sitting down, when leaving or null, start)
  function seatOf(m, name) { return (m.roster && m.roster[name]) || [0, null, 0]; }
  function plays(seat, number) { return seat[0] < number && (seat[1] === null || number <= seat[1]); }
  function seated(m, number) { return m.players.filter(function (p) { return plays(seatOf(m, p), number); }); }
  function nextSeated(m, number, after) {
    var count = m.players.length;
    for (var step = 1; step <= count; step++) {
      var seat = (after + step) % count;
      if (plays(seatOf(m, m.players[seat]), number)) return seat;
    }
    return after % count;
  }

  function mancheLoser(players, values, dealer) {
    var names = Object.keys(values);
    if (!names.length) return null;
    var high = Math.max.apply(null, names.map(function (n) { return values[n]; }));
    for (var step = 0; step < players.length; step++) {
      var seat = (((dealer + 1 + step) % players.length) + players.length) % players.length;
      if (values[players[seat]] === high) return seat;
    }
    return null;
  }

  // play_through: results are [[winner or null, {player: hand value}], ...]
  function playThrough(m, results) {
    var sides = sideNames(m), running = {}, counted = 0, dealers = [], all = [];
    var previous = null, loser = null, roster = m.roster || {};
    sides.forEach(function (s) { running[s] = 0; });

    function dealerOf(number) {
      if (previous === null || (m.loser_deals && loser !== null)) {
        var seat = previous === null ? m.first_dealer % m.players.length : loser;
        return plays(seatOf(m, m.players[seat]), number) ? seat : nextSeated(m, number, seat);
      }
      return nextSeated(m, number, previous);
    }
    function sitDown(number) {
      Object.keys(roster).forEach(function (name) {
        var seat = roster[name];
        if (seat[0] === number - 1 && seat[0] > 0 && name in running) running[name] += seat[2];
      });
    }

    results.forEach(function (result, index) {
      var number = index + 1, atTable = seated(m, number);
      var table = { mode: m.mode, players: atTable, teams: atTable.length === m.players.length ? m.teams : null };
      var points = sidePoints(table, result[0], result[1]);
      var seat = dealerOf(number);
      all.push(points);
      dealers.push(seat);
      previous = seat;
      if (counted < number - 1 || (counted && standing(m, running, counted).finished)) return;
      counted = number;
      sitDown(number);
      loser = Object.keys(result[1]).length ? mancheLoser(m.players, result[1], seat) : seat;
      var next = {};
      sides.forEach(function (s) { next[s] = running[s] + (points[s] || 0); });
      running = next;
    });
    if (!standing(m, running, counted).finished) sitDown(counted + 1);
    var gone = {};
    Object.keys(roster).forEach(function (name) {
      if (roster[name][1] !== null && roster[name][1] <= counted) gone[name] = true;
    });
    return {
      points: all, dealers: dealers, counted: counted, totals: running,
      standing: standing(m, running, counted, gone),
      next_dealer: dealerOf(counted + 1),
    };
  }

  window.CarteScore = { playThrough: playThrough };

  // --- helpers ---------------------------------------------------------------------------------

  var Q = window.CarteQueue, T = {};
  if (!Q || !navigator.serviceWorker) return;

  // The manche entry makes its own key at once (a kept copy of the page must not hand out the same).
  var form = document.querySelector("form[data-manche-form]");
  if (form && form.elements.nonce) form.elements.nonce.value = newKey();

  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/static/css/offline.css";
  document.head.appendChild(style);

  // the words, in the page's language (the worker keeps the last ones for offline)
  fetch("/offline/texts.json", { credentials: "same-origin" }).then(function (r) { return r.json(); })
    .catch(function () { return {}; }).then(function (texts) { T = texts; start(); });

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

  // A queued manche as the scorer reads it: [winner, {player: value}] from the form's fields.
  function result(m, item) {
    var winnerField = field(item, "winner"), winner = null, values = {};
    if (winnerField !== "blocked" && winnerField !== "") winner = m.players[+winnerField] || null;
    m.players.forEach(function (name, seat) {
      var typed = field(item, "p" + seat + "-typed").trim(), sum = 0, cards = 0;
      if (typed) { values[name] = parseInt(typed, 10) || 0; return; }
      Object.keys(m.keys).forEach(function (token) {
        var n = parseInt(field(item, "p" + seat + "-n_" + token), 10) || 0;
        cards += n;
        sum += n * m.keys[token];
      });
      if (cards) values[name] = sum;
    });
    return [winner, values];
  }
  function summary(players, winner, values) {
    var parts = [winner ? say("wentOut", { name: winner }) : say("blocked")];
    players.forEach(function (name) { if (name !== winner && name in values) parts.push(name + " " + values[name]); });
    return parts.join(" · ");
  }

  function start() {
    // --- a page served from the worker's cache --------------------------------------------------

    var since = document.documentElement.dataset.offlineSince;
    if (since) {
      var line = el("p", { class: "offline-line", role: "status" }, say("since", { time: clock(+since) }));
      document.getElementById("main").prepend(line);
    }

    // --- the manche entry: its own key and number; a waiting manche to edit --------------------

    if (form && form.elements.nonce) {
      var game = decodeURIComponent(form.getAttribute("action").split("/")[2]);
      var restoring = decodeURIComponent((location.hash.match(/^#restore=(.+)$/) || [])[1] || "");
      var rendered = parseInt(form.elements.number.value, 10) || 1;
      Q.all(game).then(function (items) {
        var number = rendered;
        items.forEach(function (item) { if (item.state === "waiting" && item.id !== restoring) number = Math.max(number, item.number + 1); });
        if (number !== rendered) renumberEntry(rendered, number);
        return restoring && Q.get(restoring);
      }).then(function (item) { if (item) restore(item); });
    }

    function renumberEntry(from, to) {
      form.elements.number.value = to;
      var pattern = new RegExp("\\b" + from + "\\b");
      [document.querySelector(".page-head h1"), form.querySelector(".save-bar button")].forEach(function (node) {
        if (node) node.textContent = node.textContent.replace(pattern, to);
      });
      document.title = document.title.replace(pattern, to);
    }

    function restore(item) {
      var skip = ["csrf_token", "nonce", "number", "selected", "save"];
      form.querySelectorAll("input[type=hidden][name*='-n_'], input[name$='-typed']").forEach(function (input) { input.value = input.type === "hidden" ? 0 : ""; });
      item.pairs.forEach(function (pair) {
        if (skip.indexOf(pair[0]) !== -1) return;
        var target = form.elements[pair[0]];
        if (!target) return;
        if (target instanceof RadioNodeList) {
          Array.from(target).forEach(function (radio) { radio.checked = radio.value === pair[1]; });
        } else {
          target.value = pair[1];
        }
      });
      form.prepend(el("p", { class: "notice panel", role: "status" }, say("editing")));
      var winner = form.querySelector("input[name=winner]:checked");
      (winner || form.querySelector("input")).dispatchEvent(new Event(winner ? "change" : "input", { bubbles: true }));
      form.addEventListener("submit", function (event) {
        if (event.submitter && event.submitter.name !== "save") return;
        event.preventDefault();
        var pairs = [];
        new FormData(form).forEach(function (value, name) { if (typeof value === "string" && skip.indexOf(name) === -1) pairs.push([name, value]); });
        item.pairs = item.pairs.filter(function (p) { return ["csrf_token", "nonce", "number", "save"].indexOf(p[0]) !== -1; }).concat(pairs);
        var conflict = item.state === "conflict";
        item.state = "waiting";
        delete item.problem;
        Q.put(item).then(function () {
          // another phone took its number: this page, fresh from the server, knows the next one
          return conflict && !since ? renumber(item.game, rendered) : null;
        }).then(function () { location.href = gamePath(item.game); });
      });
    }

    // --- the game page: waiting manches, provisional totals, conflicts --------------------------

    var panel = document.getElementById("offline-queue");
    var model = panel && JSON.parse(panel.dataset.model);
    if (model) {
      model.game = decodeURIComponent(location.pathname.split("/")[2]);
      model.next = model.results.length + 1;
    }

    function show() {
      if (!model) return Promise.resolve();
      return Q.all(model.game).then(function (items) {
        panel.textContent = "";
        panel.hidden = !items.length;
        var waiting = items.filter(function (i) { return i.state === "waiting"; });
        // the live table (live.js) waits while manches wait here: its swaps would show the server's
        // numbers without them, or a manche just sent twice (here and in the history)
        panel.dataset.waiting = String(waiting.length);
        document.dispatchEvent(new CustomEvent("carte:queue", { detail: { waiting: waiting.length } }));
        if (!items.length) return;
        items.filter(function (i) { return i.state !== "waiting"; }).forEach(function (item) { panel.appendChild(settle(item)); });
        if (waiting.length) {
          panel.appendChild(el("h2", {}, say("waiting")));
          var queued = new URLSearchParams(location.search).get("queued");
          if (queued) panel.appendChild(el("p", { class: "queued-note" }, say("queued", { n: queued })));
          panel.appendChild(el("p", { class: "hint" }, say("waitingHint")));
          var list = panel.appendChild(el("ol", { class: "waiting-list", role: "list" }));
          waiting.forEach(function (item) {
            var r = result(model, item), row = list.appendChild(el("li", { "data-waiting": item.number }));
            var text = row.appendChild(el("span"));
            text.appendChild(el("strong", {}, say("round", { n: item.number })));
            text.appendChild(document.createTextNode(" " + summary(model.players, r[0], r[1])));
            var undo = row.appendChild(el("button", { class: "button", type: "button" }, say("remove")));
            undo.addEventListener("click", function () { removeWaiting(item); });
          });
        }
        provisional(items);
      });
    }

    // Totals, ranking, dealer and "X to go" with the waiting manches counted, marked provisional.
    function provisional(items) {
      var extra = items.filter(function (i) { return i.state === "waiting"; }).map(function (i) { return result(model, i); });
      var board = document.getElementById("scoreboard");
      if (!extra.length || !board) return;
      var progress = playThrough(model, model.results.concat(extra));
      var body = board.querySelector("tbody"), target = model.rounds ? null : model.target;
      progress.standing.ranking.forEach(function (row) {
        var tr = body.querySelector("tr[data-side='" + CSS.escape(row[1]) + "']");
        if (!tr) return;
        tr.querySelector(".place").textContent = row[0];
        var total = tr.querySelector(".total");
        total.textContent = row[2];
        total.classList.add("provisional");
        var toGo = tr.querySelector(".to-go");
        if (target && row[2] && !progress.standing.finished) {
          if (!toGo) toGo = tr.querySelector("th").appendChild(el("small", { class: "to-go" }));
          toGo.textContent = say("toGo", { left: Math.max(target - row[2], 0), target: target });
        } else if (toGo) {
          toGo.remove();
        }
        body.appendChild(tr);
      });
      var note = board.querySelector(".provisional-note") || board.querySelector("table").insertAdjacentElement("beforebegin", el("p", { class: "provisional-note" }));
      note.textContent = say("provisional");
      var next = document.querySelector(".next-manche"), number = model.next + extra.length;
      if (!next) return;
      var heading = next.querySelector("h2"), button = next.querySelector("a.button");
      [heading, button].forEach(function (node) { if (node) node.textContent = node.textContent.replace(new RegExp("\\b" + model.next + "\\b"), number); });
      var deal = next.querySelector(".deal"), dealer = progress.next_dealer;
      if (deal && deal.firstChild && deal.firstChild.nodeType === 3) {
        deal.firstChild.textContent = say("deals", { dealer: model.players[dealer], starter: model.players[(dealer + 1) % model.players.length] }) + " (" + say("provisionalBadge") + ") ";
      }
      var over = next.querySelector(".provisional-over");
      if (progress.standing.finished) {
        if (!over) over = next.insertBefore(el("p", { class: "provisional-over" }), heading.nextSibling);
        over.textContent = say("over", { winners: progress.standing.winners.join(", ") });
      } else if (over) {
        over.remove();
      }
    }

    // The queue of one game renumbered from `first`, in order (after an undo, or to follow the server).
    function renumber(game, first) {
      return Q.all(game).then(function (items) {
        return Promise.all(items.map(function (item, index) {
          item.number = first + index;
          setField(item, "number", item.number);
          return Q.put(item);
        }));
      });
    }

    function removeWaiting(item) {
      Q.all(item.game).then(function (items) {
        var first = items.length ? items[0].number : item.number;
        return Q.remove(item.id).then(function () { return renumber(item.game, first); });
      }).then(show);
    }

    function serverGame(game) {
      return fetch("/api/v1/games/" + encodeURIComponent(game), { headers: { Accept: "application/json" } }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      });
    }

    // A manche the server did not take: both versions and a choice.
    function settle(item) {
      var box = el("div", { class: "settle", role: "alert", "data-settle": item.number });
      box.appendChild(el("h2", {}, say("settle", { n: item.number })));
      var conflict = item.state === "conflict";
      box.appendChild(el("p", {}, conflict ? say("conflict") : say("refused")));
      if (!conflict && item.problem) box.appendChild(el("p", { class: "error" }, item.problem));
      var versions = box.appendChild(el("dl", { class: "versions" })), mine = result(model, item);
      versions.appendChild(el("dt", {}, say("mine")));
      versions.appendChild(el("dd", { "data-version": "mine" }, summary(model.players, mine[0], mine[1])));
      if (conflict) {
        serverGame(item.game).then(function (game) {
          var theirs = game.manches.concat(game.after_end).find(function (m) { return m.number === item.number; });
          if (!theirs) return;
          versions.appendChild(el("dt", {}, say("theirs")));
          versions.appendChild(el("dd", { "data-version": "theirs" }, summary(game.players, theirs.blocked ? null : theirs.winner, theirs.values)));
        }).catch(function () { /* offline: this phone's version only */ });
      }
      var actions = box.appendChild(el("p", { class: "settle-actions" }));
      if (conflict) {
        actions.appendChild(el("button", { class: "button primary", type: "button", "data-choice": "next" }, say("asNext"))).addEventListener("click", function () {
          serverGame(item.game).then(function (game) {
            item.state = "waiting";
            delete item.problem;
            return Q.put(item).then(function () { return renumber(item.game, game.manches.length + game.after_end.length + 1); });
          }).then(function () { return show(); }).then(replay).catch(function () { /* offline: try again later */ });
        });
      }
      actions.appendChild(el("a", { class: "button", href: gamePath(item.game) + "/manches/new#restore=" + encodeURIComponent(item.id), "data-choice": "edit" }, say("edit")));
      actions.appendChild(el("button", { class: "button", type: "button", "data-choice": "drop" }, say("drop"))).addEventListener("click", function () {
        Q.all(item.game).then(function (items) {
          var first = items[0].number;
          return Q.remove(item.id).then(function () { return renumber(item.game, first); });
        }).then(show);
      });
      return box;
    }

    // --- sending the queue ----------------------------------------------------------------------

    var sending = null;

    function freshToken(game) {
      return fetch(gamePath(game) + "/manches/new", { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html"), input = doc.querySelector("input[name=csrf_token]");
        return input ? input.value : null;
      });
    }

    function problemOf(response) {
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var nodes = doc.querySelectorAll(".conflict p, form .error[role=alert], .error-page p, [role=alert]");
        var said = Array.from(nodes).map(function (node) { return node.textContent.trim(); }).filter(Boolean);
        return said.length ? said[0] : String(response.status);
      });
    }

    function post(item) {
      return fetch(item.action, { method: "POST", body: new URLSearchParams(item.pairs), credentials: "same-origin" });
    }

    // One manche: "sent" | "kept" (retry later) | "stopped" (waits for the person); never twice:
    // a retry carries the same key, which the server answers as the first time. A manche is "the
    // next one": if another phone took its number meanwhile, the server records it as the next and
    // says so in the address it sends the phone to (?saved=8&shown=7), which the game page shows.
    var renumbered = "";
    function sendOne(item, renewed) {
      return post(item).then(function (response) {
        if (response.redirected && response.ok) {
          var notice = new URL(response.url).search;
          if (/[?&]shown=/.test(notice)) renumbered = notice;
          return Q.remove(item.id).then(function () { return "sent"; });
        }
        if (response.status === 400 && !renewed) {
          // most likely a CSRF token that expired while offline: a new one, then once more
          return freshToken(item.game).then(function (token) {
            if (!token) return "kept";
            setField(item, "csrf_token", token);
            return Q.put(item).then(function () { return sendOne(item, true); });
          });
        }
        if (response.status === 409 || (response.status >= 400 && response.status < 500 && response.status !== 429)) {
          return problemOf(response).then(function (problem) {
            item.state = response.status === 409 ? "conflict" : "refused";
            item.problem = problem;
            return Q.put(item).then(function () { return "stopped"; });
          });
        }
        return "kept";
      }, function () { return "kept"; });
    }

    function sendAll() {
      return Q.all().then(function (items) {
        var stopped = {}, reached = 0;
        return items.reduce(function (chain, item) {
          return chain.then(function (going) {
            if (!going) return false;
            if (item.state !== "waiting" || stopped[item.game]) { stopped[item.game] = true; return true; }
            return sendOne(item).then(function (outcome) {
              if (outcome !== "kept") reached++;
              if (outcome === "stopped") stopped[item.game] = true;
              return outcome !== "kept";
            });
          });
        }, Promise.resolve(true)).then(function () { return reached; });
      });
    }

    function replay() {
      if (sending) return sending;
      if (panel && !panel.hidden && !panel.querySelector("[data-sending]")) panel.appendChild(el("p", { class: "hint", "data-sending": "" }, say("sending")));
      var run = function () { return sendAll(); };
      var locked = navigator.locks ? navigator.locks.request("carte-replay", run) : run();
      sending = locked.then(function (reached) {
        sending = null;
        // the server answered: the game page shows its own numbers again (a kept copy is replaced)
        if (reached && model) location.replace(gamePath(model.game) + renumbered);
        else return show();
      }, function () { sending = null; });
      return sending;
    }

    show().then(function () { if (navigator.onLine) replay(); });
    addEventListener("online", replay);
    setInterval(function () {
      Q.all().then(function (items) { if (items.some(function (i) { return i.state === "waiting"; })) replay(); });
    }, 20000);

    // A game page kept for offline brings its manche entry along.
    var enter = document.querySelector(".next-manche a.button[href$='/manches/new']");
    if (!since) {
      navigator.serviceWorker.ready.then(function (registration) {
        var worker = registration.active;
        if (enter) worker.postMessage({ type: "keep", urls: [enter.getAttribute("href")] });
        worker.postMessage({ type: "keep", urls: [location.pathname], missing: true });
      });
    }

    // --- the shared view: the last state, and since when ----------------------------------------

    // The shared view follows its game by its event stream (live.js): when the network goes, it
    // says since when it shows the last state; when the stream is open again (it catches up by
    // itself), the line goes.
    var offlineSince = null;
    function sharedOffline() {
      if (!document.querySelector(".shared[sse-connect]")) return;
      if (offlineSince === null) offlineSince = Date.now();
      var line = document.querySelector(".share-offline") || document.getElementById("main").insertAdjacentElement("afterbegin", el("p", { class: "offline-line share-offline", role: "status" }));
      line.textContent = say("shareSince", { time: clock(offlineSince) });
    }
    addEventListener("offline", sharedOffline);
    if (!navigator.onLine) sharedOffline();  // gone before this script was ready
    document.addEventListener("htmx:sseError", function () { if (!navigator.onLine) sharedOffline(); });
    function sharedOnline() {
      offlineSince = null;
      var line = document.querySelector(".share-offline");
      if (line) line.remove();
    }
    document.addEventListener("htmx:sseOpen", sharedOnline);  // a stream cut reopened (it catches up)
    addEventListener("online", sharedOnline);  // or one that was never cut

    // --- a new version waiting: "Mettre à jour" -------------------------------------------------

    function offerUpdate(registration) {
      if (!registration.waiting || !navigator.serviceWorker.controller || document.querySelector(".update-bar")) return;
      var bar = el("p", { class: "update-bar panel", role: "status" }, say("ready") + " ");
      bar.appendChild(el("button", { class: "button primary", type: "button" }, say("update"))).addEventListener("click", function () {
        registration.waiting.postMessage({ type: "take-over" });
      });
      document.getElementById("main").prepend(bar);
    }
    navigator.serviceWorker.getRegistration().then(function (registration) {
      if (!registration) return;
      offerUpdate(registration);
      registration.addEventListener("updatefound", function () {
        var worker = registration.installing;
        if (worker) worker.addEventListener("statechange", function () { if (worker.state === "installed") offerUpdate(registration); });
      });
    });
    var reloaded = false;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (!reloaded && document.querySelector(".update-bar")) { reloaded = true; location.reload(); }
    });
  }
})();
