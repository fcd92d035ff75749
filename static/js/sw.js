// Carte ! service worker. Served by views/offline.py, which puts VERSION, SHELL
// (the app shell's hashed URLs) and LIBS (the vendored libraries' hashed URLs: Workbox's modules,
// idb-keyval, the queue) before this line. Workbox does the caching and the routes, from static/
// (never a CDN):
//  - the shell is precached at install (a new shell is a new worker, its own cache);
//  - pages go to the network first and are kept; offline the kept copy is shown, marked with the
//    time it was fetched (data-offline-since on <html>); rule pages come from the cache first;
//  - a manche saved, corrected or deleted (POST …/manches, …/manches/N, …/manches/N/delete) while
//    the network is down is queued in IndexedDB (queue.js, shared with the pages) and the phone is
//    sent to the game page, which shows it waiting.
// A new version waits until a page asks it to take over ("Mettre à jour"); the queue lives in
// IndexedDB, outside any version, so an update never strands it.
importScripts(LIBS["workbox-sw"], LIBS["idb-keyval"], LIBS.queue);
workbox.setConfig({ debug: false, modulePathCb: function (name) { return LIBS[name]; } });
var core = workbox.core, precaching = workbox.precaching, routing = workbox.routing, strategies = workbox.strategies;

core.setCacheNameDetails({ prefix: "carte", precache: "shell-" + VERSION, runtime: "runtime", suffix: "" });
var SHELL_CACHE = core.cacheNames.precache, STATIC = "carte-static-" + VERSION, PAGES = "carte-pages";
var KEPT = [/^\/$/, /^\/games\/[^/]+$/, /^\/games\/[^/]+\/manches\/new$/, /^\/games\/[^/]+\/manches\/\d+\/edit$/,
  /^\/s\/[^/]+$/, /^\/rules(\/.*)?$/, /^\/referee$/, /^\/calculette$/, /^\/games$/];
var RULES = /^\/rules(\/.*)?$/;
var WRITES = CarteQueue.WRITES;
var KEPT_DATA = /^\/s\/[^/]+\/qr\.svg$|^\/offline\/texts\.json$/;

// --- the shell: precached; a script asked for by its plain URL gets this version's copy ---------

var PLAIN = {};
SHELL.forEach(function (url) { PLAIN[url.split("?")[0]] = url; });
precaching.precacheAndRoute(SHELL.map(function (url) {
  return { url: url, revision: url.indexOf("?v=") === -1 ? VERSION : null };
}), {
  ignoreURLParametersMatching: [],
  urlManipulation: function (where) {
    var hashed = where.url.search ? null : PLAIN[where.url.pathname];
    return hashed ? [new URL(hashed, self.location.origin)] : [];
  },
});
core.clientsClaim();

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return (name.indexOf("carte-shell-") === 0 && name !== SHELL_CACHE) || (name.indexOf("carte-static-") === 0 && name !== STATIC);
    }).map(function (name) { return caches.delete(name); }));
  }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  if (data.type === "keep" && Array.isArray(data.urls)) {
    // pages a page asks to keep: its manche entry (fetched again each time), its manches' correction
    // pages (again when their `tags`, the manches' versions, changed), and the page itself when it
    // came before this worker did (`missing`: fetched only if nothing is kept yet)
    var tags = data.tags || {};
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return Promise.all(data.urls.map(function (url) {
        var path = new URL(url, self.location.origin).pathname;
        return cache.match(path).then(function (hit) {
          if (!kept(path) || (hit && (data.missing || (tags[url] && hit.headers.get("X-Tag") === tags[url])))) return null;
          return keepCopy(cache, url, path, tags[url]);
        }).catch(function () { /* offline: kept next time */ });
      }));
    }));
  }
});

function kept(path) { return KEPT.some(function (re) { return re.test(path); }); }

// --- pages: kept under their path (the query string holds only notices), with the time they came

var keepByPath = { cacheKeyWillBeUsed: function (o) { return new URL(o.request.url).pathname; } };
// A gateway's answer for a server it cannot reach now: as good as no network.
var gatewayIsOffline = {
  fetchDidSucceed: function (o) {
    if (o.response.status >= 502 && o.response.status <= 504) throw new Error(o.response.status);
    return o.response;
  },
};
var pageCopy = {
  cacheWillUpdate: function (o) {
    var response = o.response;
    if (!response.ok || response.type !== "basic" || (response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return null;
    return response.text().then(function (html) {
      var headers = new Headers(response.headers);
      headers.set("X-Fetched", String(Date.now()));
      headers.delete("Content-Length");
      headers.delete("Content-Encoding");
      // the notice after a write ("Manche 3 enregistrée", its undo) belongs to that moment only
      if (new URL(o.request.url).search) html = html.replace(/<div class="notice panel"[\s\S]*?<\/div>/, "");
      return new Response(html, { status: 200, headers: headers });
    });
  },
};
// The kept page, marked as shown offline (the page says so, with the time it was fetched).
var markedOffline = {
  cachedResponseWillBeUsed: function (o) {
    var hit = o.cachedResponse;
    if (!hit) return null;
    return hit.text().then(function (html) {
      var since = hit.headers.get("X-Fetched") || "";
      return new Response(html.replace("<html ", '<html data-offline-since="' + since + '" '), { headers: hit.headers });
    });
  },
};
var offlinePage = { handlerDidError: function () { return precaching.matchPrecache(PLAIN["/offline"] || "/offline"); } };

// A page fetched to be kept (not shown now), marked with its tag. It says it is a copy: the server
// then keeps this phone's cookie as it is (views/sessions.py). Fetched with the cookie of its
// moment, its answer may come after the next page's, whose cookie it would otherwise undo.
function keepCopy(cache, url, path, tag) {
  var request = new Request(new URL(url, self.location.origin), { credentials: "same-origin", headers: { "X-Offline-Copy": "1" } });
  return fetch(request).then(function (response) {
    return pageCopy.cacheWillUpdate({ request: request, response: response });
  }).then(function (copy) {
    if (!copy) return null;
    if (tag) copy.headers.set("X-Tag", tag);
    return cache.put(path, copy);
  });
}

var pages = new strategies.NetworkFirst({ cacheName: PAGES, plugins: [keepByPath, gatewayIsOffline, pageCopy, markedOffline, offlinePage] });
var rulePages = new strategies.StaleWhileRevalidate({ cacheName: PAGES, plugins: [keepByPath, gatewayIsOffline, pageCopy, offlinePage] });
// A rule page with a query (a search, a comparison with a house variant) answers that question:
// from the network, kept under its whole address for when the network is gone.
var keepByAddress = { cacheKeyWillBeUsed: function (o) { var url = new URL(o.request.url); return url.pathname + url.search; } };
var ruleAnswers = new strategies.NetworkFirst({ cacheName: PAGES, plugins: [keepByAddress, gatewayIsOffline, pageCopy, markedOffline, offlinePage] });

function rulePage(o) { return o.request.mode === "navigate" && RULES.test(o.url.pathname); }
routing.registerRoute(function (o) { return rulePage(o) && o.url.search; }, ruleAnswers);
routing.registerRoute(function (o) { return rulePage(o) && !o.url.search; }, rulePages);
routing.registerRoute(function (o) { return o.request.mode === "navigate" && kept(o.url.pathname); }, pages);

// the game page's QR code, the offline script's words: from the network, else the last kept
routing.registerRoute(function (o) { return o.url.origin === self.location.origin && KEPT_DATA.test(o.url.pathname); },
  new strategies.NetworkFirst({ cacheName: PAGES, plugins: [keepByPath] }));

// other static files: hashed URLs never change
routing.registerRoute(function (o) { return o.url.origin === self.location.origin && o.url.pathname.indexOf("/static/") === 0 && o.url.searchParams.has("v"); },
  new strategies.CacheFirst({ cacheName: STATIC }));

// --- writes with no network: queued with their own key, sent again later, recorded once --------

// A manche saved, corrected or deleted with no network (or a server that cannot answer now: 502,
// 503, 504) is queued under its key (the nonce its form made): CarteQueue.write, as the pages do.
function write(o) {
  var request = o.request, copy = request.clone();
  function queue(answer) {
    return copy.formData().then(function (form) {
      var pairs = [];
      form.forEach(function (value, name) { if (typeof value === "string") pairs.push([name, value]); });
      return CarteQueue.write(o.url.pathname, pairs);
    }).then(function (item) {
      if (!item) return answer instanceof Response ? answer : precaching.matchPrecache(PLAIN["/offline"]);
      var said = item.kind === "new" ? "queued" : "queued_" + item.kind;
      return Response.redirect("/games/" + encodeURIComponent(item.game) + "?" + said + "=" + item.number, 303);
    });
  }
  return fetch(request).then(function (response) {
    return response.status >= 502 && response.status <= 504 ? queue(response) : response;
  }, queue);
}

routing.registerRoute(function (o) {
  return o.url.origin === self.location.origin && o.request.mode === "navigate" && WRITES.test(o.url.pathname);
}, write, "POST");
