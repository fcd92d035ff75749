// Offline at the table: sending what waits on this phone, loaded after waiting.js.
// - the queue is sent in order, with the same keys (page load, `online`, the next answered request,
//   every 20 s), through the same form posts as online; a conflict or a refusal waits for the
//   person's choice;
// - with no service worker (a plain-HTTP address on the LAN), the page sends its own writes and
//   queues those the network does not take, as the worker would (CarteQueue.write);
// - a game page asks the worker, where there is one, to keep its manche entry (and itself) for offline.
(function () {
  "use strict";
  var O = window.CarteOffline, Q = window.CarteQueue;
  if (!O) return;
  var panel = document.getElementById("offline-queue"), game = panel && decodeURIComponent(location.pathname.split("/")[2]);
  var sending = null, renumbered = "";

  function problemOf(response) {
    return response.text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      // the server's own sentence: the first of these places that holds one
      var said = [".conflict p", "form .error[role=alert]", ".error-page p", "[role=alert]"].map(function (where) {
        var node = doc.querySelector(where);
        return node ? node.textContent.trim() : "";
      }).filter(Boolean);
      var version = doc.querySelector("input[name=version]");  // a correction's collision: theirs
      return [said.length ? said[0] : String(response.status), version && version.value];
    });
  }

  function post(item) {
    return fetch(item.action, { method: "POST", body: new URLSearchParams(item.pairs), credentials: "same-origin" })
      .catch(function (error) { dispatchEvent(new Event("carte:unreached")); throw error; });
  }

  // One manche: "sent" | "kept" (retry later) | "stopped" (waits for the person); never twice:
  // a retry carries the same key, which the server answers as the first time. A manche is "the
  // next one": if another phone took its number meanwhile, the server records it as the next and
  // says so in the address it sends the phone to (?saved=8&shown=7), which the game page shows.
  function sendOne(item) {
    return post(item).then(function (response) {
      if (response.redirected && response.ok) {
        var notice = new URL(response.url).search;
        if (/[?&]shown=/.test(notice)) renumbered = notice;
        return Q.remove(item.id).then(function () { return "sent"; });
      }
      if (response.status === 409 || (response.status >= 400 && response.status < 500 && response.status !== 429)) {
        return problemOf(response).then(function (said) {
          // a deletion refused is final; a correction another phone made too brings their version
          item.state = response.status === 409 && item.kind !== "delete" ? "conflict" : "refused";
          item.problem = said[0];
          if (said[1]) item.theirs = said[1];
          return Q.put(item).then(function () { return "stopped"; });
        });
      }
      return "kept";
    }, function () { return "kept"; });
  }

  function sendAll() {
    return Q.all().then(function (items) {
      var stopped = {}, reached = 0;
      return items.reduce(function (chain, item) {
        return chain.then(function (going) {
          if (!going) return false;
          if (item.state !== "waiting" || stopped[item.game]) { stopped[item.game] = true; return true; }
          return sendOne(item).then(function (outcome) {
            if (outcome !== "kept") reached++;
            if (outcome === "stopped") stopped[item.game] = true;
            return outcome !== "kept";
          });
        });
      }, Promise.resolve(true)).then(function () { return reached; });
    });
  }

  function replay() {
    if (sending) return sending;
    if (panel && !panel.hidden && !panel.querySelector("[data-sending]")) panel.appendChild(O.el("p", { class: "hint", "data-sending": "" }, O.say("sending")));
    var run = function () { return sendAll(); };
    var locked = navigator.locks ? navigator.locks.request("carte-replay", run) : run();
    sending = locked.then(function (reached) {
      sending = null;
      // the server answered: the game page shows its own numbers again (a kept copy is replaced);
      // an entry takes the game's data again and keeps what is typed
      if (reached && O.refresh) return O.refresh();
      if (reached && game) location.replace(O.gamePath(game) + renumbered);
      else if (O.show) return O.show();
    }, function () { sending = null; });
    return sending;
  }
  O.replay = replay;

  // Sent again when something waits: the network back (`online`), every 20 s, and at the next
  // request of this page the server answers (its event stream open again, a part fetched): a
  // server that could not answer for a while does not say `online` when it can again.
  function whenWaiting() {
    Q.all().then(function (items) { if (items.some(function (i) { return i.state === "waiting"; })) replay(); });
  }
  O.ready.then(function () { return O.shown; }).then(function () {
    if (navigator.onLine) replay();
    addEventListener("online", replay);
    setInterval(whenWaiting, 20000);
    document.addEventListener("htmx:sseOpen", whenWaiting);
    document.addEventListener("htmx:afterRequest", function (event) { if (event.detail.successful) whenWaiting(); });
    keep();
  });

  // A game page kept for offline brings along its manche entry (fetched again each time) and the
  // correction page of each manche it shows (again only when that manche changed: its version).
  function keep() {
    if (O.since || !navigator.serviceWorker) return;
    var enter = document.querySelector(".next-manche a.button[href$='/manches/new']");
    var model = panel && JSON.parse(panel.dataset.model), tags = {};
    var edits = Array.from(document.querySelectorAll("a[href$='/edit']")).map(function (a) { return a.getAttribute("href"); })
      .filter(function (href) { return /\/manches\/\d+\/edit$/.test(href); });
    edits.forEach(function (href) {
      var number = parseInt(href.split("/").slice(-2)[0], 10);
      if (model && model.versions[number - 1]) tags[href] = model.versions[number - 1];
    });
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = registration.active;
      if (enter) worker.postMessage({ type: "keep", urls: [enter.getAttribute("href")] });
      if (edits.length) worker.postMessage({ type: "keep", urls: edits, tags: tags, missing: !model });
      worker.postMessage({ type: "keep", urls: [location.pathname], missing: true });
    });
  }

  // --- a page that sends its own writes: no service worker controls it ---------------------------

  // A manche saved, corrected or deleted is posted by the page. Stored: on to the page the server
  // sends to. No network (or a server that cannot answer now: 502, 503, 504): queued under its key,
  // and the page goes on with it waiting (waiting.js, no page fetched). Any other answer (a form to
  // correct, a conflict): the form is posted again as a page, which the server draws as the first
  // time (nothing was stored).
  var posting = false;
  document.addEventListener("submit", function (event) {
    var form = event.target, submitter = event.submitter, path = new URL(form.getAttribute("action") || "", location.href).pathname;
    if (event.defaultPrevented || form.dataset.asPage || (navigator.serviceWorker && navigator.serviceWorker.controller)) return;
    if (!Q.WRITES.test(path) || (form.matches("[data-manche-form]") && (!submitter || submitter.name !== "save"))) return;
    event.preventDefault();
    if (posting) return;
    posting = true;
    var pairs = [];
    new FormData(form, submitter).forEach(function (value, name) { if (typeof value === "string") pairs.push([name, value]); });
    function queue() {
      return Q.write(path, pairs).then(function (item) {
        posting = false;
        if (item) return O.queued(item);
      });
    }
    post({ action: path, pairs: pairs }).then(function (response) {
      if (response.status >= 502 && response.status <= 504) return queue();
      if (response.redirected && response.ok) {
        if (form.matches("[data-manche-form]")) window.CarteEntry.forget(form);
        location.href = response.url;
        return null;
      }
      form.dataset.asPage = "1";
      form.requestSubmit(submitter);
      return null;
    }, queue);
  });
})();
