// The new-game form: a variant chosen folds its picker; the target follows the way of scoring; the
// first dealer's list follows the names typed.
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    // a variant chosen folds the picker, the players under it
    var picker = event.target.name === "variant" && event.target.closest("details.variant-picker");
    if (picker) { picker.open = false; picker.scrollIntoView({ block: "start" }); }
    // "rounds won": the default target in points becomes a number of wins, and back
    var modes = event.target.name === "mode" && event.target.closest("[data-wins-target]"), target = form && form.querySelector("#target");
    var to = modes && target && (event.target.value === "wins" ? ["pointsTarget", "winsTarget"] : ["winsTarget", "pointsTarget"]);
    if (to && target.value === modes.dataset[to[0]]) target.value = modes.dataset[to[1]];
  });

  // "who deals first" follows the names typed
  document.addEventListener("input", function (event) {
    var seat = event.target.matches("input[data-seat-name]") && event.target.dataset.seatName;
    var option = seat && document.querySelector("#first_dealer option[value='" + seat + "']");
    if (option) option.textContent = event.target.value.trim() || event.target.dataset.placeholderName;
  });
})();
