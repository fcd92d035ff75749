// Offline at the table: the manches waiting on this phone, loaded after offline.js.
// - the manche entry takes the number after those waiting; a waiting manche can be edited;
// - the game page (and the entry, where the page itself queued a manche) shows what waits to be
//   sent — new manches, corrections, the deletion of the last manche — with provisional totals and
//   dealer (CarteScore, score.js, fed the game's data by the page), and what the server did not
//   take, with both versions and a choice.
(function () {
  "use strict";
  var O = window.CarteOffline, Q = window.CarteQueue, E = window.CarteEntry;
  if (!O) return;
  var say = O.say, el = O.el, form = document.querySelector("form[data-manche-form]");

  var panel = document.getElementById("offline-queue");
  var model = panel && JSON.parse(panel.dataset.model);
  if (model) {
    model.game = decodeURIComponent(location.pathname.split("/")[2]);
    model.next = model.manches.length + model.after_end.length + 1;
  }

  function kind(item) { return item.kind || "new"; }
  function isNew(item) { return kind(item) === "new"; }

  var restoring = decodeURIComponent((location.hash.match(/^#restore=(.+)$/) || [])[1] || "");
  var queuedHere = null;  // the last write this page queued itself (no service worker)

  // `settled` once the page drew what waits and its entry keeps every tap as a draft.
  O.ready.then(function () {
    var entered = form && form.elements.number && form.elements.nonce ? entry() : form && E.drafts(form);
    O.shown = show();
    return Promise.all([entered, O.shown]);
  }).then(function () { O.settled = true; if (E.settle) E.settle(); });

  // --- the manche entry: its number after those waiting; a waiting manche to edit -------------

  function entry() {
    var rendered = parseInt(form.elements.number.value, 10) || 1;
    return numberEntry(rendered).then(function () {
      return restoring && Q.get(restoring);
    }).then(function (item) { if (item) restore(item, rendered); else E.drafts(form); });
  }

  // The entry's number: the server's next (`rendered`), after what waits on this phone — the last
  // manche's deletion waiting: the entry takes its number; new manches waiting: the next.
  function numberEntry(rendered) {
    return Q.all(model.game).then(function (items) {
      var waiting = items.filter(function (item) { return item.state === "waiting" && item.id !== restoring; });
      var number = rendered - waiting.filter(function (item) { return kind(item) === "delete"; }).length;
      waiting.forEach(function (item) { if (isNew(item)) number = Math.max(number, item.number + 1); });
      // live.js numbers the entry (its heading, button, title, presence) and takes it as new
      document.dispatchEvent(new CustomEvent("carte:entry", { detail: { number: number } }));
    });
  }

  function restore(item, rendered) {
    E.fill(form, item.pairs);
    form.prepend(el("p", { class: "notice panel", role: "status" }, say("editing")));
    form.addEventListener("submit", function (event) {
      if (event.submitter && event.submitter.name !== "save") return;
      event.preventDefault();
      item.pairs = item.pairs.filter(function (p) { return ["nonce", "number", "save"].indexOf(p[0]) !== -1; }).concat(E.typed(form) || []);
      var conflict = item.state === "conflict";
      item.state = "waiting";
      delete item.problem;
      Q.put(item).then(function () {
        // another phone took its number: this page, fresh from the server, knows the next one
        return conflict && !O.since ? renumber(item.game, rendered) : null;
      }).then(function () { location.href = O.gamePath(item.game); });
    });
  }

  // --- a write this page queued itself (no service worker) -------------------------------------

  // Its draft goes, the page shows it waiting; a new manche's entry empties for the next one,
  // numbered after those waiting (no page fetched: the network is gone).
  O.queued = function (item) {
    queuedHere = item;
    if (form) E.forget(form);
    return show().then(function () {
      if (!form || !isNew(item) || !form.elements.number) return null;
      E.fill(form, []);
      form.elements.nonce.value = O.newKey();
      return numberEntry(model.next);
    }).then(function () { panel.scrollIntoView({ block: "start" }); });
  };

  // Back online, the queue sent: the entry's data again from the server (what is typed stays).
  if (form && form.elements.number && panel) O.refresh = function () {
    return fetch(location.pathname, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("offline-queue");
      var number = doc.querySelector("form[data-manche-form] input[name=number]");
      if (fresh) model = Object.assign(JSON.parse(fresh.dataset.model), { game: model.game });
      model.next = model.manches.length + model.after_end.length + 1;
      queuedHere = null;
      return number ? numberEntry(parseInt(number.value, 10) || model.next) : null;
    }).catch(function () { /* offline again: as it was */ }).then(show);
  };

  // --- the game page: waiting manches, provisional totals, conflicts --------------------------

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
        var args = new URLSearchParams(location.search);
        if (queuedHere) args.set({ "new": "queued", edit: "queued_edit", "delete": "queued_delete" }[kind(queuedHere)], queuedHere.number);
        [["queued", "queued"], ["queued_edit", "queuedEdit"], ["queued_delete", "queuedDelete"]].forEach(function (pair) {
          if (args.get(pair[0])) panel.appendChild(el("p", { class: "queued-note" }, say(pair[1], { n: args.get(pair[0]) })));
        });
        panel.appendChild(el("p", { class: "hint" }, say("waitingHint")));
        var list = panel.appendChild(el("ol", { class: "waiting-list", role: "list" }));
        waiting.forEach(function (item) {
          var row = list.appendChild(el("li", { "data-waiting": item.number, "data-kind": kind(item) }));
          var text = row.appendChild(el("span"));
          text.appendChild(el("strong", {}, say({ "new": "round", edit: "roundEdited", "delete": "roundDeleted" }[kind(item)], { n: item.number })));
          if (kind(item) !== "delete") text.appendChild(document.createTextNode(" " + O.summary(model.players, O.result(model, item))));
          text.appendChild(el("small", { class: "waiting-badge" }, " " + say("waitingBadge")));
          pending(item);
          var undo = row.appendChild(el("button", { class: "button", type: "button" }, say("remove")));
          undo.addEventListener("click", function () { removeWaiting(item); });
        });
      }
      provisional(items);
    });
  }
  O.show = show;

  // Totals, ranking, dealer and "X to go" with the waiting manches counted, marked provisional.
  function provisional(items) {
    var waiting = items.filter(function (i) { return i.state === "waiting"; }), manches = applied(waiting);
    var board = document.getElementById("scoreboard");
    if (!waiting.length) return;
    var progress = CarteScore.playThrough(model, manches);
    if (!board) return standing(progress);
    var body = board.querySelector("tbody"), target = model.end.target;
    progress.standing.ranking.forEach(function (row) {
      var tr = body.querySelector("tr[data-side='" + CSS.escape(row[1]) + "']");
      if (!tr) return;
      tr.querySelector(".place").textContent = row[0];
      var total = tr.querySelector(".total");
      total.textContent = row[2];
      total.classList.add("provisional");
      var toGo = tr.querySelector(".to-go"), left = Math.max(target - row[2], 0);
      if (toGo) toGo.remove();
      if (target && row[2] && !progress.standing.finished) tr.querySelector("th").appendChild(el("small", { class: "to-go" }, say("toGo", { left: left, target: target })));
      body.appendChild(tr);
    });
    var note = board.querySelector(".provisional-note") || board.querySelector("table").insertAdjacentElement("beforebegin", el("p", { class: "provisional-note" }));
    note.textContent = say("provisional");
    nextManche(progress, manches.length + 1);
  }

  // The game's manches (those after the end too) with what waits applied in order: a new manche
  // added, a correction in place of its manche, the last manche deleted.
  function applied(waiting) {
    var manches = model.manches.concat(model.after_end);
    waiting.forEach(function (item) {
      var k = kind(item);
      if (k === "new") manches.push(O.result(model, item));
      else if (k === "edit" && item.number <= manches.length) manches[item.number - 1] = O.result(model, item);
      else if (k === "delete" && item.number === manches.length) manches.pop();
    });
    return manches;
  }

  // The entry has no scoreboard: the provisional totals and who deals, under what waits.
  function standing(progress) {
    var box = panel.appendChild(el("div", { class: "provisional-standing" }));
    box.appendChild(el("p", { class: "provisional-note" }, say("provisional")));
    var list = box.appendChild(el("ol", { class: "provisional-totals", role: "list" }));
    progress.standing.ranking.forEach(function (row) {
      var item = list.appendChild(el("li", { "data-side": row[1] }, row[0] + ". " + row[1] + " "));
      item.appendChild(el("strong", { class: "total provisional" }, row[2] + " " + say(new Intl.PluralRules(document.documentElement.lang).select(row[2]) === "one" ? "pt" : "pts")));
    });
    box.appendChild(el("p", { class: "deal" }, deals(progress)));
    if (progress.standing.finished) box.appendChild(el("p", { class: "provisional-over" }, over(progress)));
  }
  // who deals the next manche and who starts (the next seated going round), provisional
  function deals(progress) {
    var dealer = progress.next_dealer, starter = CarteScore.starter(model, progress.counted + 1, dealer);
    return say("deals", { dealer: model.players[dealer], starter: starter }) + " (" + say("provisionalBadge") + ")";
  }
  function over(progress) { return say("over", { winners: progress.standing.winners.join(", ") }); }

  // The history row of a manche with a correction or a deletion waiting is marked so.
  function pending(item) {
    if (isNew(item)) return;
    var link = document.querySelector(".history-table a[href$='/manches/" + item.number + "/edit']");
    var row = link && link.closest("tr");
    if (row) row.classList.add(kind(item) === "delete" ? "pending-delete" : "pending-edit");
  }

  // The "next manche" box: its number, its dealer and who starts.
  function nextManche(progress, number) {
    var next = document.querySelector(".next-manche");
    if (!next) return;
    var heading = next.querySelector("h2"), button = next.querySelector("a.button");
    [heading, button].forEach(function (node) { if (node) node.textContent = node.textContent.replace(new RegExp("\\b" + model.next + "\\b"), number); });
    var deal = next.querySelector(".deal");
    if (deal && deal.firstChild && deal.firstChild.nodeType === 3) deal.firstChild.textContent = deals(progress) + " ";
    var ended = next.querySelector(".provisional-over");
    if (ended) ended.remove();
    if (progress.standing.finished) next.insertBefore(el("p", { class: "provisional-over" }, over(progress)), heading.nextSibling);
  }

  // The queue of one game renumbered from `first`, in order (after an undo, or to follow the server).
  function renumber(game, first) {
    return Q.all(game).then(function (items) {
      return Promise.all(items.filter(isNew).map(function (item, index) {
        item.number = first + index;
        O.setField(item, "number", item.number);
        return Q.put(item);
      }));
    });
  }
  O.renumber = renumber;

  // An item taken out of the queue; the new manches after it take the numbers up again, and so
  // does the entry.
  function removeWaiting(item) {
    Q.all(item.game).then(function (items) {
      var news = items.filter(isNew), first = news.length ? news[0].number : item.number;
      return Q.remove(item.id).then(function () { return renumber(item.game, first); });
    }).then(function () { return form && form.elements.number && numberEntry(model.next); }).then(show);
  }

  function serverGame(game) {
    return fetch("/api/v1/games/" + encodeURIComponent(game), { headers: { Accept: "application/json" } }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    });
  }

  // What the server did not take: both versions (a manche, a correction) and a choice. A new
  // manche whose number was taken goes as the next; a correction another phone made too: mine or
  // theirs; a deletion of a manche that is no longer the last is refused, nothing lost.
  function settle(item) {
    var k = kind(item), conflict = item.state === "conflict";
    var box = el("div", { class: "settle", role: "alert", "data-settle": item.number, "data-kind": k });
    box.appendChild(el("h2", {}, say("settle", { n: item.number })));
    var why = k === "delete" ? "deleteRefused" : !conflict ? "refused" : k === "edit" ? "collision" : "conflict";
    box.appendChild(el("p", {}, say(why, { n: item.number })));
    if (item.problem && (!conflict || k === "delete")) box.appendChild(el("p", { class: "error" }, item.problem));
    if (k !== "delete") versions(box, item, conflict);
    var actions = box.appendChild(el("p", { class: "settle-actions" }));
    function choice(name, label, primary, act) {
      var node = actions.appendChild(el("button", { class: primary ? "button primary" : "button", type: "button", "data-choice": name }, say(label)));
      node.addEventListener("click", act);
    }
    if (conflict && k === "new") choice("next", "asNext", true, function () { again(item, true); });
    if (conflict && k === "edit") choice("mine", "keepMine", true, function () { O.setField(item, "version", item.theirs || ""); again(item, false); });
    if (k === "new") actions.appendChild(el("a", { class: "button", href: O.gamePath(item.game) + "/manches/new#restore=" + encodeURIComponent(item.id), "data-choice": "edit" }, say("edit")));
    var drop = k === "delete" ? "understood" : conflict && k === "edit" ? "keepTheirs" : "drop";
    choice(conflict && k === "edit" ? "theirs" : "drop", drop, false, function () { removeWaiting(item); });
    return box;
  }

  function versions(box, item, conflict) {
    var list = box.appendChild(el("dl", { class: "versions" }));
    list.appendChild(el("dt", {}, say("mine")));
    list.appendChild(el("dd", { "data-version": "mine" }, O.summary(model.players, O.result(model, item))));
    if (!conflict) return;
    serverGame(item.game).then(function (game) {
      var theirs = game.manches.concat(game.after_end).find(function (m) { return m.number === item.number; });
      if (!theirs) return;
      list.appendChild(el("dt", {}, say("theirs")));
      list.appendChild(el("dd", { "data-version": "theirs" }, O.summary(game.players, theirs)));
    }).catch(function () { /* offline: this phone's version only */ });
  }

  // Sent again: a new manche as the next one (after the server's last), a correction as chosen.
  function again(item, next) {
    item.state = "waiting";
    delete item.problem;
    Q.put(item).then(function () {
      if (!next) return null;
      return serverGame(item.game).then(function (game) { return renumber(item.game, game.manches.length + game.after_end.length + 1); });
    }).then(function () { return show(); }).then(O.replay).catch(function () { /* offline: try again later */ });
  }
})();
