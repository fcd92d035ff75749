// "Litige ?": the named suit after a card naming one (data-suit-naming), the card underneath after
// one that counts as it (data-covering), no suits for a Joker, a pending draw's count while one is.
(function () {
  "use strict";

  function picked(form, name) { var input = form.querySelector("input[name=" + name + "]:checked"); return input ? input.value : ""; }

  function refresh(form) {
    var naming = (form.dataset.suitNaming || "").split(" "), rank = picked(form, "top_rank"), suit = picked(form, "top_suit");
    var names = rank && (naming.indexOf(rank) !== -1 || naming.indexOf(rank + suit) !== -1);
    var box = form.querySelector("[data-named-suit]");
    if (box) box.hidden = !names;
    // "None" is no answer once a suit must be named
    var none = form.querySelector("[for=active-none]");
    if (none) none.hidden = !!names;
    var covering = (form.dataset.covering || "").split(" ");
    var covered = form.querySelector("[data-covered]");  // the card under an 8 that counts as it (les-huit)
    if (covered) covered.hidden = !(rank && (covering.indexOf(rank) !== -1 || covering.indexOf(rank + suit) !== -1));
    var draw = form.querySelector("[data-pending-draw]");
    if (draw) draw.hidden = !form.elements.pending.checked;
    ["top", "card"].forEach(function (side) {
      var suits = form.querySelector("[data-picker=" + side + "] [data-suits]");
      if (suits) suits.hidden = picked(form, side + "_rank") === "JK";
    });
  }

  // the page's own script, run once it is read (htmx swaps the verdict, never the form)
  document.querySelectorAll("form[data-suit-naming]").forEach(refresh);
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-suit-naming]")) refresh(form);
  });
})();
