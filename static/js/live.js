// The live table, with htmx and htmx-ext-sse: the page listens to its game's stream; a change
// swaps the parts it names (conditional GETs), `said` and `presence` come as text. Left to this
// file: a reconnection asks from the revision last heard; a part being filled in is swapped once
// left, keeping the focus; a phone's own write is not said twice; the entry says it is being
// entered and follows another phone's numbering; the no-network line (a club night's next turn:
// night.js). Without JavaScript, none of this runs.
(function () {
  "use strict";
  if (!window.htmx) return;

  // --- reconnecting where the page left off ----------------------------------------------------

  var entry = document.querySelector("[data-presence]");
  var form = document.querySelector("form[data-manche-form]");
  var heard = {};  // stream URL without `since` -> the last revision heard on it
  var said = {};  // event name (scores, players, invites) -> the last revision heard with it
  function withoutSince(url) { return url.replace(/([?&])since=\d+&?/, "$1").replace(/[?&]$/, ""); }
  htmx.createEventSource = function (url) {
    var base = withoutSince(url), since = heard[base];
    if (since !== undefined) url = base + (base.indexOf("?") === -1 ? "?" : "&") + "since=" + since;
    var source = new EventSource(url, { withCredentials: true });
    ["scores", "players", "invites"].forEach(function (name) {
      source.addEventListener(name, function (event) {
        var revision = parseInt(event.lastEventId, 10);
        if (revision >= (heard[base] || 0)) heard[base] = revision;
        if (revision > (said[name] || 0)) said[name] = revision;
      });
    });
    source.addEventListener("renumber", function (event) { renumber(JSON.parse(event.data)); });
    source.addEventListener("entry", function (event) {  // the open entry: hands.js draws it
      document.dispatchEvent(new CustomEvent("carte:entry-state", { detail: JSON.parse(event.data) }));
    });
    return source;
  };

  // What this phone writes is said by its own notice: the stream's echo of it, heard while the
  // write is under way (htmx's post, or the entry's save), is not said again.
  var writing = 0;
  ["htmx:beforeRequest", "htmx:afterRequest"].forEach(function (type, after) {
    document.addEventListener(type, function (event) { if (event.detail.requestConfig.verb === "post") writing += after ? -1 : 1; });
  });
  document.addEventListener("htmx:sseBeforeMessage", function (event) { if (event.detail.type === "said" && (writing || saving)) event.preventDefault(); });

  // --- not under the person's fingers ------------------------------------------------------------

  // (or shows what is shown only once: a new invite's link and code, data-live-hold)
  function busy(part) {
    if (part.querySelector("[data-live-hold]")) return true;
    if (part.contains(document.activeElement) && document.activeElement !== part) return true;
    return Array.prototype.some.call(part.querySelectorAll("input[type=text], input:not([type])"), function (input) {
      return input.value.trim() !== "";
    });
  }

  // Manches waiting on this phone to be sent (offline.js): the page shows them counted, and
  // reloads once they are sent; a swap meanwhile would show the server's numbers without them, or
  // one just sent twice. The parts wait, and are fetched when the queue is empty again.
  function queued() {
    var queue = document.getElementById("offline-queue");
    return !!queue && parseInt(queue.dataset.waiting, 10) > 0;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var part = event.detail.elt, live = part.id === "live-top" || (part.hasAttribute && part.hasAttribute("data-live-keep"));
    if (!live || !(queued() || (part.hasAttribute("data-live-keep") && busy(part)))) return;
    event.preventDefault();
    part.dataset.liveStale = "1";  // brought up to date once left, or once the queue is empty
  });
  // Back online: a change heard while the network was gone may not have been fetched; a
  // conditional GET of each part costs a 304 when nothing is missing.
  addEventListener("online", function () {
    document.querySelectorAll("#live-top[hx-get], #rounds-live[hx-get], [data-live-keep][hx-get]").forEach(function (part) {
      htmx.trigger(part, "refresh");
    });
  });
  document.addEventListener("carte:queue", function (event) {
    if (event.detail.waiting) return;
    document.querySelectorAll("[data-live-stale]").forEach(function (part) {
      delete part.dataset.liveStale;
      htmx.trigger(part, "refresh");
    });
  });
  document.addEventListener("focusout", function (event) {
    var part = event.target.closest && event.target.closest("[data-live-stale]");
    if (!part) return;
    setTimeout(function () {
      if (!part.isConnected || busy(part)) return;
      delete part.dataset.liveStale;
      htmx.trigger(part, "refresh");
    }, 0);
  });

  // --- an event heard while its part was being fetched ---------------------------------------------

  // htmx queues an event that comes while a part's request is in flight on that element; the
  // answer then replaces the element (outerHTML), and what was queued on it is dropped. Until the
  // new element is settled it does not listen either. So a part notes the revision its stream had
  // said when its request went, and once the answer is settled asks again (a conditional GET) if
  // the stream has since said a newer one of the events it listens to: two manches recorded in a
  // row show both.
  var fetchedAt = {};  // part id -> the newest revision of its events when its request went
  function newest(part) {
    var names = (part.getAttribute("hx-trigger") || "").match(/sse:\w+/g) || [];
    return names.reduce(function (most, name) { return Math.max(most, said[name.slice(4)] || 0); }, 0);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var part = event.detail.elt;
    if (!event.defaultPrevented && part.id) fetchedAt[part.id] = newest(part);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var id = event.detail.elt && event.detail.elt.id, part = id ? document.getElementById(id) : null;
    if (!part || !(id in fetchedAt) || !part.hasAttribute("hx-get")) return;
    if (newest(part) > fetchedAt[id]) htmx.trigger(part, "refresh");
  });

  // A swapped part keeps what the person had opened, and the page stays where the thumb left it.
  // Put back at once after the swap (the same task as the swap), not once settled: a tap on the new
  // part in between (it opens it), or another part swapped meanwhile, would be undone.
  // The focus stays on the element the person was on: htmx puts it back on one with an id; one
  // without is found again in its box (its closest element with an id) by its address, else its
  // words; else the box takes it (a notice swapped in takes it next: `autofocus`), never <body>.
  var before = null, focus = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var part = event.detail.target, box = part.getBoundingClientRect(), at = document.activeElement, home = at && at.parentNode.closest("[id]");
    before = { id: part.id, open: part.open, above: box.bottom <= 0, height: box.height };
    focus = home && { was: at, home: home.id, href: at.getAttribute("href") };
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var part = event.detail.elt && event.detail.elt.id ? document.getElementById(event.detail.elt.id) : null;
    var was = focus && !focus.was.isConnected && document.activeElement === document.body && focus.was, home = was && document.getElementById(focus.home);
    if (home) (Array.prototype.find.call(home.querySelectorAll(was.tagName), function (el) {
      return focus.href ? el.getAttribute("href") === focus.href : el.textContent === was.textContent;
    }) || Object.assign(home, { tabIndex: -1 })).focus({ preventScroll: true });
    if (!before || !part || part.id !== before.id) return;
    if (typeof before.open === "boolean" && part.tagName === "DETAILS") part.open = before.open;
    if (before.above) window.scrollBy(0, part.getBoundingClientRect().height - before.height);
    before = null;
  });

  // --- no network -------------------------------------------------------------------------------

  // No network (the browser says so, or a request found none: "carte:unreached"): #no-network
  // says so, since when if its words hold {time}, until the network answers again.
  var away = null;
  function network(up) {
    var line = document.getElementById("no-network");
    away = up && navigator.onLine ? null : away || Date.now();
    if (!line) return;
    line.dataset.words = line.dataset.words || line.textContent;
    line.textContent = line.dataset.words.replace("{time}", new Date(away).toLocaleTimeString(document.documentElement.lang, { timeStyle: "short" }));
    line.hidden = !away;
  }
  network(true);
  // the first two say the network answers, the others that it does not
  "online htmx:sseOpen offline htmx:sendError carte:unreached".split(" ").forEach(function (type, i) {
    addEventListener(type, function () { network(i < 2); });
  });

  // --- the manche entry --------------------------------------------------------------------------

  if (!entry) return;

  function presence(url, keepalive) {
    var body = new URLSearchParams({ number: entry.dataset.presenceNumber });
    if (entry.hasAttribute("data-presence-editing")) body.set("editing", "1");
    if (keepalive && navigator.sendBeacon) return navigator.sendBeacon(url, body);
    return fetch(url, { method: "POST", body: body, credentials: "same-origin", keepalive: !!keepalive }).catch(function () {});
  }
  // Once saved, this entry is gone: its own manche (heard on its stream while the page goes) neither
  // renumbers it nor says it is still being entered.
  var saving = false;
  if (form) form.addEventListener("submit", function (event) {
    if (!event.submitter || event.submitter.name === "save") saving = true;
  });
  function here() { if (!saving && document.visibilityState === "visible") presence(entry.dataset.presence); }
  here();
  setInterval(here, 10000);
  document.addEventListener("visibilitychange", here);
  addEventListener("pagehide", function () { presence(entry.dataset.presenceLeave, true); });

  // The shared entry (hands.js) saves without the form's own submission.
  document.addEventListener("carte:saving", function (event) { saving = event.detail.saving; });

  // The entry's number (its field, heading, save button, title and presence) becomes `to`.
  function number(to) {
    var pattern = new RegExp("\\b" + form.elements.number.value + "\\b");
    form.elements.number.value = entry.dataset.presenceNumber = to;
    [document.querySelector(".page-head h1"), form.querySelector(".save-bar button")].forEach(function (node) {
      if (node) node.textContent = node.textContent.replace(pattern, to);
    });
    document.title = document.title.replace(pattern, to);
    form.elements.number.dispatchEvent(new Event("input", { bubbles: true }));  // its kept entry follows (entry.js)
  }
  // The entry numbered after the manches waiting on this phone (waiting.js), emptied for the next
  // one once the page queued this one itself.
  document.addEventListener("carte:entry", function (event) {
    saving = false;
    if (form && form.elements.number) number(String(event.detail.number));
  });

  // Another phone recorded the manche this entry was for: it becomes the next one, as typed.
  function renumber(news) {
    if (!entry || !form || !form.elements.number || saving) return;
    var to = String(news.to);
    if (form.elements.number.value === to) return;
    number(to);
    var line = document.getElementById("renumbered");
    line.textContent = news.said;
    line.hidden = false;
    here();
    // a phone on the shared entry moves on (hands.js)
    document.dispatchEvent(new CustomEvent("carte:renumbered", { detail: news }));
  }
})();
