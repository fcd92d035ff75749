// What waits on this phone to be sent (issues 15 and 28), in IndexedDB through idb-keyval
// (vendored: idb-keyval.js, loaded before this file by the pages and the service worker). Shared
// by the service worker (which adds what was written with no network) and the pages (which
// show, send and settle it). One store, each item under its idempotency key (the form's nonce).
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

  scope.CarteQueue = {
    // every item (of one game), in the order they were made
    all: function (game) {
      return carried().then(function () { return kv.values(store); }).then(function (items) {
        return items.filter(function (item) { return !game || item.game === game; }).sort(order);
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
  };
})(self);
