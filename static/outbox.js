// The outbox: what this phone posted while offline (a round, an edit, a live move), kept
// in IndexedDB until it is sent. Shared by the service worker (static/sw.js, which keeps
// and sends) and the pages (static/offline.js, which show it): one store, one shape.
//
// An item: {id, url (path posted to), body (the form, urlencoded), label (« Donne 5 ·
// La crapouille »), back (the page to show meanwhile), created (ms), state: "waiting" |
// "sent" | "conflict" | "refused", status, messages (what the server said)}.
(function (scope) {
  "use strict";
  var NAME = "companion", STORE = "outbox", VERSION = 1;
  var opening = null;

  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = scope.indexedDB.open(NAME, VERSION);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opening = null; reject(request.error); };
      });
    }
    return opening;
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  scope.CompanionOutbox = {
    add: function (item) { return run("readwrite", function (s) { return s.add(item); }); },
    put: function (item) { return run("readwrite", function (s) { return s.put(item); }); },
    remove: function (id) { return run("readwrite", function (s) { return s.delete(id); }); },
    all: function () {
      return run("readonly", function (s) { return s.getAll(); }).then(function (items) {
        return (items || []).sort(function (a, b) { return a.created - b.created || a.id - b.id; });
      });
    }
  };
})(self);
