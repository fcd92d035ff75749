// Carte ! service worker (issue 15). Served by views/offline.py, which puts VERSION and SHELL
// (the app shell's hashed URLs) before this line. A short worker of our own: the cases are few.
//  - the shell is precached at install; static files (hashed URLs) are answered from the cache;
//  - pages go to the network first and are kept; offline the kept copy is shown, marked with
//    the time it was fetched (data-offline-since on <html>); rule pages come from the cache first;
//  - a manche saved (POST …/manches) while the network is down is queued in IndexedDB
//    (queue.js, shared with the pages) and the phone is sent to the game page, which shows it.
// A new version waits until a page asks it to take over ("Mettre à jour"); the queue lives in
// IndexedDB, outside any version, so an update never strands it.
importScripts(SHELL.filter(function (url) { return url.indexOf("/js/queue.js") !== -1; })[0]);

var SHELL_CACHE = "carte-shell-" + VERSION, PAGES = "carte-pages";
var KEPT = [/^\/$/, /^\/games\/[^/]+$/, /^\/games\/[^/]+\/manches\/new$/, /^\/s\/[^/]+$/, /^\/rules(\/.*)?$/,
  /^\/referee$/, /^\/calculette$/, /^\/games$/];
var RULES = /^\/rules(\/.*)?$/;
var SAVE = /^\/games\/([^/]+)\/manches$/;
var KEPT_DATA = /^\/s\/[^/]+\/qr\.svg$|^\/offline\/texts\.json$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("carte-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  if (data.type === "keep" && Array.isArray(data.urls)) {
    // pages a page asks to keep: its manche entry (fetched again each time), and the page itself
    // when it came before this worker did (`missing`: fetched only if nothing is kept yet)
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return Promise.all(data.urls.map(function (url) {
        var path = new URL(url, self.location.origin).pathname;
        return (data.missing ? cache.match(path) : Promise.resolve(null)).then(function (hit) {
          if (hit || !kept(path)) return null;
          return fetch(url, { credentials: "same-origin" }).then(function (response) { return keep(new Request(new URL(url, self.location.origin)), response); });
        }).catch(function () { /* offline: kept next time */ });
      }));
    }));
  }
});

// A gateway's answer for a server it cannot reach now: as good as no network.
function unreachable(response) { return response.status >= 502 && response.status <= 504; }

function kept(path) { return KEPT.some(function (re) { return re.test(path); }); }

// A page is kept under its path (the query string holds only notices) with the time it came.
function keep(request, response) {
  if (!response.ok || response.type !== "basic" || (response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) {
    return Promise.resolve(response);
  }
  var copy = response.clone();
  return copy.text().then(function (html) {
    var headers = new Headers(copy.headers);
    headers.set("X-Fetched", String(Date.now()));
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    var url = new URL(request.url);
    // the notice after a write ("Manche 3 enregistrée", its undo) belongs to that moment only
    if (url.search) html = html.replace(/<div class="notice panel"[\s\S]*?<\/div>/, "");
    return caches.open(PAGES).then(function (cache) {
      return cache.put(url.pathname, new Response(html, { status: 200, headers: headers }));
    });
  }).then(function () { return response; }, function () { return response; });
}

// The kept page, marked as shown offline (the page says so, with the time it was fetched).
function fromCache(path) {
  return caches.open(PAGES).then(function (cache) { return cache.match(path); }).then(function (hit) {
    if (!hit) return caches.match("/offline");
    return hit.text().then(function (html) {
      var since = hit.headers.get("X-Fetched") || "";
      return new Response(html.replace("<html ", '<html data-offline-since="' + since + '" '), { headers: hit.headers });
    });
  });
}

function page(event, path) {
  var network = fetch(event.request).then(function (response) {
    if (unreachable(response)) throw new Error(response.status);
    return response.ok ? keep(event.request, response) : response;
  });
  if (RULES.test(path)) {
    // rule pages: the kept copy at once, refreshed behind it
    event.waitUntil(network.catch(function () {}));
    return caches.open(PAGES).then(function (cache) { return cache.match(path); }).then(function (hit) {
      return hit || network.catch(function () { return fromCache(path); });
    });
  }
  return network.catch(function () { return fromCache(path); });
}

// A manche saved with no network (or a server that cannot answer now: 502, 503, 504) is queued
// with its own key (the nonce the entry page made): sent again later, it is recorded once.
function save(event, game) {
  var copy = event.request.clone();
  function queue(answer) {
    return copy.formData().then(function (form) {
      if (!form.get("save") || !form.get("nonce")) return answer instanceof Response ? answer : caches.match("/offline");
      var pairs = [];
      form.forEach(function (value, name) { if (typeof value === "string") pairs.push([name, value]); });
      return CarteQueue.add({
        id: form.get("nonce"), game: game, number: parseInt(form.get("number"), 10) || 0,
        action: new URL(event.request.url).pathname, pairs: pairs, created: Date.now(), state: "waiting",
      }).then(function (item) {
        return Response.redirect("/games/" + encodeURIComponent(game) + "?queued=" + item.number, 303);
      });
    });
  }
  return fetch(event.request).then(function (response) {
    return unreachable(response) ? queue(response) : response;
  }, queue);
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    var match = request.mode === "navigate" && SAVE.exec(url.pathname);
    if (match) event.respondWith(save(event, decodeURIComponent(match[1])));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    if (kept(url.pathname) || url.pathname === "/offline") event.respondWith(page(event, url.pathname));
    return;
  }
  if (KEPT_DATA.test(url.pathname)) {
    // the game page's QR code, the offline script's words: from the network, else the last kept
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { cache.put(url.pathname, copy); });
      }
      return response;
    }, function () {
      return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); }).then(function (hit) {
        return hit || Response.error();
      });
    }));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    // hashed URLs never change; app.js loads the offline scripts by their plain URL, which the
    // shell of this version answers (a new file is a new worker)
    event.respondWith(caches.open(SHELL_CACHE).then(function (cache) {
      return cache.match(request, { ignoreSearch: !url.searchParams.has("v") });
    }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok && url.searchParams.has("v")) {
          var copy = response.clone();
          caches.open(SHELL_CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
  }
});
