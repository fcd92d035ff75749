// One manche, many hands: once this phone says which player it is (`me`, entry.js), its entry joins
// the game's open entry on the server: each change of a hand or of the winner is sent at once, the
// others' arrive on the stream (live.js: `carte:entry-state`) and are drawn in the form, which
// holds the whole manche. Saving sends the page's nonce as idempotency key; no network: the form
// is posted as it is (same nonce). Without JavaScript (or IndexedDB): the whole-manche form.
(function () {
  "use strict";
  var box = document.getElementById("open-entry");
  var form = box && box.closest("form[data-manche-form]");
  var E = window.CarteEntry;
  if (!form || !E.ready || !window.fetch) return;
  var base = box.dataset.openEntry, gameUrl = box.dataset.gameUrl, nextUrl = box.dataset.nextUrl;
  var number = parseInt(form.elements.number.defaultValue, 10);  // the server's (waiting.js may renumber the field)
  var myTag = null, shown = 0, state = null, timers = {}, chains = {}, saving = false, posting = false, counted = false, overdue = false, answered = null;
  var winning = false;  // the winner chosen here on its way

  function words(name, values) {  // a sentence of the page's; its singular (…One) for {points} said so
    var one = new Intl.PluralRules(document.documentElement.lang).select(values.points) === "one" && box.dataset["w" + name + "One"];
    return (one || box.dataset["w" + name]).replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }
  function nameOf(seat) {
    var hand = form.querySelector("[data-hand][data-seat='" + seat + "']");
    return hand ? hand.querySelector("[data-name]").textContent : "";
  }
  // this phone said who it is: it counts into the open entry
  function joined() { return E.now.me !== null; }
  // the hand of `seat` on the keypad
  function pick(seat) { E.set(form, function (fields) { fields.selected = seat; }); }

  function send(method, path, body) {
    return fetch(base + path, {
      method: method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    }).catch(function (error) { dispatchEvent(new Event("carte:unreached")); throw error; }).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; });
    });
  }

  // this phone's hands, changed and not answered yet, in its entry (entry.js): `pending` waits to
  // leave, `inflight` is on its way (of this page's number; the page opened again, they leave).
  function unsent(entry) {
    if (!entry.unsent || entry.unsent.number !== number || !entry.unsent.inflight) entry.unsent = { number: number, pending: {}, inflight: {} };
    return entry.unsent;
  }
  // `fn(pending, inflight)` changes them, in the object here and as kept
  function hold(fn) { E.change(function (entry) { var held = unsent(entry); fn(held.pending, held.inflight); }); }

  // the hand of ``seat`` in a state the server sent (none before the first)
  function handAt(data, seat) {
    return data ? data.hands.find(function (h) { return String(h.seat) === String(seat); }) : undefined;
  }
  function handBody(seat) {
    var cards = [], typed = form.elements["p" + seat + "-typed"].value.trim();
    form.querySelectorAll("input[type=hidden][name^='p" + seat + "-n_']").forEach(function (input) {
      for (var i = parseInt(input.value, 10) || 0; i > 0; i--) cards.push(input.name.slice(("p" + seat + "-n_").length));
    });
    return { number: number, cards: typed ? [] : cards, typed: typed || null, done: isDone(seat), me: E.now.me ? nameOf(E.now.me) : null };
  }
  // counted or not: as last said here (waiting, or on its way), else as the server says
  function isDone(seat) {
    var held = unsent(E.now), hand = handAt(state, seat), said = [held.pending[seat], held.inflight[seat]].find(function (p) { return p && "done" in p; });
    return said ? said.done : !!(hand && hand.done);
  }
  // « comptée » says it of the hand on the keypad, whichever was just put there
  function showDone() { box.querySelector("[data-done]").setAttribute("aria-pressed", String(isDone(form.elements.selected.value))); }
  function changed(seat, extra) {
    if (!joined()) return;
    if (String(seat) === E.now.me) counted = true;
    hold(function (pending) { pending[seat] = Object.assign(pending[seat] || {}, extra); });
    clearTimeout(timers[seat]);
    timers[seat] = setTimeout(function () { flush(seat); }, 150);
  }
  // one hand's changes leave in turn (two at once could land in either order: the later wins)
  function flush(seat) {
    clearTimeout(timers[seat]);
    chains[seat] = (chains[seat] || Promise.resolve()).then(function () { return sendHand(seat); });
    return chains[seat];
  }
  function sendHand(seat) {
    if (!unsent(E.now).pending[seat]) return;
    var body = handBody(seat);
    hold(function (pending, inflight) { delete pending[seat]; inflight[seat] = body; });
    return send("PUT", "/hands/" + seat, body).then(function (answer) {
      hold(function (pending, inflight) { delete inflight[seat]; });
      if (answer.status === 200 && !(answered && answered.version > answer.data.version)) answered = answer.data;
      if (answer.status === 200) apply(answer.data);
      else if (answer.status === 409) late(seat, body);
      // a later change of this hand was heard while it was on its way: that one is shown
      if (answer.status === 200 && answer.data.version < shown) catchUp(seat);
      // the manche was recorded while this hand was on its way
      if (!sending() && overdue && !saving) recorded();
    // offline: kept, sent when back (marked done or not, as it was sent)
    }).catch(function () { hold(function (pending, inflight) { delete inflight[seat]; pending[seat] = Object.assign({ done: body.done }, pending[seat]); }); });
  }
  function catchUp(seat) {
    var hand = handAt(state, seat);
    if (saving || posting || !hand || mineNow(seat)) return;
    E.set(form, function (fields) { E.hand(fields, hand); });
  }
  function sending() { return Object.keys(unsent(E.now).inflight).length > 0; }
  // changed here, not answered yet: the form holds it
  function mineNow(seat) { var held = unsent(E.now); return held.pending[seat] || held.inflight[seat]; }
  // every hand sent and answered (a save must not overtake one)
  function flushAll() {
    var seats = Object.keys(unsent(E.now).pending).concat(Object.keys(chains)).filter(function (seat, i, all) { return all.indexOf(seat) === i; });
    return Promise.all(seats.map(flush));
  }
  // What this phone counted, it vouches for: its hands the server finds missing are marked done,
  // as it last answered them (while saving, the page is no longer drawn again).
  function vouch() {
    var last = answered && (!state || answered.version > state.version) ? answered : state;
    (last ? last.hands : []).forEach(function (hand) {
      if (hand.by.phone !== (last.me || myTag) || last.missing.indexOf(hand.player) < 0) return;
      hold(function (pending) { pending[hand.seat] = Object.assign(pending[hand.seat] || {}, { done: true }); });
    });
    return flushAll();
  }

  // what the server says

  function leave() { saving = true; location.assign(gameUrl + "?saved=" + (number)); }
  // live.js: saving (no sign of life, no renumbering), or not
  function tellSaving(on) { document.dispatchEvent(new CustomEvent("carte:saving", { detail: { saving: on } })); }

  // saved by another phone: counting its own hand, this phone goes on to the next entry
  function movedOn() {
    var mine = E.now.me, own = mine && handAt(state, mine);
    if (!counted && !(own && own.by.phone === myTag)) return leave();
    saving = true;
    E.forget(form, true).then(function () { location.assign(nextUrl + "?saved=" + number); });  // once forgotten as kept (a page gone mid-write loses it)
  }

  // recorded without this phone's hand (offline): kept for the correction offered
  function late(seat, body) {
    if (!body.cards.length && body.typed === null) return leave();
    saving = true;
    E.forget(form, true);  // a renumbering heard now would keep this manche's hands as the next one's
    E.change(function (entry) { entry.late = { number: number, seat: seat, cards: body.cards, typed: body.typed }; });
    var line = document.getElementById("hand-late");
    line.querySelector("a").href = gameUrl + "/manches/" + number + "/edit";
    line.hidden = false;
    line.querySelector("a").focus();
  }

  function fillWinner(fields, data) {
    fields.winner = data.blocked ? "blocked" : data.winner_seat === null ? "" : String(data.winner_seat);
  }

  // recorded by another phone (entry or whole form): what waits is sent (see late), or move on
  function recorded() {
    // a hand on its way decides first
    overdue = sending();
    if (overdue) return;
    return Object.keys(unsent(E.now).pending).length ? flushAll() : movedOn();
  }

  function apply(data) {
    if (saving || posting || !joined()) return;
    if (data.number > number) return recorded();
    // an entry for a manche already recorded (this page is for the next one)
    if (data.number < number) return;
    // the page's own calls say which digest is this phone's
    if (data.me) myTag = data.me;
    if (data.version < shown) return;
    shown = data.version;
    state = data;
    E.set(form, function (fields) {
      if (!winning) fillWinner(fields, data);
      data.hands.forEach(function (hand) { if (!mineNow(hand.seat)) E.hand(fields, hand); });
    });
    draw(data);
  }

  function draw(data) {
    var list = document.getElementById("hands-status"), mine = E.now.me;
    list.textContent = "";
    data.hands.forEach(function (hand) {
      if (String(hand.seat) === mine) return;
      var line = hand.done ? words("Done", { name: hand.player, points: hand.value }) : words("Counting", { name: hand.player });
      list.appendChild(document.createElement("li")).textContent = line;
    });
    var missing = document.getElementById("entry-missing");
    missing.textContent = data.missing.length ? words("Missing", { names: data.missing.join(", ") }) : words("Ready", {});
    var replaced = data.hands.find(function (hand) { return hand.replaced && hand.replaced.by.phone === myTag; });
    var line = document.getElementById("hand-replaced");
    line.hidden = !replaced;
    if (replaced) {
      line.querySelector("[data-replaced-text]").textContent = words("Replaced", {
        by: replaced.by.name || box.dataset.wSomeone, name: replaced.player, points: replaced.replaced.value
      });
      line.dataset.seat = replaced.seat;
    }
    showDone();
  }

  // who this phone is

  function showMe() {
    var mine = E.now.me;
    document.getElementById("who-am-i").hidden = mine !== null;
    document.getElementById("i-am").hidden = mine === null;
    box.querySelectorAll("[data-when-joined]").forEach(function (part) { part.hidden = mine === null; });
    if (mine === null) return;
    box.querySelector("[data-i-am]").textContent = mine ? nameOf(mine) : box.querySelector("[data-me='']").textContent;
    if (mine) pick(mine);
  }

  box.addEventListener("click", function (event) {
    var chosen = event.target.closest("[data-me]"), again = event.target.closest("[data-change-me]");
    if (chosen || again) { E.change(function (entry) { entry.me = chosen ? chosen.dataset.me : null; }); showMe(); }
    if (chosen) load();
    if (event.target.closest("[data-done]")) {
      var seat = form.elements.selected.value;
      changed(seat, { done: !isDone(seat) });
      flush(seat);
    }
    var back = event.target.closest("[data-put-back]");
    if (back) {
      var line = document.getElementById("hand-replaced"), hand = handAt(state, line.dataset.seat);
      E.set(form, function (fields) { E.hand(fields, { seat: hand.seat, cards: hand.replaced.cards, typed: hand.replaced.typed }); });
      changed(hand.seat, { done: hand.replaced.done });
      flush(hand.seat);
    }
  });

  // the form's own changes

  // after app.js's: the counts are in the form, the hand picked on the keypad
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-entry] [data-keypad] button")) changed(form.elements.selected.value);
    if (joined()) showDone();
  });
  form.addEventListener("input", function (event) {
    if (event.target.matches("[data-typed]")) changed(event.target.name.split("-")[0].slice(1));
  });
  // on the document, after app.js's (which puts the next hand to count on the keypad)
  document.addEventListener("change", function (event) {
    if (event.target.form !== form || event.target.name !== "winner" || !joined()) return;
    winning = true;
    var seat = event.target.value;
    send("PUT", "/winner", { number: number, seat: seat }).then(function (answer) {
      winning = false;
      if (answer.status === 200) apply(answer.data);
    }).catch(function () { winning = false; });
    var mine = E.now.me;
    // this phone stays on its hand
    if (mine && mine !== seat) pick(mine);
    showDone();
  });

  form.addEventListener("submit", function (event) {
    if (!joined() || !event.submitter || event.submitter.name !== "save") return;
    // the form posted as it is (no network, below) goes its own way
    if (saving) return;
    event.preventDefault();
    // saved here: the page's own sending (replay.js) stays out
    event.stopImmediatePropagation();
    // a second tap while the first is on its way
    if (posting) return;
    posting = true;
    tellSaving(true);
    var submitter = event.submitter;
    hold(function (pending) { Object.keys(pending).forEach(function (seat) { pending[seat].done = true; }); });
    flushAll().then(vouch).then(function () {
      // the form's own fields, as the whole-manche form posts them; the hands are the entry's
      return send("POST", "/save", Object.assign(Object.fromEntries(new FormData(form)), { number: number }));
    }).then(function (answer) {
      if (answer.status === 200 && answer.data.url) { saving = true; location.assign(answer.data.url); }
      else if (answer.status === 409) leave();
      else { posting = false; tellSaving(false); document.getElementById("entry-missing").textContent = answer.data.error.message; }
    // no network: the form as it stands, with the same nonce
    }).catch(function () {
      saving = true;
      posting = false;
      form.requestSubmit(submitter);
    });
  }, true);

  document.addEventListener("carte:entry-state", function (event) { apply(event.detail); });
  // live.js: another phone recorded this manche
  document.addEventListener("carte:renumbered", function () { if (!saving && !posting && joined()) recorded(); });

  function load() {
    if (joined()) send("GET", "").then(function (answer) { if (answer.status === 200) apply(answer.data); }).catch(function () {});
  }
  // what waited is sent
  addEventListener("online", function () { flushAll().then(load); });
  E.ready.then(function () {
    // what was on its way when the page went leaves again
    hold(function (pending, inflight) { Object.keys(inflight).forEach(function (seat) { pending[seat] = { done: inflight[seat].done }; delete inflight[seat]; }); });
    box.hidden = false;
    showMe();
    // the entry as kept drawn: what it holds on its way leaves, then the table's hands are drawn
    return E.settled;
  }).then(function () { flushAll().then(load); });
})();
