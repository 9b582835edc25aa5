// Card picker for the crapouille hand form: tap a rank, then a suit, to add a card.
// Only an enhancement: without script the cards are typed in the text field
// (e.g. "8h RJ 10s"), and the server (the rules engine) judges every entry.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  var labels = document.getElementById("picker-labels");
  if (!form || !labels) return;
  var ranks = JSON.parse(labels.dataset.ranks);   // [[code, label], ...]
  var suits = JSON.parse(labels.dataset.suits);   // [[code, symbol], ...]
  var copies = parseInt(form.dataset.copies, 10);
  var jokerLimit = parseInt(form.dataset.jokers, 10);
  var rankLabel = {}; ranks.forEach(function (r) { rankLabel[r[0].toUpperCase()] = r[1]; });
  var suitSymbol = {}; suits.forEach(function (s) { suitSymbol[s[0]] = s[1]; });
  var inputs = Array.prototype.slice.call(form.querySelectorAll(".cards-input"));

  function tokens(input) { return input.value.split(/[\s,]+/).filter(Boolean); }
  function isJoker(t) { return /^(RJ|BJ)$/i.test(t); }
  function parts(t) {
    var m = /^(10|[2-9JQKAVDR])(.)$/i.exec(t);
    if (!m) return null;
    var r = m[1].toUpperCase(); r = { V: "J", D: "Q", R: "K" }[r] || r;
    var s = m[2].toLowerCase(); s = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" }[s] || s;
    return [r, s];
  }
  function key(t) { if (isJoker(t)) return "JOKER"; var p = parts(t); return p ? p[0] + p[1] : t.toUpperCase(); }
  function counts() {
    var c = {};
    inputs.forEach(function (input) {
      if (input.closest("fieldset").hidden) return;
      tokens(input).forEach(function (t) { var k = key(t); c[k] = (c[k] || 0) + 1; });
    });
    return c;
  }
  function label(t) {
    if (isJoker(t)) return labels.dataset.joker;
    var p = parts(t);
    return p ? (rankLabel[p[0]] || p[0]) + (suitSymbol[p[1]] || p[1]) : t;
  }
  function red(t) { var p = parts(t); return t.toUpperCase() === "RJ" || (p && (p[1] === "h" || p[1] === "d")); }

  var refreshers = [];
  function refreshAll() { refreshers.forEach(function (f) { f(); }); }

  inputs.forEach(function (input) {
    var chips = document.createElement("div");
    chips.className = "chips";
    chips.setAttribute("aria-live", "polite");
    var toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "button";
    toggle.textContent = labels.dataset.add;
    toggle.setAttribute("aria-expanded", "false");
    var picker = document.createElement("div");
    picker.className = "picker";
    picker.hidden = true;
    var rankRow = document.createElement("div");
    rankRow.className = "row ranks";
    rankRow.setAttribute("role", "group");
    rankRow.setAttribute("aria-label", labels.dataset.rank);
    var suitRow = document.createElement("div");
    suitRow.className = "row suits";
    suitRow.setAttribute("role", "group");
    suitRow.setAttribute("aria-label", labels.dataset.suit);
    var chosenRank = null;

    function add(code) {
      input.value = tokens(input).concat([code]).join(" ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    ranks.forEach(function (r) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = r[1]; b.dataset.rank = r[0];
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", function () { chosenRank = r[0]; refreshAll(); });
      rankRow.appendChild(b);
    });
    var joker = document.createElement("button");
    joker.type = "button"; joker.textContent = "🃏"; joker.dataset.joker = "1";
    joker.setAttribute("aria-label", labels.dataset.joker);
    joker.addEventListener("click", function () { chosenRank = null; add("RJ"); });
    rankRow.appendChild(joker);
    suits.forEach(function (s) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = s[1]; b.dataset.suit = s[0];
      if (s[0] === "h" || s[0] === "d") b.className = "red";
      b.addEventListener("click", function () {
        if (chosenRank) { var rank = chosenRank; chosenRank = null; add(rank + s[0]); }
      });
      suitRow.appendChild(b);
    });
    picker.appendChild(rankRow);
    picker.appendChild(suitRow);
    toggle.addEventListener("click", function () {
      picker.hidden = !picker.hidden;
      toggle.setAttribute("aria-expanded", String(!picker.hidden));
      toggle.textContent = picker.hidden ? labels.dataset.add : labels.dataset.done;
    });
    input.insertAdjacentElement("afterend", picker);
    input.insertAdjacentElement("afterend", toggle);
    input.insertAdjacentElement("afterend", chips);
    input.addEventListener("input", refreshAll);

    refreshers.push(function () {
      var c = counts();
      chips.textContent = "";
      tokens(input).forEach(function (t, i) {
        var chip = document.createElement("button");
        chip.type = "button"; chip.className = "chip" + (red(t) ? " red" : "");
        chip.textContent = label(t);
        chip.setAttribute("aria-label", labels.dataset.remove + " " + label(t));
        chip.addEventListener("click", function () {
          var list = tokens(input); list.splice(i, 1); input.value = list.join(" "); refreshAll();
        });
        chips.appendChild(chip);
      });
      Array.prototype.forEach.call(rankRow.querySelectorAll("button[data-rank]"), function (b) {
        b.setAttribute("aria-pressed", String(b.dataset.rank === chosenRank));
      });
      joker.disabled = (c.JOKER || 0) >= jokerLimit;
      Array.prototype.forEach.call(suitRow.querySelectorAll("button"), function (b) {
        b.disabled = !chosenRank || (c[chosenRank + b.dataset.suit] || 0) >= copies;
      });
    });
  });

  // The player who went out has no cards to count: hide his entry.
  var radios = form.querySelectorAll("input[name=winner]");
  function showPlayers() {
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.player"), function (fs) {
      var r = form.querySelector("input[name=winner]:checked");
      fs.hidden = !!r && r.value === fs.dataset.playerId;
    });
    refreshAll();
  }
  Array.prototype.forEach.call(radios, function (r) { r.addEventListener("change", showPlayers); });
  showPlayers();
})();
