// The quick check (templates/referee/check.html): the verdict without a page reload.
// Only an enhancement: without script the form posts to its page, which asks the engine
// and shows the same verdict above the form.
//
// Every input of the form is named by its path in the /api/v1/check body
// ("state.trick[2].cards", "move.player", "state.bids.@1" where @1 is seat 1's name) and
// says with data-kind how its text becomes JSON. build() reads the form exactly as
// companion/referee/check.py's form_body() does (same kinds, empty values left out,
// list entries left empty closed up), so the body sent here is the one the page
// would judge. Whatever cannot be read here (an unknown card…), a refusal of the API
// (400) or a network failure: the form is sent normally, and the page says what is wrong.
(function () {
  "use strict";
  var form = document.querySelector("form[data-check]");
  if (!form || !window.fetch || !window.Map) return;
  var region = document.getElementById("verdict");
  var template = document.getElementById("verdict-template");
  var labels = document.getElementById("check-labels");
  var pickerData = document.getElementById("picker-labels");
  var read = pickerData ? JSON.parse(pickerData.dataset.picker).read : null;

  var SEGMENT = /\[([0-9]+)\]|\.?([^.[\]]+)/g;
  var WHOLE = /^-?[0-9]{1,4}$/;
  var SEAT_NUMBER = /^[0-9]{1,2}$/;
  var SEAT = /^@([0-9]{1,2})$/;
  var PLAYERS = /^state\.players\[([0-9]{1,2})\]$/;

  function Unreadable() {}

  function inputs() {
    return Array.prototype.filter.call(form.elements, function (e) { return e.dataset && e.dataset.kind; });
  }

  // What an input holds as text, as the browser sends it; null: an unticked radio (no value).
  function raw(e) {
    if (e.type === "radio") return e.checked ? e.value : null;
    if (e.type === "checkbox") return e.checked ? e.value : "";
    return e.value;
  }

  function segments(path) {
    var out = [];
    path.replace(SEGMENT, function (match, index, key) {
      out.push(index !== undefined ? parseInt(index, 10) : key);
      return match;
    });
    return out;
  }

  function seatNames() {
    var names = {};
    inputs().forEach(function (e) {
      var m = PLAYERS.exec(e.name);
      if (m) names[parseInt(m[1], 10)] = (raw(e) || "").trim();
    });
    return names;
  }

  // The card a typed word stands for in the page's language, as the engine reads it
  // (companion.rules.cards.TypedNotation.read), in RULES.md's notation; or null.
  function cardOf(token) {
    if (!read) return null;
    var key = token.replace(/[\uFE0E\uFE0F]/g, "").trim().toUpperCase();
    if (read.jokers.indexOf(key) >= 0) return key === "BJ" ? "BJ" : "RJ";
    var chars = Array.from(key);
    if (chars.length < 2) return null;
    var rank = read.ranks[chars.slice(0, -1).join("")];
    var suit = read.suits[chars[chars.length - 1]];
    return rank && suit ? rank + suit : null;
  }

  // The JSON value of an input's text (undefined: nothing); throws Unreadable.
  function value(kind, text, names) {
    text = text.trim();
    if (kind === "flag" || kind === "bool") return text ? true : (kind === "bool" ? false : undefined);
    if (!text) return undefined;
    if (kind === "text") return text;
    if (kind === "int") {
      if (!WHOLE.test(text)) throw new Unreadable();
      return parseInt(text, 10);
    }
    if (kind === "player") {
      var seat = SEAT_NUMBER.test(text) ? parseInt(text, 10) : null;
      if (seat === null || !names[seat]) throw new Unreadable();
      return names[seat];
    }
    if (kind === "json") {
      try { return JSON.parse(text); } catch (e) { throw new Unreadable(); }
    }
    if (kind === "cards" || kind === "card") {
      var cards = text.split(/[\s,]+/).filter(Boolean).map(cardOf);
      if (cards.some(function (c) { return c === null; })) throw new Unreadable();
      if (kind === "cards") return cards;
      if (cards.length !== 1) throw new Unreadable();
      return cards[0];
    }
    throw new Unreadable();
  }

  // Lists are built as maps keyed by index: they become arrays, in order, without gaps.
  function closedUp(node) {
    if (!(node instanceof Map)) return node;
    var keys = Array.from(node.keys());
    if (keys.length && keys.every(function (k) { return typeof k === "number"; })) {
      keys.sort(function (a, b) { return a - b; });
      return keys.map(function (k) { return closedUp(node.get(k)); });
    }
    var object = {};
    keys.forEach(function (k) { object[k] = closedUp(node.get(k)); });
    return object;
  }

  // The /api/v1/check body of the form (check.py's form_body); throws Unreadable.
  function build() {
    var names = seatNames();
    var tree = new Map();
    inputs().forEach(function (e) {
      var text = raw(e);
      if (text === null) return;
      var v = value(e.dataset.kind, text, names);
      if (v === undefined) return;
      var path = segments(e.name).map(function (s) {
        var seat = typeof s === "string" ? SEAT.exec(s) : null;
        if (!seat) return s;
        var name = names[parseInt(seat[1], 10)];
        if (!name) throw new Unreadable();
        return name;
      });
      var node = tree;
      path.slice(0, -1).forEach(function (s) {
        if (!node.has(s)) node.set(s, new Map());
        node = node.get(s);
        if (!(node instanceof Map)) throw new Unreadable();
      });
      node.set(path[path.length - 1], v);
    });
    return closedUp(tree);
  }
  // For the tests: the body this form gives now (null when it cannot be read here).
  form.checkBody = function () {
    try { return build(); } catch (e) { if (e instanceof Unreadable) return null; throw e; }
  };

  // --- the verdict, in place --------------------------------------------------------

  function show(answer) {
    var box = template.content.firstElementChild.cloneNode(true);
    box.classList.add(answer.legal ? "legal" : "illegal");
    box.querySelector(answer.legal ? ".when-illegal" : ".when-legal").hidden = true;
    var reason = box.querySelector(".verdict-reason");
    reason.textContent = answer.reason || "";
    reason.hidden = !answer.reason;
    var said = box.querySelector(".verdict-said");
    (answer.said || []).forEach(function (sentence) {
      var li = document.createElement("li");
      li.textContent = sentence;
      said.appendChild(li);
    });
    said.hidden = !(answer.said && answer.said.length);
    var next = box.querySelector(".verdict-next");
    next.querySelector("strong").textContent = answer.next_player || "";
    // Whose turn, said once: the sentences say it when there are any.
    next.hidden = !answer.next_player || !!(answer.said && answer.said.length);
    region.textContent = "";
    region.appendChild(box);
    // What the page said of an earlier submission is no longer true.
    var summary = document.getElementById("error-summary");
    if (summary) summary.remove();
    Array.prototype.forEach.call(form.querySelectorAll(".error"), function (p) { p.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll(".has-error"), function (d) { d.classList.remove("has-error"); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid=true]"), function (i) {
      i.setAttribute("aria-invalid", "false");
    });
    region.focus();
  }

  var plain = false;
  function sendPlainly() {
    plain = true;
    HTMLFormElement.prototype.submit.call(form);
  }

  form.addEventListener("submit", function (event) {
    if (plain) return;
    var body = form.checkBody();
    if (body === null) return; // the page reads it and says what is wrong
    event.preventDefault();
    body.lang = form.dataset.lang;
    form.setAttribute("aria-busy", "true");
    fetch(form.dataset.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status !== 200) throw new Error("status " + response.status);
      return response.json();
    }).then(function (answer) {
      form.removeAttribute("aria-busy");
      show(answer);
    }).catch(function () {
      form.removeAttribute("aria-busy");
      sendPlainly();
    });
  });

  // --- seats and rows ----------------------------------------------------------------

  // A seat named (or emptied) here is offered (or withdrawn) everywhere at once.
  var seatLabel = labels ? labels.dataset.seat : "";
  function renameSeats() {
    var names = seatNames();
    Object.keys(names).forEach(function (i) {
      var name = names[i];
      Array.prototype.forEach.call(form.querySelectorAll("select[data-kind=player] option[value='" + i + "']"), function (o) {
        o.textContent = name || seatLabel.replace("99", String(parseInt(i, 10) + 1));
        o.hidden = !name;
        o.disabled = !name;
      });
      Array.prototype.forEach.call(form.querySelectorAll("[data-seat='" + i + "']"), function (el) { el.hidden = !name; });
      Array.prototype.forEach.call(form.querySelectorAll("[data-seat-label='" + i + "']"), function (el) {
        el.textContent = name;
      });
      Array.prototype.forEach.call(form.querySelectorAll("[data-seat='" + i + "'] > .field > label"), function (l) {
        if (name) l.textContent = name;
      });
    });
  }
  inputs().forEach(function (e) {
    if (PLAYERS.test(e.name)) e.addEventListener("input", renameSeats);
  });
  // Renamed as they are typed: the page need not be drawn again with the names (nor
  // keep « Check » first for Enter ahead of that button: both go).
  Array.prototype.forEach.call(form.querySelectorAll("[data-names-button]"), function (b) { b.remove(); });

  // Rows nobody filled (trick entries, seats) wait behind an "add" button.
  function blank(row) {
    return Array.prototype.every.call(row.querySelectorAll("[data-kind]"), function (e) {
      if (e.type === "checkbox" || e.type === "radio") return !e.checked;
      return !e.value.trim();
    });
  }
  Array.prototype.forEach.call(form.querySelectorAll("[data-rows]"), function (box) {
    var rows = Array.prototype.slice.call(box.querySelectorAll("[data-row]"));
    var add = box.querySelector("[data-add-row]");
    if (!add || !rows.length) return;
    var shown = 0;
    rows.forEach(function (row, i) { if (!blank(row)) shown = i + 1; });
    shown = Math.min(rows.length, shown + 1);
    rows.forEach(function (row, i) { row.hidden = i >= shown; });
    add.hidden = shown >= rows.length;
    add.addEventListener("click", function () {
      var next = rows.filter(function (row) { return row.hidden; })[0];
      if (!next) return;
      next.hidden = false;
      add.hidden = !rows.some(function (row) { return row.hidden; });
      var first = next.querySelector("select, input:not([type=hidden])");
      if (first) first.focus();
    });
  });
})();
