// What waits on this phone to be sent, in IndexedDB through idb-keyval (vendored: idb-keyval.js,
// loaded before this file by the pages and the service worker). Shared by the service worker and
// the pages: whichever finds the network gone queues the write (`write`: the one place a form
// becomes a queued item); the pages show, send and settle it. One store, each item under its
// idempotency key (the form's nonce), and each game's entry on this phone (entry.js) beside them.
// The database's name never changes with the app's version: an update carries the queue across.
(function (scope) {
  "use strict";
  var kv = scope.idbKeyval, store = kv.createStore("carte-queue", "items");

  // The queue of the first offline version lived in "carte-offline" (a store with in-line keys):
  // what a phone kept there comes across once, then that database goes.
  var moved = null;
  function carried() {
    if (!moved) {
      moved = (indexedDB.databases ? indexedDB.databases() : Promise.resolve([])).then(function (found) {
        if (!found.some(function (db) { return db.name === "carte-offline"; })) return null;
        return new Promise(function (resolve) {
          var open = indexedDB.open("carte-offline");
          open.onsuccess = function () {
            var db = open.result, names = db.objectStoreNames;
            if (!names.contains("manches")) { db.close(); resolve([]); return; }
            var all = db.transaction("manches").objectStore("manches").getAll();
            all.onsuccess = function () { db.close(); resolve(all.result); };
            all.onerror = function () { db.close(); resolve([]); };
          };
          open.onerror = function () { resolve([]); };
        }).then(function (items) {
          return kv.setMany(items.map(function (item) { return [item.id, item]; }), store);
        }).then(function () { indexedDB.deleteDatabase("carte-offline"); });
      }).catch(function () { /* nothing to carry */ });
    }
    return moved;
  }

  function order(a, b) { return a.created - b.created; }

  // The writes of a manche that wait when the network is gone: a new one (POST …/manches), a
  // correction (…/manches/N), the deletion of the last (…/manches/N/delete).
  var WRITES = /^\/games\/([^/]+)\/manches(?:\/(\d+)(\/delete)?)?$/;

  // A correction of a manche whose earlier correction still waits replaces it (made from the same
  // kept page, the earlier one would make the later one collide with it).
  function superseded(game, kind, number, id) {
    if (kind !== "edit") return Promise.resolve();
    return scope.CarteQueue.all(game).then(function (items) {
      return kv.delMany(items.filter(function (item) {
        return item.kind === "edit" && item.state === "waiting" && String(item.number) === number && item.id !== id;
      }).map(function (item) { return item.id; }), store);
    });
  }

  scope.CarteQueue = {
    store: store,
    // every item (of one game), in the order they were made
    all: function (game) {
      return carried().then(function () { return kv.values(store); }).then(function (items) {
        return items.filter(function (item) { return item.action && (!game || item.game === game); }).sort(order);
      });
    },
    get: function (id) { return kv.get(id, store); },
    put: function (item) { return kv.set(item.id, item, store); },
    remove: function (id) { return kv.del(id, store); },
    removeMany: function (ids) { return kv.delMany(ids, store); },
    // A new item, unless the same key is waiting already (saved twice): one entry per key.
    add: function (item) {
      return kv.update(item.id, function (kept) { return kept || item; }, store).then(function () {
        return kv.get(item.id, store);
      });
    },
    WRITES: WRITES,
    // A form that writes a manche (its path, its [name, value] pairs) queued under its key: "new"
    // (sent back `queued`: it lands as the next), "edit" or "delete" (of manche N); null when it is
    // no such write (a key tapped without JavaScript, no key, not confirmed).
    write: function (path, pairs) {
      var match = WRITES.exec(path), form = new Map(pairs.map(function (p) { return [p[0], p[1]]; }));
      if (!match) return Promise.resolve(null);
      var game = decodeURIComponent(match[1]), kind = match[3] ? "delete" : match[2] ? "edit" : "new";
      if (!(kind === "delete" ? form.get("confirm") : form.get("save")) || !form.get("nonce")) return Promise.resolve(null);
      var add = this.add;
      return superseded(game, kind, match[2], form.get("nonce")).then(function () {
        return add({
          id: form.get("nonce"), game: game, kind: kind, number: parseInt(match[2] || form.get("number"), 10) || 0,
          action: path, pairs: kind === "new" ? pairs.concat([["queued", "1"]]) : pairs, created: Date.now(), state: "waiting",
        });
      });
    },
  };
})(self);
