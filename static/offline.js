// The phone side of working offline (the service worker is static/sw.js): installs the
// worker, says when a page is a copy kept on this phone, and shows the outbox — what
// waits to be sent, what was sent, and what the server did not save (a conflict), with
// both versions one tap away. Its words come from data-attributes of templates/base.html.
(function () {
  "use strict";
  var box = document.getElementById("outbox");
  var note = document.getElementById("offline-note");
  if (!box || !("serviceWorker" in navigator) || !window.indexedDB || !window.CompanionOutbox) return;
  var text = box.dataset;
  var Outbox = window.CompanionOutbox;

  navigator.serviceWorker.register(text.worker, { scope: text.scope }).catch(function () {});

  // How long ago `iso` was, in the page's language: « il y a 5 min », « il y a 2 h »,
  // « hier », « il y a 3 jours » (null when it is no date).
  function ago(iso) {
    var then = iso ? new Date(iso) : null;
    if (!then || isNaN(then) || !window.Intl || !Intl.RelativeTimeFormat) return null;
    var lang = document.documentElement.lang || "fr";
    var short = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });
    var words = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    var now = new Date();
    var minutes = Math.max(1, Math.round((now - then) / 60000)); // a copy of a moment ago: 1 min
    if (minutes < 60) return short.format(-minutes, "minute");
    if (minutes < 24 * 60) return short.format(-Math.round(minutes / 60), "hour");
    // Further back, in days of the calendar: yesterday evening is « hier », whatever the hour.
    var days = Math.round((new Date(now.getFullYear(), now.getMonth(), now.getDate()) -
      new Date(then.getFullYear(), then.getMonth(), then.getDate())) / 86400000);
    if (days < 31) return words.format(-Math.max(1, days), "day");
    return words.format(-Math.round(days / 30), "month");
  }

  // A page kept on this phone, shown because the network did not answer.
  var saved = document.body.dataset.offlineSaved;
  var keptAgo = ago(saved);
  if (note && keptAgo) {
    note.textContent = note.dataset.text.replace("{when}", keptAgo);
    note.hidden = false;
  }
  // The offline page, shown instead of a copy older than what this phone has seen since.
  var staleAge = document.getElementById("offline-stale-age");
  var staleAgo = ago(document.body.dataset.offlineStale);
  if (staleAge && staleAgo) {
    staleAge.textContent = staleAge.dataset.text.replace("{when}", staleAgo);
    staleAge.hidden = false;
  }

  function worker(message) {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage(message);
    });
  }

  function flush() { worker({ type: "flush" }); }

  function button(label, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button" + (cls ? " " + cls : "");
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  // Send a kept form again as an ordinary page (online): the server shows it with what
  // changed meanwhile (a conflict) or why it refuses it, everything typed still there.
  function show(item) {
    fetch(text.token, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      return r.json();
    }).then(function (data) {
      var form = document.createElement("form");
      form.setAttribute("method", "post");
      form.setAttribute("action", item.url);
      form.hidden = true;
      new URLSearchParams(item.body).forEach(function (value, name) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = name === "csrf_token" ? data.csrf_token : value;
        form.appendChild(input);
      });
      document.body.appendChild(form);
      // Its fields may be called "submit" or "action": the form's own method, then.
      HTMLFormElement.prototype.submit.call(form);
    }).catch(function () {});
  }

  function drop(item) {
    if (!window.confirm(text.dropConfirm)) return;
    Outbox.remove(item.id).then(render);
  }

  var waitingCount = 0;

  function render() {
    return Outbox.all().then(function (items) {
      var list = box.querySelector("ul");
      var title = box.querySelector("h2");
      list.textContent = "";
      waitingCount = items.filter(function (i) { return i.state === "waiting"; }).length;
      if (!items.length) { box.hidden = true; return; }
      title.textContent = waitingCount === 0 ? text.none
        : waitingCount === 1 ? text.one : text.many.replace("{n}", String(waitingCount));
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.dataset.state = item.state;
        var label = document.createElement("strong");
        label.textContent = item.label || item.url;
        var state = document.createElement("span");
        state.className = "state-" + item.state;
        state.textContent = " — " + (text[item.state] || item.state);
        li.appendChild(label);
        li.appendChild(state);
        var messages = item.status === 403 ? [text.forbidden] : item.messages || [];
        messages.forEach(function (m) {
          var p = document.createElement("p");
          p.className = "small";
          p.textContent = m;
          li.appendChild(p);
        });
        var actions = document.createElement("div");
        actions.className = "actions";
        if (item.state === "waiting") {
          actions.appendChild(button(text.send, "", flush));
        } else if (item.state === "conflict" || item.state === "refused") {
          // Both versions for a round or a correction; for a delete, a status change or
          // an undo, the game, saying why.
          var see = item.state === "conflict" && ROUND_FORM.test(item.url) ? text.show : text.showRefused;
          actions.appendChild(button(see, "primary", function () { show(item); }));
          actions.appendChild(button(text.drop, "danger", function () { drop(item); }));
        }
        if (actions.childNodes.length) li.appendChild(actions);
        list.appendChild(li);
      });
      box.hidden = false;
      // What was sent is said once, on this page, then forgotten.
      items.filter(function (i) { return i.state === "sent"; }).forEach(function (i) { Outbox.remove(i.id); });
      adjust(items);
    }).catch(function () {});
  }

  // What the outbox keeps of a game (static/sw.js): a round or a correction, and the
  // writes that name the game's version without a form to fill (a delete, a status
  // change, an undo). Each moves the game on by one version.
  var ROUND_FORM = /\/games\/\d+\/rounds\/(new|\d+\/edit)$/;
  var GAME_WRITE = /^(.*\/games\/\d+)\/(rounds\/(new|\d+\/edit|\d+\/delete)|abandon|finish|reopen|changes\/\d+\/undo)$/;

  function gameOf(path) {
    var m = GAME_WRITE.exec(path);
    return m ? m[1] : null;
  }

  // A form shown from a copy kept before writes to its game were kept offline: it names
  // the game version after them (and a round form the round after them), so that they
  // are sent one after the other.
  function adjust(items) {
    var forms = document.querySelectorAll("form[method=post]");
    Array.prototype.forEach.call(forms, function (form) {
      var path = new URL(form.action, window.location.href).pathname;
      var version = form.querySelector("input[name=version]");
      var round = form.querySelector("input[name=round]");
      if (!version) return;
      var game = gameOf(path);
      items.forEach(function (item) {
        if (item.state !== "waiting" || (item.url !== path && (!game || gameOf(item.url) !== game))) return;
        var fields = new URLSearchParams(item.body);
        var v = parseInt(fields.get("version"), 10);
        if (v >= parseInt(version.value, 10)) version.value = String(v + 1);
        if (item.url !== path) return;
        var r = parseInt(fields.get("round"), 10);
        if (round && /\/rounds\/new$/.test(path) && r >= parseInt(round.value, 10)) {
          var before = round.value;
          round.value = String(r + 1);
          var heading = document.querySelector("main h1");
          if (heading) heading.textContent = heading.textContent.replace(before, round.value);
          var label = form.querySelector("input[name=outbox]");
          if (label) label.value = label.value.replace(before, round.value);
        }
      });
    });
  }

  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "outbox") render();
  });
  window.addEventListener("online", flush);
  // The page was brought up to date (static/watch.js): it is no longer the kept copy,
  // and the pages it leads to are kept again as they are now.
  document.addEventListener("companion:content", function () {
    if (note) note.hidden = true;
    saved = undefined;
    prefetch();
  });

  // Pages this one leads to (the round form, the live screen), kept for offline use.
  function prefetch() {
    if (saved !== undefined || !navigator.onLine) return;
    [false, true].forEach(function (always) {
      var links = document.querySelectorAll(always ? "a[data-prefetch=always]" : "a[data-prefetch='']");
      var urls = Array.prototype.map.call(links, function (a) { return a.href; });
      if (urls.length) worker({ type: "prefetch", urls: urls, always: always });
    });
  }

  render().then(function () {
    if (waitingCount) flush();
    prefetch();
  });
  // While something waits, try again every few seconds (the network may come back
  // without the browser saying so).
  window.setInterval(function () { if (waitingCount) flush(); }, 5000);
})();
