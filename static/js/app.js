// Carte ! — small progressive enhancements. Everything works without this file.
// The card keypad counts taps locally (no request per tap) and shows the values at once.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function count(input) { return input ? parseInt(input.value, 10) || 0 : 0; }

  // The count field of a key: `<prefix>n_<card>`, the prefix saying whose hand the keypad enters.
  function countField(pad, key) {
    return pad.closest("form").elements[(pad.dataset.prefix || "") + "n_" + key.dataset.token];
  }

  // The keys show the counts of the hand they enter (badges); returns that hand's value.
  function keypadTotal(pad) {
    var total = 0;
    pad.querySelectorAll("[data-token]").forEach(function (key) {
      var n = count(countField(pad, key));
      key.classList.toggle("has-cards", n > 0);
      var badge = key.querySelector("button[data-step='-1']");
      if (badge) {
        if (n === 0 && document.activeElement === badge) key.querySelector("button[data-step='1']").focus();
        badge.hidden = n === 0;
        badge.querySelector("[data-count]").textContent = n;
      }
      total += n * parseInt(key.dataset.points, 10);
    });
    var out = pad.querySelector("[data-subtotal]");
    if (out) out.textContent = total;
    return total;
  }

  // The Calculette: the value and the cards one by one, as they are tapped.
  function refreshCalculette(form) {
    var sum = 0;
    form.querySelectorAll("[data-keypad]").forEach(function (pad) { sum += keypadTotal(pad); });
    var total = form.querySelector("[data-total]");
    var list = form.querySelector("[data-breakdown]");
    if (total && list && !form.querySelector("#cards")?.value) {
      total.textContent = sum;
      list.textContent = "";
      form.querySelectorAll("[data-points]").forEach(function (key) {
        var n = count(key.querySelector("input"));
        for (var i = 0; i < n; i++) {
          var li = document.createElement("li");
          li.textContent = key.querySelector(".face").textContent + " " + key.dataset.points;
          list.appendChild(li);
        }
      });
    }
  }

  // --- The manche form: the players as a list, one keypad for the selected hand. ---
  function hands(form) { return form.querySelectorAll("[data-hand]"); }
  function typedField(form, seat) { return form.elements["p" + seat + "-typed"]; }

  function winnerOf(form) {
    var chosen = form.querySelector("input[name=winner]:checked");
    return chosen && chosen.value !== "blocked" ? chosen : null;
  }

  // What a hand is worth so far: its typed total, else its cards at the keypad's points.
  function handValue(form, seat) {
    var typed = typedField(form, seat);
    if (typed && typed.value.trim()) return { text: typed.value.trim(), filled: true };
    var sum = 0, cards = 0;
    form.querySelectorAll("[data-entry] [data-token]").forEach(function (key) {
      var n = count(form.elements["p" + seat + "-n_" + key.dataset.token]);
      cards += n;
      sum += n * parseInt(key.dataset.points, 10);
    });
    return { text: String(sum), filled: cards > 0 };
  }

  function refreshEntry(form) {
    var entry = form.querySelector("[data-entry]");
    var pad = entry.querySelector("[data-keypad]");
    var seat = form.querySelector("[data-selected]").value;
    var winner = winnerOf(form);
    hands(form).forEach(function (hand) {
      var s = hand.dataset.seat;
      var isWinner = !!winner && winner.value === s;
      var isPartner = !!winner && !isWinner && winner.dataset.side === hand.dataset.side;
      var value = handValue(form, s);
      hand.querySelector("[data-hand-total]").textContent = value.text;
      hand.classList.toggle("is-empty", !value.filled);
      hand.classList.toggle("is-winner", isWinner);
      hand.classList.toggle("is-partner", isPartner);
      hand.querySelector("[data-partner-note]").hidden = !isPartner;
      hand.querySelectorAll("input[type=hidden]").forEach(function (input) { input.disabled = isWinner; });
      var typed = typedField(form, s);
      if (typed) typed.disabled = isWinner;
      hand.querySelector("button[name=pick]").setAttribute("aria-pressed", s === seat ? "true" : "false");
      hand.classList.toggle("is-selected", s === seat);
      if (s === seat) {
        entry.querySelector("[data-entry-name]").textContent = hand.querySelector("[data-name]").textContent;
        entry.querySelector("[data-winner-note]").hidden = !isWinner;
        entry.querySelector("[data-partner-note]").hidden = !isPartner;
        var locked = isWinner || !!(typed && typed.value.trim());
        pad.querySelectorAll("button").forEach(function (button) { button.disabled = locked; });
        entry.querySelector("[data-subtotal]").textContent = value.text;
      }
    });
    keypadTotal(pad);
    entry.querySelector("[data-subtotal]").textContent = handValue(form, seat).text;
  }

  // Put a hand on the keypad: the keys now post and count for this seat.
  function select(form, seat) {
    seat = String(seat);
    form.querySelector("[data-selected]").value = seat;
    var pad = form.querySelector("[data-entry] [data-keypad]");
    pad.dataset.prefix = "p" + seat + "-";
    pad.querySelectorAll("button[data-step]").forEach(function (button) { button.name = "p" + seat + "-tap"; });
    form.querySelectorAll("[data-typed-field]").forEach(function (field) {
      field.hidden = field.dataset.typedField !== seat;
    });
    refreshEntry(form);
  }

  // After the winner is chosen: the next seat after theirs whose hand is still to enter (not the
  // winner's partner, whose hand is not counted) — as the server chooses (present.hand_to_enter).
  function nextHand(form) {
    var winner = winnerOf(form);
    var all = Array.prototype.slice.call(hands(form));
    var start = winner ? all.findIndex(function (h) { return h.dataset.seat === winner.value; }) + 1 : 0;
    var order = all.map(function (_, i) { return all[(start + i) % all.length]; });
    var counted = order.filter(function (h) {
      return !winner || (h.dataset.seat !== winner.value && h.dataset.side !== winner.dataset.side);
    });
    var empty = counted.find(function (h) { return !handValue(form, h.dataset.seat).filled; });
    return (empty || counted[0] || all[0]).dataset.seat;
  }

  function step(key, delta) {
    var pad = key.closest("[data-keypad]");
    var input = countField(pad, key);
    if (!input || input.disabled) return;
    var max = parseInt(input.dataset.max, 10);
    var n = count(input) + delta;
    input.value = Math.max(0, isNaN(max) ? n : Math.min(max, n));
    var form = pad.closest("form");
    if (form.matches("[data-manche-form]")) refreshEntry(form); else refreshCalculette(form);
  }

  // A long press on a key takes one card away, like a tap on its count badge.
  var press = null;
  function endPress() { if (press && !press.fired) clearTimeout(press.timer); }
  document.addEventListener("pointerdown", function (event) {
    var add = event.target.closest("[data-keypad] button[data-step='1']");
    if (!add || add.disabled) return;
    var current = { button: add, fired: false };
    current.timer = setTimeout(function () { current.fired = true; step(add.closest("[data-token]"), -1); }, 500);
    press = current;
  });
  ["pointerup", "pointercancel"].forEach(function (type) { document.addEventListener(type, endPress); });
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest("[data-keypad] [data-token]")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var pick = event.target.closest("[data-manche-form] button[name=pick]");
    if (pick) {
      event.preventDefault();
      select(pick.form, pick.value);
      var head = pick.form.querySelector("[data-entry]");
      if (head.scrollIntoView && head.getBoundingClientRect().top > window.innerHeight - 120) {
        head.scrollIntoView({ block: "nearest" });
      }
      return;
    }
    var button = event.target.closest("[data-keypad] button[data-step]");
    if (!button) return;
    event.preventDefault();
    var long = event.detail > 0 && press && press.fired && press.button === button;  // detail 0: a key press
    press = null;
    if (!long) step(button.closest("[data-token]"), parseInt(button.dataset.step, 10));
  });

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-manche-form]") && event.target.name === "winner") select(form, nextHand(form));
    if (event.target.matches("select[data-autosubmit]")) form.requestSubmit();
  });

  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (!form) return;
    if (form.matches("[data-manche-form]")) refreshEntry(form);
    else if (form.querySelector("[data-keypad]")) refreshCalculette(form);
  });

  function init(root) {
    root.querySelectorAll("form[data-manche-form]").forEach(refreshEntry);
    root.querySelectorAll("form:not([data-manche-form]) [data-keypad]").forEach(keypadTotal);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();

// Game pages: keep the screen awake, hide the "saved" notice after a while; the new-game form.
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

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    // New game: a variant chosen folds the list back to one line, the players right under it.
    var picker = event.target.name === "variant" && event.target.closest("details.variant-picker");
    if (picker) {
      picker.open = false;
      if (picker.scrollIntoView) picker.scrollIntoView({ block: "start" });
    }
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
