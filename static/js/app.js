// Carte ! — small progressive enhancements. Everything works without this file.
// The card keypad counts taps locally (no request per tap) and shows subtotals at once.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function keypadTotal(pad) {
    var total = 0;
    pad.querySelectorAll("[data-points]").forEach(function (key) {
      var input = key.querySelector("input");
      var n = parseInt(input.value, 10) || 0;
      key.classList.toggle("has-cards", n > 0);
      total += n * parseInt(key.dataset.points, 10);
    });
    var out = pad.querySelector("[data-subtotal]");
    if (out) out.textContent = total;
    return total;
  }

  function refreshForm(form) {
    var sum = 0;
    form.querySelectorAll("[data-keypad]").forEach(function (pad) { sum += keypadTotal(pad); });
    var total = form.querySelector("[data-total]");
    var list = form.querySelector("[data-breakdown]");
    if (total && list && !form.querySelector("#cards, [data-typed]")?.value) {
      total.textContent = sum;
      list.textContent = "";
      form.querySelectorAll("[data-points]").forEach(function (key) {
        var n = parseInt(key.querySelector("input").value, 10) || 0;
        for (var i = 0; i < n; i++) {
          var li = document.createElement("li");
          li.textContent = key.querySelector(".face").textContent + " " + key.dataset.points;
          list.appendChild(li);
        }
      });
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (!button) return;
    event.preventDefault();
    var input = button.parentElement.querySelector("input");
    var max = parseInt(input.max, 10);
    var n = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    input.value = Math.max(0, isNaN(max) ? n : Math.min(max, n));
    refreshForm(button.form);
  });

  document.addEventListener("input", function (event) {
    if (event.target.form) refreshForm(event.target.form);
  });

  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-autosubmit]")) event.target.form.requestSubmit();
  });

  function init(root) {
    root.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-keypad]")) form.querySelectorAll("[data-keypad]").forEach(keypadTotal);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
