// A counted hand is never lost: what is typed on a manche entry (each hand's cards, a typed total,
// the winner, the last card) is kept on this phone as a draft until the manche is stored or
// queued, and comes back after a reload, a Back or a failed save. Loaded after offline.js, before
// waiting.js (which calls it once the entry has its number).
// A draft is kept in localStorage under "carte-draft|<game>|new|<number>|" (the next manche: one
// per game, brought back only into the entry of that number, and renumbered with it) or
// "carte-draft|<game>|edit|<n>|" (a correction of manche n). A manche saved, whichever way, takes
// its drafts with it.
(function () {
  "use strict";
  var O = window.CarteOffline;
  if (!O) return;
  var SKIP = ["nonce", "number", "selected", "save", "version"];
  // the forms tapped before their draft could be brought back (the words come first): what is
  // tapped there wins, the draft does not overwrite it
  var touched = [];
  ["click", "input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.isTrusted && event.target.closest && event.target.closest("form[data-manche-form]");
      if (form && touched.indexOf(form) === -1) touched.push(form);
    });
  });

  function draftName(game, what, number) {
    return ["carte-draft", game, what, number === undefined ? "" : number, ""].join("|").replace(/\|\|$/, "|");
  }
  function kept(fn) {
    try { return fn(localStorage); } catch (e) { return null; }  // storage refused: nothing kept
  }
  function forget(prefix) {
    kept(function (store) {
      Object.keys(store).filter(function (key) { return key.indexOf(prefix) === 0; }).forEach(function (key) { store.removeItem(key); });
    });
  }
  function entryDraft(form) {
    var path = form.getAttribute("action").split("/"), game = decodeURIComponent(path[2]);
    return form.elements.number ? draftName(game, "new") : draftName(game, "edit", path[4]);
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

  // This entry's draft brought back (of its number), said so, with "clear" (and its undo); from then
  // on each tap keeps it (after app.js counted it: its document listeners come first).
  function drafts(form) {
    var name = entryDraft(form), number = form.elements.number;
    function here() { return name + (number ? number.value + "|" : ""); }
    var found = kept(function (store) { return JSON.parse(store.getItem(here())); });
    function keep() {
      var pairs = typed(form);
      forget(name);
      if (pairs) kept(function (store) { store.setItem(here(), JSON.stringify({ pairs: pairs })); });
    }
    ["click", "input", "change"].forEach(function (type) {
      document.addEventListener(type, function (event) {
        if (event.target.closest && event.target.closest("form") === form) keep();
      });
    });
    if (touched.indexOf(form) !== -1) return keep();
    if (!found) return;
    fill(form, found.pairs);
    var note = form.insertAdjacentElement("afterbegin", O.el("p", { class: "notice panel draft-note", role: "status" }));
    function offer(words, label, act) {
      note.textContent = O.say(words) + " ";
      var button = note.appendChild(O.el("button", { class: "button", type: "button", "data-draft": label }, O.say(label)));
      button.addEventListener("click", function () { act(); note.querySelector("button").focus(); });
    }
    function back() { offer("draftBack", "draftClear", function () { fill(form, []); offer("draftCleared", "undo", again); }); }
    function again() { fill(form, found.pairs); back(); }
    back();
  }

  // The game page after a write (its address says which): the draft of what was stored or queued goes.
  function done(game) {
    var said = new URLSearchParams(location.search);
    if (said.get("saved") || said.get("queued")) forget(draftName(game, "new"));
    ["edited", "queued_edit"].forEach(function (name) {
      if (said.get(name)) ["edit", "new"].forEach(function (what) { forget(draftName(game, what, said.get(name))); });
    });
  }

  O.fill = fill;
  O.drafts = drafts;
  O.draftsDone = done;
  O.forgetDraft = function (form) { forget(entryDraft(form)); };
})();
