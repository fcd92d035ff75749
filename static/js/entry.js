// The manche being counted on this phone: one object per game, kept with the offline queue (one
// idb-keyval store, queue.js) under "entry:" and the game's id, read once a game's page opens
// (`ready`): `me` (the seat this phone counts: "" for the table, null: not said), `number` and
// `pairs` (the next manche's entry as typed: its form's [name, value] pairs), `edits` (n: a
// correction as typed), `unsent` (its hands not answered yet: hands.js), `late` (its hand, recorded
// without it while offline). The form is drawn from it (`fill`, of that number only) and each tap
// changes it (`keep`); the server's open entry stays the truth of the hands; a manche saved,
// whichever way, takes its entry with it.
(function () {
  "use strict";
  var O = window.CarteOffline, kv = window.idbKeyval;
  var place = location.pathname.match(/^\/games\/([^/]+)/);
  if (!O || !place) return;
  var store = window.CarteQueue.store, key = "entry:" + decodeURIComponent(place[1]);
  var SKIP = ["nonce", "number", "selected", "save", "version"];
  function blank() { return { me: null, number: null, pairs: null, edits: {}, late: null }; }

  // `fn` changes the object, here at once and then as kept (another page of this phone may have
  // changed it meanwhile: its changes stay).
  function change(fn) {
    fn(E.now);
    return kv.update(key, function (kept) { var entry = Object.assign(blank(), kept); fn(entry); return entry; }, store)
      .catch(function () { /* storage refused: kept on this page only */ });
  }

  // the forms tapped before their entry could be brought back (the words come first): what is
  // tapped there wins; from then on each tap changes the kept entry (`keep`, after app.js counted it)
  var touched = [], keep = null;
  ["click", "input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("form[data-manche-form]");
      if (form && event.isTrusted && touched.indexOf(form) === -1) touched.push(form);
      if (form && keep) keep();
    });
  });

  // app.js puts the hand of `seat` on the keypad
  function pick(form, seat) { var button = form.querySelector("[data-hand][data-seat='" + seat + "'] [name=pick]"); if (button) button.click(); }

  // One hand ({seat, cards, typed}) put in the form.
  function fillHand(form, hand) {
    var prefix = "p" + hand.seat + "-", counts = {};
    hand.cards.forEach(function (token) { counts[token] = (counts[token] || 0) + 1; });
    form.querySelectorAll("input[type=hidden][name^='" + prefix + "n_']").forEach(function (input) {
      input.value = counts[input.name.slice((prefix + "n_").length)] || 0;
    });
    form.elements[prefix + "typed"].value = hand.typed === null ? "" : hand.typed;
  }

  // The entry's hands, winner and last card as in `pairs` (none: an empty entry); app.js then
  // draws the entry again (the event it listens to).
  function fill(form, pairs) {
    form.querySelectorAll("input[type=hidden][name*='-n_'], input[name$='-typed']").forEach(function (input) { input.value = input.type === "hidden" ? 0 : ""; });
    form.querySelectorAll("input[type=radio][name=winner]").forEach(function (radio) { radio.checked = false; });
    form.querySelectorAll("input[type=radio][name=last_card]").forEach(function (radio) { radio.checked = radio.value === ""; });
    pairs.forEach(function (pair) {
      var target = SKIP.indexOf(pair[0]) === -1 && form.elements[pair[0]];
      if (!target) return;
      if (target instanceof RadioNodeList) {
        Array.from(target).forEach(function (radio) { radio.checked = radio.value === pair[1]; });
      } else {
        target.value = pair[1];
      }
    });
    var winner = form.querySelector("input[name=winner]:checked");
    (winner || form.querySelector("input")).dispatchEvent(new Event(winner ? "change" : "input", { bubbles: true }));
  }

  // What is typed: the pairs the form would send (none when nothing is entered on a new manche).
  function typed(form) {
    var pairs = [], any = !form.elements.number;
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== "string" || SKIP.indexOf(name) !== -1) return;
      pairs.push([name, value]);
      if (name === "winner" || (/-n_/.test(name) && value !== "0") || (/-typed$/.test(name) && value.trim()) || (name === "last_card" && value)) any = true;
    });
    return any ? pairs : null;
  }

  // the manche a correction form is of (none: the next manche's entry)
  function editing(form) { return form.elements.number ? null : form.getAttribute("action").split("/")[4]; }
  // (`over`: this page's entry is done with, recorded: no later change of the page keeps it again)
  function forget(form, over) {
    var n = editing(form);
    if (over) keep = null;
    return change(function (entry) { if (n) delete entry.edits[n]; else entry.pairs = entry.unsent = null; });
  }

  // This entry as kept brought back (of its number), said so, with "clear" (and its undo); a
  // correction of a manche recorded without this phone's hand gets that hand.
  function drafts(form) {
    return E.ready.then(function () {
      var n = editing(form), number = form.elements.number, found = n ? E.now.edits[n] : null;
      if (!n && E.now.number === number.value) found = E.now.pairs;
      keep = function () {
        var pairs = typed(form);
        change(function (entry) { if (n) entry.edits[n] = pairs; else Object.assign(entry, { number: number.value, pairs: pairs }); });
      };
      if (touched.indexOf(form) !== -1) return keep();
      var late = E.now.late;  // the hand this phone counted offline, in the correction of its manche
      if (!found && n && late && String(late.number) === n) {
        fillHand(form, late);
        pick(form, late.seat);
        document.getElementById("late-hand").hidden = false;
      }
      if (!found) return;
      fill(form, found);
      var note = form.insertAdjacentElement("afterbegin", O.el("p", { class: "notice panel draft-note", role: "status" }));
      function offer(words, label, act) {
        note.textContent = O.say(words) + " ";
        var button = note.appendChild(O.el("button", { class: "button", type: "button", "data-draft": label }, O.say(label)));
        button.addEventListener("click", function () { act(); note.querySelector("button").focus(); });
      }
      function back() { offer("draftBack", "draftClear", function () { fill(form, []); offer("draftCleared", "undo", again); }); }
      function again() { fill(form, found); back(); }
      back();
    });
  }

  // The game page after a write (its address says which): the entry of what was stored or queued goes.
  function done() {
    var said = new URLSearchParams(location.search), n = said.get("edited") || said.get("queued_edit");
    if (said.get("saved") || said.get("queued") || n) change(function (entry) {
      if (!n || entry.number === n) entry.pairs = null;
      if (!n) entry.unsent = null;
      if (n) delete entry.edits[n];
      if (n && entry.late && String(entry.late.number) === n) entry.late = null;
    });
  }

  var E = window.CarteEntry = {
    now: blank(), change: change, fill: fill, fillHand: fillHand, pick: pick, typed: typed, drafts: drafts, forget: forget,
    ready: kv.get(key, store).catch(function () { return null; }).then(function (kept) {
      E.now = Object.assign(blank(), kept);
      if (!document.querySelector("form[data-manche-form]")) done();
    }),
  };
  E.settled = new Promise(function (resolve) { E.settle = resolve; });  // the entry drawn (waiting.js)
})();
