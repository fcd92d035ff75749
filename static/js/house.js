// House rules editor: the sample hand follows the points typed.
(function () {
  function points(form, card) {
    var exact = form.querySelector('[data-points="' + card + '"]');
    if (exact && exact.value !== "" && card.length > 1 && card !== "JK") return Number(exact.value) || 0;
    var rank = card === "JK" ? "JK" : card.slice(0, -1);
    var input = form.querySelector('[data-points="' + rank + '"]');
    return input ? Number(input.value) || 0 : 0;
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (!form || !form.classList.contains("house-editor") || !event.target.hasAttribute("data-points")) return;
    var total = 0, out = form.querySelector("#preview-total");
    form.querySelectorAll("[data-preview-card]").forEach(function (cell) {
      total += cell.textContent = points(form, cell.getAttribute("data-preview-card"));
    });
    if (out) out.textContent = total;
  });
})();
