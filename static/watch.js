// Live pages (companion/watch.py; docs/architecture.md, "Live updates"). A page whose
// <body> names a watch address (data-watch-url) and the token of what it shows
// (data-watch-token) asks that address every 1.5 s (data-watch-every: the app's
// WATCH_EVERY_MS) while it is in sight: the answer is an empty 304 while nothing
// changed. Once the token moved, the page is fetched again and its new <main> takes
// the place of the old one, where the reader was (no reload).
// Someone typing or choosing in a form is never overwritten: a notice says the game
// changed, with a button to refresh. A page that is a form (the round form, the
// correction form: data-watch-form) is never replaced at all: its watch address names
// the version it was shown at (?since=), and the answer's "notice" (drawn by the
// server's template, escaped there) says what changed since; it is shown above the
// form, and replaced as the game moves on. Offline, it stays silent and keeps asking.
// An address gone for good (410: a table display's link revoked or its evening over)
// is fetched once more: its page, which says why, takes the place of what was shown,
// and nothing more is asked. Told to wait (429), it asks again once the answer's
// Retry-After has passed, not sooner; a page that said so itself (a table display's
// link opened while its address must wait) has no token yet: once the link opens, its
// display is put in place and followed. A page that names a key (data-watch-key: a table
// display's link, companion/display/guard.py) sends it back with every request it
// makes (X-Watch-Key): the screen was given the page, so its asking is never slowed.
// Only an enhancement: without script a page is up to date when it is reloaded.
//
// The notice's words come from the page (data-watch-changed, data-watch-refresh).
// Scripts that enhance what <main> holds listen to "companion:content" and enhance
// the new content (static/picker.js, static/tap-order.js).
(function () {
  "use strict";
  var body = document.body;
  var data = body.dataset;
  if (!data.watchUrl || !window.fetch || !window.DOMParser) return;
  var EVERY = Number(data.watchEvery) > 0 ? Number(data.watchEvery) : 1500;  // WATCH_EVERY_MS
  var FIELD = "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), " +
    "select, textarea, [contenteditable]";

  var url = data.watchUrl;
  var form = !!data.watchForm;
  var key = data.watchKey;
  var MOST = 15 * 60 * 1000;  // the longest a throttle asks to wait (companion/groups/throttle.py)
  var token = data.watchToken;
  // The page's own address (a page answering a POST, such as a refused move, names it).
  var page = data.watchPage || window.location.pathname + window.location.search;
  var address = page.split("#")[0];
  // A page that answered a POST shows what was typed: it is never replaced by itself.
  var here = address === window.location.pathname + window.location.search;
  var touched = !here;
  var timer = null;
  var busy = false;
  var stopped = false;
  var notice = null;

  function main() { return document.querySelector("main"); }

  // Something typed or chosen in a form: the page is not replaced under the fingers.
  function mark(event) {
    var target = event.target;
    if (target && target.closest && target.closest("form")) touched = true;
  }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);

  function typing() {
    var element = document.activeElement;
    return !!element && element !== body && !!element.matches && element.matches(FIELD);
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    timer = stopped ? null : window.setTimeout(poll, delay);
  }

  // A form's notice: what changed since the form was shown, as the server drew it
  // (parsed, never run: no script comes to life in a parsed document), in place of the
  // one shown before, if any; the fields and what they hold are left alone.
  function told(html) {
    var holder = main();
    var drawn = null;
    if (typeof html === "string") drawn = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    if (!holder || !drawn) { tell(); return; }  // no words of its own: the page's
    var fresh = document.adoptNode(drawn);
    if (notice && holder.contains(notice)) holder.replaceChild(fresh, notice);
    else holder.insertBefore(fresh, holder.firstChild);
    notice = fresh;
  }

  function tell() {
    var holder = main();
    if (!holder || (notice && holder.contains(notice))) return;
    notice = document.createElement("p");
    notice.className = "flash watch-changed";
    notice.setAttribute("role", "status");
    notice.appendChild(document.createTextNode(data.watchChanged + " "));
    if (form) { holder.insertBefore(notice, holder.firstChild); return; }  // a form is not refreshed
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = data.watchRefresh;
    button.addEventListener("click", function () {
      if (!here) { window.location.assign(page); return; }
      button.disabled = true;
      refresh(true).then(function (done) { if (!done) button.disabled = false; });
    });
    notice.appendChild(button);
    holder.insertBefore(notice, holder.firstChild);
  }

  // The <details> a reader opened stay open (matched by their summary's words).
  function opened(root) {
    return Array.prototype.map.call(root.querySelectorAll("details[open] > summary"), function (summary) {
      return summary.textContent.trim();
    });
  }

  function swap(fresh, doc) {
    var holder = main();
    var x = window.scrollX;
    var y = window.scrollY;
    var open = opened(holder);
    var active = document.activeElement;
    var focusId = active && active.id && holder.contains(active) ? active.id : null;
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    while (fresh.firstChild) holder.appendChild(document.adoptNode(fresh.firstChild));
    Array.prototype.forEach.call(holder.querySelectorAll("details > summary"), function (summary) {
      if (open.indexOf(summary.textContent.trim()) >= 0) summary.parentNode.open = true;
    });
    if (doc.title) document.title = doc.title;
    notice = null;
    touched = false;
    document.dispatchEvent(new CustomEvent("companion:content", { detail: { root: holder } }));
    window.scrollTo(x, y);
    var again = focusId && document.getElementById(focusId);
    if (again) again.focus({ preventScroll: true });
  }

  // Fetch the page and put its <main> in place; resolves to whether it was.
  // The headers of a request to the server: ``accept``, and the page's key if it has one.
  function headers(accept, more) {
    var all = { "Accept": accept };
    if (key) all["X-Watch-Key"] = key;
    for (var name in more) all[name] = more[name];
    return all;
  }

  function refresh(forced) {
    return fetch(address, { headers: headers("text/html", {}), cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // A page gone for good (410) still says why: it is shown like any other.
        if (response.redirected || !(response.ok || response.status === 410)) return null;
        return response.text();
      }).then(function (text) {
        if (text === null) return false;
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.querySelector("main");
        if (!fresh) return false;
        var next = doc.body.dataset.watchToken;
        if (!forced && (touched || typing())) {  // the reader started typing meanwhile
          if (next) token = next;
          tell();
          return false;
        }
        swap(fresh, doc);
        if (next) token = next;
        else stopped = true;  // the page is no longer watched (nothing left to follow)
        if (doc.body.dataset.watchKey) key = doc.body.dataset.watchKey;  // the new page's own
        return true;
      }).catch(function () { return false; });
  }

  function changed(next, answer) {
    if (form) {
      token = next;
      told(answer.notice);
      return null;
    }
    if (touched || typing()) {
      token = next;  // said once, until the reader refreshes
      tell();
      return null;
    }
    return refresh(false);  // on failure the token stays: the next poll tries again
  }

  function poll() {
    timer = null;
    if (stopped || busy || document.visibilityState === "hidden") return;
    busy = true;
    var next = EVERY;
    fetch(url, {
      headers: headers("application/json", { "If-None-Match": "\"" + token + "\"" }),
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 304) return null;
      // Told to wait: asked again once the wait is over (Retry-After, in seconds).
      if (response.status === 429) {
        var wait = Number(response.headers.get("Retry-After")) * 1000;
        if (wait > EVERY) next = Math.min(wait, MOST);
        return null;
      }
      // Gone for good: the page says why, in place of what it showed (whatever the
      // reader was doing: nothing on it can be sent any more); a page that is no longer
      // watched, the asking stops there (refresh()). Failing that, asked again.
      if (response.status === 410) return refresh(true).then(function () { return null; });
      // Out of the group (left, removed), or the page is gone: nothing more to ask.
      if (response.redirected || response.status === 403 || response.status === 404) {
        stopped = true;
        return null;
      }
      return response.ok ? response.json() : null;  // a server error: ask again later
    }).then(function (answer) {
      if (answer && answer.token && answer.token !== token) return changed(answer.token, answer);
      return null;
    }).catch(function () {
      // Offline, or a connection cut: silent, and asked again.
    }).then(function () {
      busy = false;
      schedule(next);
    });
  }

  // Hidden: no asking (poll() stops); back in sight, or back online: at once.
  function wake() { if (document.visibilityState !== "hidden" && !busy) schedule(0); }
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  window.addEventListener("pageshow", function (event) { if (event.persisted) wake(); });
  schedule(EVERY);
})();
