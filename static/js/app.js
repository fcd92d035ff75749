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
      var count = key.querySelector("[data-count]");
      if (count) count.textContent = n > 0 ? n : "";
      var remove = key.querySelector("button[data-step='-1']");
      if (remove) remove.disabled = n === 0;
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
    var max = parseInt(input.dataset.max || input.max, 10);
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

// Game pages: keep the screen awake, hide the "saved" notice after a while, and in the manche
// form fold away the winner's keypad (its inputs are disabled, so they are not sent).
(function () {
  "use strict";

  var wakeLock = null;
  function keepAwake() {
    if (!document.body || !document.body.hasAttribute("data-wake-lock")) return;
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused (battery saver, no permission): nothing to do */ });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wakeLock === null) keepAwake();
  });

  function autohide(root) {
    root.querySelectorAll("[data-autohide]").forEach(function (box) {
      var seconds = parseInt(box.dataset.autohide, 10) || 8;
      setTimeout(function () { box.hidden = true; }, seconds * 1000);
    });
  }

  function markHands(form) {
    var chosen = form.querySelector("input[name=winner]:checked");
    var winnerSeat = chosen && chosen.value !== "blocked" ? chosen.value : null;
    var winnerSide = winnerSeat !== null ? chosen.dataset.side : null;
    form.querySelectorAll("[data-hand]").forEach(function (hand) {
      var isWinner = hand.dataset.seat === winnerSeat;
      var isPartner = !isWinner && winnerSide !== null && hand.dataset.side === winnerSide;
      hand.classList.toggle("is-winner", isWinner);
      hand.classList.toggle("is-partner", isPartner);
      hand.querySelector("[data-winner-note]").hidden = !isWinner;
      hand.querySelector("[data-partner-note]").hidden = !isPartner;
      hand.querySelectorAll(".hand-body input, .hand-body button").forEach(function (control) {
        control.disabled = isWinner;
      });
      var typed = hand.querySelector("[data-typed]");
      hand.classList.toggle("typed-on", !!(typed && typed.value.trim()));
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-manche-form]") && event.target.name === "winner") markHands(form);
    var modes = event.target.name === "mode" && event.target.closest("[data-wins-target]");
    var target = form && form.querySelector("#target");
    if (modes && target) {
      // Switching to "manches won" turns the default target of points into a number of wins.
      var wins = event.target.value === "wins";
      if (wins && target.value === modes.dataset.pointsTarget) target.value = modes.dataset.winsTarget;
      if (!wins && target.value === modes.dataset.winsTarget) target.value = modes.dataset.pointsTarget;
    }
  });

  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-manche-form]") && event.target.matches("[data-typed]")) markHands(form);
    if (event.target.matches("input[data-seat-name]")) {
      // The "who deals first" list follows the names as they are typed.
      var option = document.querySelector("#first_dealer option[value='" + event.target.dataset.seatName + "']");
      if (option) option.textContent = event.target.value.trim() || event.target.dataset.placeholderName;
    }
  });

  function showFirstError(root) {
    var error = root.querySelector("form .error[role=alert]");
    if (error && error.scrollIntoView) error.scrollIntoView({ block: "center" });
  }

  function init(root) {
    root.querySelectorAll("form[data-manche-form]").forEach(markHands);
    autohide(root);
    showFirstError(root);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); keepAwake(); });
  document.addEventListener("htmx:load", function (event) { if (event.target !== document.body) init(event.target); });
})();

// Sharing (issue 5): the shared view polls itself with If-None-Match; a 304 ("nothing changed")
// keeps the page as it is. The "Print" and "Send the link…" buttons appear where they can work.
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
      event.detail.isError = false;
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-print]")) {
      window.print();
      return;
    }
    var share = event.target.closest("button[data-share-url]");
    if (share && navigator.share) {
      navigator.share({ title: share.dataset.shareTitle, url: share.dataset.shareUrl }).catch(function () { /* closed */ });
    }
  });

  function init(root) {
    root.querySelectorAll("button[data-print]").forEach(function (button) { button.hidden = !window.print; });
    root.querySelectorAll("button[data-share-url]").forEach(function (button) { button.hidden = !navigator.share; });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { if (event.target !== document.body) init(event.target); });
})();

// --- The dispute checker "Litige ?" (issue 4): show the named-suit choice only after a card that
// names one (listed in the form's data-suit-naming), the card underneath only after a card that
// counts as the card it covers (data-covering, issue 16), and no suit buttons for a Joker. ---
(function () {
  "use strict";

  function picked(form, name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.value : "";
  }

  function refresh(form) {
    var naming = (form.dataset.suitNaming || "").split(" ");
    var rank = picked(form, "top_rank");
    var suit = picked(form, "top_suit");
    var names = rank && (naming.indexOf(rank) !== -1 || naming.indexOf(rank + suit) !== -1);
    var box = form.querySelector("[data-named-suit]");
    if (box) box.hidden = !names;
    var covering = (form.dataset.covering || "").split(" ");
    var covered = form.querySelector("[data-covered]");  // the card under an 8 that counts as it (les-huit)
    if (covered) covered.hidden = !(rank && (covering.indexOf(rank) !== -1 || covering.indexOf(rank + suit) !== -1));
    ["top", "card"].forEach(function (side) {
      var suits = form.querySelector("[data-picker=" + side + "] [data-suits]");
      if (suits) suits.hidden = picked(form, side + "_rank") === "JK";
    });
  }

  function init(root) {
    root.querySelectorAll("form[data-suit-naming]").forEach(refresh);
  }
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-suit-naming]")) refresh(form);
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { if (event.target !== document.body) init(event.target); });
})();
// --- end of issue 4 ---
// --- issue 8: house rules editor — the sample hand's preview follows the points as they are typed ---
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
    var total = 0;
    form.querySelectorAll("[data-preview-card]").forEach(function (cell) {
      var value = points(form, cell.getAttribute("data-preview-card"));
      cell.textContent = value;
      total += value;
    });
    var out = form.querySelector("#preview-total");
    if (out) out.textContent = total;
  });
})();
// --- end of issue 8 ---
