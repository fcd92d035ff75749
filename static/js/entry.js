// The manche being counted on this phone (app.js's object, drawn by its `draw`), kept with the
// offline queue (one idb-keyval store, queue.js) under "entry:" and the game's id, read once a
// game's page opens (`ready`): `me` (the seat this phone counts: "" for the table, null: not said),
// `number` and `fields` (the next manche's entry: the form's fields by name), `edits` (n: a
// correction's fields), `unsent` (its hands not answered yet: hands.js), `late` (its hand, recorded
// without it while offline). The form is drawn from it when the page's entry is settled (`drafts`,
// of that number only) and from then each control's change is kept; the server's open entry stays
// the truth of the hands; a manche saved, whichever way, takes its entry with it.
(function () {
  "use strict";
  var O = window.CarteOffline, kv = window.idbKeyval, E = window.CarteEntry;
  var place = location.pathname.match(/^\/games\/([^/]+)/);
  if (!O || !place || !E) return;
  var store = window.CarteQueue.store, key = "entry:" + decodeURIComponent(place[1]), memory = E.keep, found = null;
  function blank() { return { me: null, number: null, fields: null, edits: {}, late: null }; }

  // `fn` changes the object, here at once and then as kept (another page of this phone may have
  // changed it meanwhile: its changes stay).
  function change(fn) {
    fn(E.now);
    return kv.update(key, function (kept) { var entry = Object.assign(blank(), kept); fn(entry); return entry; }, store)
      .catch(function () { /* storage refused: kept on this page only */ });
  }

  // One hand ({seat, cards, typed}) put in the manche's fields.
  function hand(fields, h) {
    var prefix = "p" + h.seat + "-";
    Object.keys(fields).forEach(function (name) { if (name.indexOf(prefix + "n_") === 0) delete fields[name]; });
    h.cards.forEach(function (token) { fields[prefix + "n_" + token] = (+fields[prefix + "n_" + token] || 0) + 1; });
    fields[prefix + "typed"] = h.typed === null ? "" : h.typed;
  }

  // The manche's fields as in `pairs` (none: an empty entry), the keypad's hand kept.
  function fill(form, pairs) {
    E.set(form, function (fields) { var seat = fields.selected; Object.keys(fields).forEach(function (name) { delete fields[name]; }); Object.assign(fields, Object.fromEntries(pairs), { selected: seat }); });
  }
  // anything entered in these fields
  function entered(fields) {
    return Object.keys(fields).some(function (name) {
      var value = String(fields[name]).trim();
      return /-n_/.test(name) ? value !== "0" : /^(winner|last_card)$|-typed$/.test(name) && value;
    });
  }

  // What the form sends: its [name, value] pairs (a queued manche's).
  function typed(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string" && ["nonce", "number", "selected", "save", "version"].indexOf(name) === -1) pairs.push([name, value]); });
    return pairs;
  }

  // (`over`: this page's entry is done with, recorded: no later change of the page keeps it again)
  function forget(form, over) {
    if (over) E.keep = memory;
    return change(function (entry) { E.slot(form, entry, null); if (form.elements.number) entry.unsent = null; });
  }

  // This entry as kept brought back (of its number), said so, with "clear" (and its undo), unless
  // the page was tapped first (what is tapped there wins); a correction of a manche recorded
  // without this phone's hand gets that hand. From then on each change is kept.
  function drafts(form) {
    return E.ready.then(function () {
      var mine = E.slot(form, E.now), back = E.slot(form, found);
      E.keep = change;
      if (mine && E.tapped) return change(function (entry) { E.slot(form, entry, mine); });
      var late = E.now.late, n = !form.elements.number && form.getAttribute("action").split("/")[4];  // the hand this phone counted offline, in the correction of its manche
      if (!back && n && late && String(late.number) === n) {
        E.set(form, function (fields) { hand(fields, late); fields.selected = String(late.seat); });
        document.getElementById("late-hand").hidden = false;
      }
      if (!back) return;
      fill(form, Object.entries(back));
      if (!entered(back)) return;
      var note = form.insertAdjacentElement("afterbegin", O.el("p", { class: "notice panel draft-note", role: "status" }));
      function offer(words, label, act) {
        note.textContent = O.say(words) + " ";
        var button = note.appendChild(O.el("button", { class: "button", type: "button", "data-draft": label }, O.say(label)));
        button.addEventListener("click", function () { act(); note.querySelector("button").focus(); });
      }
      function clear() { fill(form, []); offer("draftCleared", "undo", again); }
      function again() { fill(form, Object.entries(back)); offer("draftBack", "draftClear", clear); }
      offer("draftBack", "draftClear", clear);
    });
  }

  // The game page after a write (its address says which): the entry of what was stored or queued goes.
  function done() {
    var said = new URLSearchParams(location.search), n = said.get("edited") || said.get("queued_edit");
    if (said.get("saved") || said.get("queued") || n) change(function (entry) {
      if (!n || entry.number === n) entry.fields = null;
      if (!n) entry.unsent = null;
      if (n) delete entry.edits[n];
      if (n && entry.late && String(entry.late.number) === n) entry.late = null;
    });
  }

  Object.assign(E, {
    change: change, fill: fill, hand: hand, typed: typed, drafts: drafts, forget: forget,
    // the kept object, but for this page's fields (what was tapped before it came back: `drafts` decides)
    ready: kv.get(key, store).catch(function () { return null; }).then(function (kept) {
      var page = E.now, form = document.querySelector("form[data-manche-form]");
      found = Object.assign(blank(), kept);
      E.now = Object.assign(blank(), kept, { edits: Object.assign({}, found.edits) });
      if (form) E.slot(form, E.now, E.slot(form, page) || null); else done();
    }),
  });
  E.settled = new Promise(function (resolve) { E.settle = resolve; });  // the entry drawn (waiting.js)
})();
