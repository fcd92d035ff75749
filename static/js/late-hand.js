// The correction of a manche recorded without this phone's hand (it was offline): the hand hands.js
// kept for it is put in the form, said once; saving the correction records it (drafts.js keeps it).
(function () {
  "use strict";
  var form = document.querySelector("form[data-manche-form]"), note = document.getElementById("late-hand");
  var place = form && !form.elements.number && form.getAttribute("action").match(/^(\/games\/[^/]+)\/manches\/(\d+)$/);
  if (!place || !note) return;
  var key = "carte-late|" + place[1] + "|" + place[2], hand = null;
  try { hand = JSON.parse(localStorage.getItem(key)); } catch (e) { return; }
  if (!hand) return;
  var prefix = "p" + hand.seat + "-", counts = {};
  hand.cards.forEach(function (token) { counts[token] = (counts[token] || 0) + 1; });
  form.querySelectorAll("input[type=hidden][name^='" + prefix + "n_']").forEach(function (input) {
    input.value = counts[input.name.slice((prefix + "n_").length)] || 0;
  });
  form.elements[prefix + "typed"].value = hand.typed === null ? "" : hand.typed;
  var pick = form.querySelector("[data-hand][data-seat='" + hand.seat + "'] [name=pick]");
  if (pick) pick.click();
  form.elements.selected.dispatchEvent(new Event("input", { bubbles: true }));
  note.hidden = false;
  form.addEventListener("submit", function () { try { localStorage.removeItem(key); } catch (e) { /* kept */ } });
})();
