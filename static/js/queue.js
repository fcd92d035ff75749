// The manches waiting to be sent (issue 15), in IndexedDB: shared by the service worker (which
// adds what was saved with no network) and the pages (which show, send and settle them). One
// object store, keyed by the manche's idempotency key (the entry page's nonce). The database's
// name never changes with the app's version: an update carries the queue across.
(function (scope) {
  "use strict";
  var DB = "carte-offline", STORE = "manches", opening = null;

  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB, 1);
        request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "id" }); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opening = null; reject(request.error); };
      });
    }
    return opening;
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode), store = tx.objectStore(STORE), out = work(store);
        tx.oncomplete = function () { resolve(out && "result" in out ? out.result : out); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function order(a, b) { return a.created - b.created; }

  scope.CarteQueue = {
    all: function (game) {
      return run("readonly", function (store) { return store.getAll(); }).then(function (items) {
        return items.filter(function (item) { return !game || item.game === game; }).sort(order);
      });
    },
    get: function (id) { return run("readonly", function (store) { return store.get(id); }); },
    put: function (item) { return run("readwrite", function (store) { store.put(item); }); },
    remove: function (id) { return run("readwrite", function (store) { store.delete(id); }); },
    // A new manche, unless the same key is waiting already (saved twice): one entry per key.
    add: function (item) {
      return open().then(function (db) {
        return new Promise(function (resolve, reject) {
          var tx = db.transaction(STORE, "readwrite"), store = tx.objectStore(STORE), kept = item;
          store.get(item.id).onsuccess = function (event) {
            if (event.target.result) kept = event.target.result;
            else store.put(item);
          };
          tx.oncomplete = function () { resolve(kept); };
          tx.onerror = tx.onabort = function () { reject(tx.error); };
        });
      });
    },
  };
})(self);
