// Companion's service worker (served as /sw.js by companion/offline.py, which puts
// VERSION and ASSETS before this text: a new version of any static file is a new worker).
//
// - Pages (GET navigations): from the network, kept in the cache for later; when the
//   network fails or takes too long, the kept copy, marked as such (data-offline-saved
//   on <body>: static/offline.js says « Hors ligne » and how old it is), or the offline
//   page. A kept copy older than what the phone has seen of its group since is not
//   shown as the page: the offline page says so instead (see stale()).
// - Static files: from the cache (filled at install), refreshed in the background.
// - A round, an edit or a live move posted without network: kept in the outbox
//   (static/outbox.js) and the game shown meanwhile; sent on its own when the network
//   returns (a page's message, the browser's sync event), each with a fresh CSRF token
//   and the header X-Companion-Outbox, whose JSON answer says what became of it.
/* global VERSION, ASSETS, CompanionOutbox */
importScripts("static/outbox.js?v=" + VERSION);

var STATIC = "companion-static-" + VERSION;
var PAGES = "companion-pages";
var BASE = new URL(self.registration.scope).pathname; // "/" (or the app's prefix)
var WAIT = 4000; // a page slower than this comes from the cache, when there is one
var FRESH = 60000; // a page kept less than a minute ago is not fetched again in advance
var QUEUED = [
  // [what is posted to, the page to show meanwhile]
  [new RegExp("^(" + BASE + "g/[^/]+/games/\\d+)/rounds/(new|\\d+/edit)$"), "$1"],
  [new RegExp("^(" + BASE + "g/[^/]+/games/\\d+/live)/move$"), "$1"],
  // A delete, a status change or an undo: the game's version decides, as for a round;
  // the outbox then says what became of it (sent, or not saved and why).
  [new RegExp("^(" + BASE + "g/[^/]+/games/\\d+)/(rounds/\\d+/delete|abandon|finish|reopen|changes/\\d+/undo)$"), "$1"]
];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (cache) {
      var shell = ASSETS.concat([BASE + "offline"]).map(function (url) {
        return cache.add(new Request(url, { credentials: "same-origin", cache: "reload" })).catch(function () {});
      });
      // The start page, kept like any page (it lists this device's groups).
      var home = new Request(BASE, { credentials: "same-origin" });
      shell.push(fetch(home).then(function (response) {
        if (isPage(response)) return keep(home, response);
      }).catch(function () {}));
      return Promise.all(shell);
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== STATIC && n !== PAGES; }).map(function (n) {
        return caches.delete(n);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

function timeout(ms) {
  return new Promise(function (_resolve, reject) { setTimeout(function () { reject(new Error("slow")); }, ms); });
}

function keep(request, response) {
  // A copy of a page, with when it was kept.
  var headers = new Headers(response.headers);
  headers.set("X-Saved-At", new Date().toISOString());
  headers.delete("Content-Length");
  headers.delete("Content-Encoding"); // the body kept is the decoded one
  return response.clone().blob().then(function (body) {
    return caches.open(PAGES).then(function (cache) {
      return cache.put(request.url.split("#")[0], new Response(body, { status: 200, headers: headers }));
    });
  });
}

function ofGroup(path, group) {
  // Whether address `path` is a page of the group at `group` (BASE + "g/CODE").
  return path === group || path.indexOf(group + "/") === 0;
}

function forget(group) {
  // The pages of a group this device no longer belongs to (group: BASE + "g/CODE").
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return ofGroup(new URL(k.url).pathname, group); })
        .map(function (k) { return cache.delete(k); }));
    });
  });
}

function stateOf(response) {
  // Which state of its group a kept page shows (X-Companion-State, companion/offline.py):
  // "CODE/ID N" for a page of game ID at version N, "CODE sTOKEN" for the group's
  // other pages; and when it was kept.
  var parts = (response.headers.get("X-Companion-State") || "").split(" ");
  if (parts.length !== 2) return null;
  return { scope: parts[0], mark: parts[1], saved: Date.parse(response.headers.get("X-Saved-At") || "") };
}

function stale(cache, hit) {
  // Whether the kept copy `hit` is older than what this phone has seen of its group
  // since: another kept page of the same game at a later version, or of the group
  // with another token, kept after it. (Every page the phone opens, and every page a
  // live page fetches, is kept: what it has seen is in the cache.)
  var mine = stateOf(hit);
  if (!mine) return Promise.resolve(false);
  var group = BASE + "g/" + mine.scope.split("/")[0];
  var versioned = /^\d+$/.test(mine.mark);
  return cache.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return ofGroup(new URL(k.url).pathname, group); })
      .map(function (k) { return cache.match(k, { ignoreVary: true }); }));
  }).then(function (copies) {
    return copies.some(function (copy) {
      var other = copy && stateOf(copy);
      if (!other || other.scope !== mine.scope) return false;
      if (versioned) return parseInt(other.mark, 10) > parseInt(mine.mark, 10);
      return other.mark !== mine.mark && other.saved > mine.saved;
    });
  }).catch(function () { return false; });
}

function marked(response, older) {
  // A kept page shown offline: <body data-offline-saved="when">; the offline page
  // instead of a copy too old (`older`: that copy), saying so and how old it is.
  var saved = response.headers.get("X-Saved-At") || "";
  var mark = '<body data-offline-saved="' + saved + '"';
  if (older) mark += ' data-offline-stale="' + (older.headers.get("X-Saved-At") || "") + '"';
  var headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return response.text().then(function (text) {
    // What the page said once (« Donne 3 corrigée. », an undo) is not said again.
    text = text.replace(/<p class="flash" role="status">[\s\S]*?<\/p>/g, "")
      .replace(/<form class="flash"[\s\S]*?<\/form>/g, "");
    if (older) {
      text = text.replace('id="offline-never"', 'id="offline-never" hidden')
        .replace('id="offline-stale" hidden', 'id="offline-stale"');
    }
    return new Response(text.replace("<body", mark), {
      status: 200, headers: headers
    });
  });
}

function offlinePage(older) {
  return caches.match(BASE + "offline", { ignoreVary: true }).then(function (page) {
    return page ? marked(page, older) : Response.error();
  });
}

function isPage(response) {
  // A page to keep: HTML of this site, which does not ask not to be kept (a QR code's
  // page holds a token to join with: no-store).
  return response.ok && response.type === "basic" &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0 &&
    (response.headers.get("Cache-Control") || "").indexOf("no-store") === -1;
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.pathname === BASE + "join" && url.searchParams.get("code")) {
    // Sent to the join page: this device is not (or no longer) in that group.
    event.waitUntil(forget(BASE + "g/" + url.searchParams.get("code").toUpperCase()));
  }
  var failed = false;
  var network = fetch(request).then(function (response) {
    if (isPage(response)) event.waitUntil(keep(request, response));
    // This device was removed from the group (or left it): its pages are not kept.
    var gone = response.status === 403 && response.headers.get("X-Companion-Gone");
    if (gone) event.waitUntil(forget(BASE + "g/" + gone));
    return response;
  });
  event.waitUntil(network.catch(function () { failed = true; }));
  return Promise.race([network, timeout(WAIT)]).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request.url, { ignoreVary: true }).then(function (hit) {
        if (!hit) return null;
        return stale(cache, hit).then(function (old) {
          if (!old) return marked(hit);
          // Too old to show: the network, slow as it is, or the offline page saying so.
          return failed ? offlinePage(hit) : network.catch(function () { return offlinePage(hit); });
        });
      });
    }).then(function (shown) {
      if (shown) return shown;
      // Never opened here: wait for a slow network rather than give up on it.
      return failed ? offlinePage() : network.catch(function () { return offlinePage(); });
    });
  });
}

function asset(event) {
  var request = event.request;
  var pinned = new URL(request.url).searchParams.has("v"); // fingerprinted: never changes
  return caches.match(request, { ignoreVary: true }).then(function (hit) {
    if (hit && pinned) return hit;
    var fresh = fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.put(request, copy); }));
      }
      return response;
    });
    if (hit) {
      event.waitUntil(fresh.catch(function () {}));
      return hit;
    }
    return fresh.catch(function () {
      // A page kept before a new version of this file names its old fingerprint:
      // offline, the version kept will do.
      return caches.match(request, { ignoreVary: true, ignoreSearch: true }).then(function (kept) {
        return kept || Response.error();
      });
    });
  });
}

function queueable(path) {
  for (var i = 0; i < QUEUED.length; i++) {
    if (QUEUED[i][0].test(path)) return path.replace(QUEUED[i][0], QUEUED[i][1]);
  }
  return null;
}

function posted(event) {
  var request = event.request;
  var copy = request.clone();
  var path = new URL(request.url).pathname;
  return fetch(request).then(function (response) {
    var left = path.match(new RegExp("^(" + BASE + "g/[^/]+)/leave$"));
    if (left && response.status < 400) event.waitUntil(forget(left[1]));
    return response;
  }).catch(function () {
    var back = queueable(path);
    if (!back) return offlinePage();
    return copy.text().then(function (body) {
      var fields = new URLSearchParams(body);
      return CompanionOutbox.add({
        url: path,
        body: body,
        label: fields.get("outbox") || "",
        back: back,
        created: Date.now(),
        state: "waiting",
        messages: []
      });
    }).then(function () {
      if (self.registration.sync) self.registration.sync.register("outbox").catch(function () {});
      tell();
      return Response.redirect(back + "#outbox", 303);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf(BASE) !== 0) return;
  var path = url.pathname.slice(BASE.length - 1);
  if (path.indexOf("/api/") === 0 || path === "/sw.js" || path.indexOf("/offline/token") === 0) return;
  if (request.method === "POST") {
    if (request.mode === "navigate") event.respondWith(posted(event));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (path.indexOf("/static/") === 0 || path === "/manifest.webmanifest") {
    event.respondWith(asset(event));
  } else if ((request.headers.get("Accept") || "").indexOf("text/html") === 0) {
    // A page fetched by a script (static/watch.js): kept too, for later offline.
    event.respondWith(fetch(request).then(function (response) {
      if (isPage(response)) event.waitUntil(keep(request, response));
      return response;
    }));
  }
});

// ------------------------------------------------------------------ sending the outbox

function tell() {
  return self.clients.matchAll({ type: "window" }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage({ type: "outbox" }); });
  });
}

var flushing = null;

function send(item, token) {
  var body = new URLSearchParams(item.body);
  body.set("csrf_token", token);
  return fetch(item.url, {
    method: "POST",
    body: body,
    credentials: "same-origin",
    cache: "no-store",
    headers: { "X-Companion-Outbox": "1" }
  }).then(function (response) {
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") !== 0) {
      throw new Error("not an answer"); // a proxy's error page: try again later
    }
    return response.json();
  }).then(function (answer) {
    item.state = answer.outcome === "sent" || answer.outcome === "duplicate" ? "sent" : answer.outcome;
    item.status = answer.status;
    item.messages = answer.messages || [];
    item.sent = Date.now();
    return CompanionOutbox.put(item);
  });
}

function flush() {
  if (flushing) return flushing;
  flushing = CompanionOutbox.all().then(function (items) {
    var waiting = items.filter(function (i) { return i.state === "waiting"; });
    if (!waiting.length) return;
    return fetch(BASE + "offline/token", { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        // One after the other, in the order they were made; stop at the first failure
        // of the network (the rest waits for the next try).
        return waiting.reduce(function (chain, item) {
          return chain.then(function () { return send(item, data.csrf_token); });
        }, Promise.resolve());
      });
  }).catch(function () {}).then(function () {
    flushing = null;
    return tell();
  });
  return flushing;
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "flush") {
    event.waitUntil(flush());
  } else if (data.type === "prefetch" && Array.isArray(data.urls)) {
    // Pages this one leads to (a group's games, the round form, the live screen), kept
    // for offline use; one kept less than a minute ago is not asked for again, unless it
    // must be as fresh as the page asking (a round form names the next round).
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return Promise.all(data.urls.slice(0, 8).map(function (u) {
        var request = new Request(u, { credentials: "same-origin" });
        return cache.match(request, { ignoreVary: true }).then(function (hit) {
          var saved = hit ? Date.parse(hit.headers.get("X-Saved-At") || "") : NaN;
          if (!data.always && Date.now() - saved < FRESH) return;
          return fetch(request).then(function (response) {
            if (isPage(response) && !response.redirected) return keep(request, response);
          });
        }).catch(function () {});
      }));
    }));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "outbox") event.waitUntil(flush());
});
