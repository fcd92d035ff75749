// Carte ! — progressive enhancements; all works without. Keypads count taps with no request.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var ADD = "button[data-step='1']", press = null;

  function num(input) { return input ? parseInt(input.value, 10) || 0 : 0; }

  // Counts and "−" buttons from the counts of the hand the keypad enters (<prefix>n_<card>);
  // returns its value.
  function keypadTotal(pad) {
    var form = pad.closest("form"), total = 0, cards = 0, less = pad.querySelector("[data-less]");
    pad.querySelectorAll("[data-token]").forEach(function (key) {
      var n = num(form.elements[pad.dataset.prefix + "n_" + key.dataset.token]), minus = key.querySelector("[data-step='-1']");
      var count = key.querySelector("[data-count]");
      key.classList.toggle("has-cards", n > 0);
      if (!n && document.activeElement === minus) key.querySelector(ADD).focus();
      minus.hidden = !n;
      count.parentNode.hidden = !n;
      count.textContent = n;
      total += n * key.dataset.points;
      cards += n;
    });
    if (less) less.hidden = !cards;
    return total;
  }

  function calculette(form) {
    var sum = 0, total = form.querySelector("[data-total]"), list = form.querySelector("[data-breakdown]");
    form.querySelectorAll("[data-keypad]").forEach(function (pad) {
      var value = keypadTotal(pad), out = pad.querySelector("[data-subtotal]");
      if (out) out.textContent = value;
      sum += value;
    });
    if (!total || !list || form.querySelector("#cards").value) return;
    total.textContent = sum;
    list.textContent = "";
    form.querySelectorAll("[data-token]").forEach(function (key) {
      for (var i = num(key.querySelector("input")); i > 0; i--) {
        list.appendChild(document.createElement("li")).textContent = key.querySelector(".face").textContent + " " + key.dataset.points;
      }
    });
  }

  function winnerOf(form) {
    var chosen = form.querySelector("input[name=winner]:checked");
    return chosen && chosen.value !== "blocked" ? chosen : null;
  }

  // [typed total or cards' value, anything entered]
  function handValue(form, seat) {
    var typed = form.elements["p" + seat + "-typed"].value.trim(), sum = 0, cards = 0;
    if (typed) return [typed, true];
    form.querySelectorAll("[data-entry] [data-token]").forEach(function (key) {
      var n = num(form.elements["p" + seat + "-n_" + key.dataset.token]);
      cards += n;
      sum += n * key.dataset.points;
    });
    return [String(sum), cards > 0];
  }

  function refreshEntry(form) {
    var entry = form.querySelector("[data-entry]"), seat = form.elements.selected.value, winner = winnerOf(form);
    form.querySelectorAll("[data-hand]").forEach(function (hand) {
      var s = hand.dataset.seat, out = !!winner && winner.value === s, on = s === seat;
      var partner = !!winner && !out && winner.dataset.side === hand.dataset.side;
      var typed = form.elements["p" + s + "-typed"], value = handValue(form, s);
      hand.querySelector("[data-hand-total]").textContent = value[0];
      hand.classList.toggle("is-empty", !value[1]);
      hand.classList.toggle("is-winner", out);
      hand.classList.toggle("is-partner", partner);
      hand.querySelector("[data-partner-note]").hidden = !partner;
      hand.querySelector("[name=pick]").setAttribute("aria-pressed", on);
      // the winner's cards stay in the page, not sent
      hand.querySelectorAll("input[type=hidden]").forEach(function (input) { input.disabled = out; });
      typed.disabled = out;
      if (!on) return;
      entry.querySelector("[data-entry-name]").textContent = hand.querySelector("[data-name]").dataset.name;
      entry.querySelector("[data-winner-note]").hidden = !out;
      entry.querySelector("[data-partner-note]").hidden = !partner;
      entry.querySelector("[data-subtotal]").textContent = value[0];
      entry.querySelectorAll("[data-keypad] button").forEach(function (b) { b.disabled = out || !!typed.value.trim(); });
    });
    keypadTotal(entry.querySelector("[data-keypad]"));
  }

  function select(form, seat) {
    var pad = form.querySelector("[data-entry] [data-keypad]");
    form.elements.selected.value = seat;
    pad.dataset.prefix = "p" + seat + "-";
    pad.querySelectorAll("button").forEach(function (b) { b.name = pad.dataset.prefix + "tap"; });
    form.querySelectorAll("[data-typed-field]").forEach(function (f) { f.hidden = f.dataset.typedField !== seat; });
    refreshEntry(form);
  }

  // as views/present.py hand_to_enter
  function nextHand(form) {
    var winner = winnerOf(form), all = Array.from(form.querySelectorAll("[data-hand]"));
    var start = winner ? all.indexOf(winner.closest("[data-hand]")) + 1 : 0;
    var counted = all.map(function (_, i) { return all[(start + i) % all.length]; }).filter(function (h) {
      return !winner || h.dataset.side !== winner.dataset.side;
    });
    var empty = counted.find(function (h) { return !handValue(form, h.dataset.seat)[1]; });
    return (empty || counted[0] || all[0]).dataset.seat;
  }

  function step(key, delta) {
    var pad = key.closest("[data-keypad]"), form = pad.closest("form");
    var input = form.elements[pad.dataset.prefix + "n_" + key.dataset.token];
    if (!input || input.disabled) return;
    input.value = Math.max(0, Math.min(input.dataset.max, num(input) + delta));
    if (form.matches("[data-manche-form]")) refreshEntry(form); else calculette(form);
  }

  // a long press takes one card away
  document.addEventListener("pointerdown", function (event) {
    var add = event.target.closest("[data-keypad] " + ADD), current = press = add && !add.disabled && { button: add };
    if (current) current.timer = setTimeout(function () { current.fired = true; step(add.parentNode, -1); }, 500);
  });
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () { if (press) clearTimeout(press.timer); });
  });
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest("[data-token]")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-keypad] button, [data-manche-form] [name=pick]");
    if (!button) return;
    event.preventDefault();
    if (button.name === "pick") {
      select(button.form, button.value);
      var entry = button.form.querySelector("[data-entry]");
      if (entry.getBoundingClientRect().top > innerHeight - 120) entry.scrollIntoView({ block: "nearest" });
    } else if (!(event.detail && press && press.fired && press.button === button)) {
      step(button.parentNode, +button.dataset.step);
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (event.target.name === "winner" && form.matches("[data-manche-form]")) select(form, nextHand(form));
    if (event.target.matches("select[data-autosubmit]")) form.requestSubmit();
  });

  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.matches("[data-manche-form]")) refreshEntry(form);
    else if (form && form.querySelector("[data-keypad]")) calculette(form);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-manche-form]").forEach(refreshEntry);
  });
})();

// Game pages: wake lock, notice hidden after a while; the new-game form.
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
    // a variant chosen folds the picker, the players under it
    var picker = event.target.name === "variant" && event.target.closest("details.variant-picker");
    if (picker) {
      picker.open = false;
      picker.scrollIntoView({ block: "start" });
    }
    var modes = event.target.name === "mode" && event.target.closest("[data-wins-target]");
    var target = form && form.querySelector("#target");
    if (modes && target) {
      // "rounds won": the default target in points becomes a number of wins
      var wins = event.target.value === "wins";
      if (wins && target.value === modes.dataset.pointsTarget) target.value = modes.dataset.winsTarget;
      if (!wins && target.value === modes.dataset.winsTarget) target.value = modes.dataset.pointsTarget;
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches("input[data-seat-name]")) {
      // "who deals first" follows the names typed
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

// Sharing: a 304 from the shared view's poll keeps the page; Print / Send shown where they work.
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
    // dates written in UTC by the server, shown in the phone's time zone
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      time.textContent = new Date(time.dateTime).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
    });
    root.querySelectorAll("button[data-print]").forEach(function (button) { button.hidden = !window.print; });
    root.querySelectorAll("button[data-share-url]").forEach(function (button) { button.hidden = !navigator.share; });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { if (event.target !== document.body) init(event.target); });
})();

// "Litige ?": the named suit after a card naming one (data-suit-naming), the card underneath after
// one that counts as it (data-covering), no suits for a Joker, a pending draw's count while one is.
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

// Offline at the table: once the page is interactive, the service worker where the browser gives
// one (HTTPS, this machine) and the offline scripts (views/offline.py) wherever IndexedDB is: on
// a plain-HTTP address the page itself keeps what is typed and queues what it cannot send.
// Their addresses carry their hash (the page says them): none is asked for again on the next page.
(function () {
  var sources = JSON.parse((document.currentScript && document.currentScript.dataset.pageScripts) || "[]");
  if (window.indexedDB) addEventListener("load", function () {
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () { /* not here */ });
    sources.forEach(function (src) {
      var script = document.createElement("script");
      script.async = false;
      script.src = src;
      document.head.appendChild(script);
    });
  });
})();
