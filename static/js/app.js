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
      else if (!n && minus.getAttribute("tabindex") === "0") rove(pad, key.querySelector(ADD));
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

  // A total and the unit after it, singular or plural as the page's language says that number.
  function showTotal(out, value) {
    var unit = out.nextElementSibling, one = new Intl.PluralRules(document.documentElement.lang).select(value) === "one";
    out.textContent = value;
    unit.textContent = unit.dataset[one ? "one" : "other"];
  }

  function refreshEntry(form) {
    var entry = form.querySelector("[data-entry]"), seat = form.elements.selected.value, winner = winnerOf(form);
    form.querySelectorAll("[data-hand]").forEach(function (hand) {
      var s = hand.dataset.seat, out = !!winner && winner.value === s, on = s === seat;
      var partner = !!winner && !out && winner.dataset.side === hand.dataset.side;
      var typed = form.elements["p" + s + "-typed"], value = handValue(form, s);
      showTotal(hand.querySelector("[data-hand-total]"), value[0]);
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
      showTotal(entry.querySelector("[data-subtotal]"), value[0]);
      entry.querySelectorAll("[data-keypad] button").forEach(function (b) { b.disabled = out || !!typed.value.trim(); });
    });
    keypadTotal(entry.querySelector("[data-keypad]"));
  }

  // The manche being counted: one object (entry.js keeps it on the phone once the page's entry is
  // settled; until then, or with no IndexedDB, this page holds it). Each control changes its fields
  // (the form's, by name: the winner's cards too) and the form is drawn from them (`draw`).
  var M = window.CarteEntry = { now: { me: null, edits: {} }, keep: function (fn) { fn(M.now); }, set: set, draw: draw, slot: slot };
  // this form's fields in `now` (a correction's, edits[n], or the next manche's, of its number); `fields` given: put there
  function slot(form, now, fields) {
    var n = form.elements.number ? null : form.getAttribute("action").split("/")[4];
    if (fields === undefined) return n ? now.edits[n] : now.number === form.elements.number.value ? now.fields : null;
    if (n) now.edits[n] = fields; else Object.assign(now, { number: form.elements.number.value, fields: fields });
  }
  // the form as served (or as typed without JavaScript)
  function read(form) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (f) { if (/-n_|-typed$|^selected$/.test(f.name) || (f.checked && f.type === "radio")) fields[f.name] = f.value; });
    return fields;
  }
  function set(form, fn, by) {  // `by`: the event of a person's tap (before the kept entry comes back, it wins)
    M.tapped = M.tapped || !!(by && by.isTrusted);
    var fields = Object.assign({}, slot(form, M.now) || read(form));
    fn(fields);
    M.keep(function (now) { slot(form, now, fields); });
    draw(form, fields);
  }
  // The one draw of the manche form: its fields, the keypad's hand, then the winner's disabled and the totals.
  function draw(form, fields) {
    var pad = form.querySelector("[data-entry] [data-keypad]"), seat = form.elements.selected.value = fields.selected || form.elements.selected.value;
    Array.prototype.forEach.call(form.elements, function (f) {
      if (f.type === "radio") f.checked = f.value === (fields[f.name] || "");
      else if (/-n_|-typed$/.test(f.name)) f.value = fields[f.name] || (f.type === "hidden" ? 0 : "");
    });
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

  function step(key, delta, by) {
    var pad = key.closest("[data-keypad]"), form = pad.closest("form");
    var input = form.elements[pad.dataset.prefix + "n_" + key.dataset.token];
    function count(value) { return Math.max(0, Math.min(input.dataset.max, (parseInt(value, 10) || 0) + delta)); }
    if (!input || input.disabled) return;
    if (!form.matches("[data-manche-form]")) { input.value = count(input.value); return calculette(form); }
    set(form, function (fields) { fields[input.name] = count(fields[input.name]); }, by);
  }

  // A keypad is one Tab stop (a roving tabindex): the arrows move to the nearest visible key that
  // way on the screen (left and right go on to the next row), Home and End to the first and last.
  function rove(pad, to) { pad.querySelectorAll("button").forEach(function (b) { b.tabIndex = b === to ? 0 : -1; }); }
  document.addEventListener("focusin", function (event) {
    var pad = event.target.closest("[data-keypad]");
    if (pad && event.target.type === "submit") rove(pad, event.target);
  });
  document.addEventListener("keydown", function (event) {
    var from = event.target, key = event.key, pad = /^(Arrow|Home|End)/.test(key) && from.closest("[data-keypad]");
    if (!pad || from.type !== "submit") return;
    var here = from.getBoundingClientRect(), back = /Left|Up|Home/.test(key) ? -1 : 1, ends = /Home|End/.test(key);
    var to = Array.prototype.map.call(pad.querySelectorAll("button"), function (b) {
      var box = b.getBoundingClientRect(), y = Math.round(box.top - here.top) * back, x = (box.left - here.left) * back;
      return { b: b, rank: ends ? [-y, -x] : /Up|Down/.test(key) ? [y > 0 ? y : NaN, Math.abs(x)] : [y > 0 || (!y && x > 0) ? y : NaN, x] };
    }).filter(function (c) { return c.b.offsetParent && !c.b.disabled && c.rank[0] === c.rank[0]; }).sort(function (a, c) {
      return a.rank[0] - c.rank[0] || a.rank[1] - c.rank[1];
    })[0];
    event.preventDefault();
    if (to) to.b.focus();
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-keypad]").forEach(function (pad) { rove(pad, pad.querySelector(ADD)); });
    document.querySelectorAll("form[data-manche-form]").forEach(function (form) { draw(form, read(form)); });
  });

  // a long press takes one card away
  document.addEventListener("pointerdown", function (event) {
    var add = event.target.closest("[data-keypad] " + ADD), current = press = add && !add.disabled && { button: add };
    if (current) current.timer = setTimeout(function () { current.fired = true; step(add.parentNode, -1, event); }, 500);
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
      set(button.form, function (fields) { fields.selected = button.value; }, event);
      var entry = button.form.querySelector("[data-entry]");
      if (entry.getBoundingClientRect().top > innerHeight - 120) entry.scrollIntoView({ block: "nearest" });
    } else if (!(event.detail && press && press.fired && press.button === button)) {
      step(button.parentNode, +button.dataset.step, event);
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.form, name = event.target.name, manche = form && form.matches("[data-manche-form]");
    if (manche && /^(winner|last_card)$/.test(name)) set(form, function (fields) { fields[name] = event.target.value; if (name === "winner") fields.selected = nextHand(form); }, event);
    if (event.target.matches("select[data-autosubmit]")) form.requestSubmit();
  });

  document.addEventListener("input", function (event) {
    var form = event.target.form, name = event.target.name;
    if (form && form.matches("[data-manche-form]")) set(form, function (fields) { if (name !== "number") fields[name] = event.target.value; }, event);
    else if (form && form.querySelector("[data-keypad]")) calculette(form);
  });
})();

// Game pages: wake lock, notice hidden after a while, the first error shown; sharing: a 304 from the
// shared view's poll keeps the page, Print / Send shown where they work.
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

  // A notice hidden with the focus on it gives it to the page's heading; one whose button has the
  // focus waits until it is left.
  function autohide(root) {
    root.querySelectorAll("[data-autohide]").forEach(function (box) {
      setTimeout(function hide() {
        var focus = document.activeElement, heading = document.querySelector("main h1");
        if (box.contains(focus) && focus !== box) return box.addEventListener("focusout", function () { setTimeout(hide); }, { once: true });
        box.hidden = true;
        if (focus === box && heading) { heading.tabIndex = -1; heading.focus(); }
      }, (parseInt(box.dataset.autohide, 10) || 8) * 1000);
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) event.detail.shouldSwap = event.detail.isError = false;
  });

  document.addEventListener("click", function (event) {
    var share = event.target.closest("button[data-share-url]");
    if (event.target.closest("button[data-print]")) window.print();
    else if (share && navigator.share) navigator.share({ title: share.dataset.shareTitle, url: share.dataset.shareUrl }).catch(function () { /* closed */ });
  });

  function init(root) {
    var error = root.querySelector("form .error[role=alert]");
    autohide(root);
    if (error && error.scrollIntoView) error.scrollIntoView({ block: "center" });  // the first error in sight
    // dates written in UTC by the server, shown in the phone's time zone
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      time.textContent = new Date(time.dateTime).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
    });
    root.querySelectorAll("button[data-print]").forEach(function (button) { button.hidden = !window.print; });
    root.querySelectorAll("button[data-share-url]").forEach(function (button) { button.hidden = !navigator.share; });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); keepAwake(); });
  document.addEventListener("htmx:load", function (event) { if (event.target !== document.body) init(event.target); });
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
