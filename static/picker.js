// Card picker for the crapouille hand form: tap a rank, then a suit, to add a card.
// Only an enhancement: without script the cards are typed in the text field in the
// page's language ("8C RP Joker" in French, "8h Ks Joker" in English), and the server
// (the rules engine) judges every entry and scores the hand.
//
// Everything it knows comes from the server (templates/_widgets.html, card_picker_data):
// the buttons' labels, how typed text reads in the page's language, what each card
// costs, how many copies the deck holds. It writes what it picks with the suit symbols
// ("8♥ V♠ Joker"), which read the same in both languages.
//
// It enhances the page when it loads, and any new content another script puts in it
// (static/watch.js, "companion:content"): a form is enhanced once.
(function () {
  "use strict";

  function init(root) {
    var form = root.querySelector("#hand-form");
    var labels = root.querySelector("#picker-labels") || document.getElementById("picker-labels");
    if (!form || !labels || form.dataset.pickerReady) return;
    form.dataset.pickerReady = "1";
    var data = JSON.parse(labels.dataset.picker);
    var text = labels.dataset;
    var copies = parseInt(text.copies, 10);
    var jokerLimit = parseInt(text.jokers, 10);
    var rankLabel = {};
    data.ranks.forEach(function (r) { rankLabel[r[0]] = r[1]; });
    var suitSymbol = {};
    data.suits.forEach(function (s) { suitSymbol[s[0]] = s[1]; });
    var jokerWords = {};
    data.read.jokers.forEach(function (w) { jokerWords[w] = true; });
    var JOKER = "joker";

    function tokens(input) { return input.value.split(/[\s,]+/).filter(Boolean); }

    // The card a typed word stands for in the page's language, as the engine reads it
    // (companion.rules.cards.TypedNotation.read): "joker", "8h", "Js"… or null.
    function cardOf(token) {
      var key = token.replace(/[\uFE0E\uFE0F]/g, "").toUpperCase();
      if (jokerWords[key]) return JOKER;
      var chars = Array.from(key);
      if (chars.length < 2) return null;
      var rank = data.read.ranks[chars.slice(0, -1).join("")];
      var suit = data.read.suits[chars[chars.length - 1]];
      return rank && suit ? rank + suit : null;
    }
    function rankOf(card) { return card.slice(0, -1); }
    function suitOf(card) { return card.slice(-1); }
    function shown(card) { return card === JOKER ? text.joker : rankLabel[rankOf(card)] + suitSymbol[suitOf(card)]; }
    function written(card) { return card === JOKER ? data.joker : rankLabel[rankOf(card)] + suitSymbol[suitOf(card)]; }
    function isRed(card) { return card !== JOKER && card !== null && (suitOf(card) === "h" || suitOf(card) === "d"); }
    function points(card) { return card === JOKER ? data.points.joker : data.points[rankOf(card)]; }
    function noneLeft(what) { return text.noneLeftCard.replace("{card}", what); }

    var inputs = Array.prototype.slice.call(form.querySelectorAll(".cards-input"));
    function live(input) { return !input.closest("fieldset").hidden; }

    // Cards entered so far on the whole form (the deck is shared by every hand).
    function counts() {
      var c = {};
      inputs.forEach(function (input) {
        if (!live(input)) return;
        tokens(input).forEach(function (t) {
          var card = cardOf(t);
          if (card) c[card] = (c[card] || 0) + 1;
        });
      });
      return c;
    }

    var pickers = [];
    function refreshAll() {
      var c = counts();
      pickers.forEach(function (p) { p.refresh(c); });
    }
    function closeAll(except) { pickers.forEach(function (p) { if (p !== except) p.close(); }); }

    inputs.forEach(function (input) {
      var field = input.closest(".card-field") || input.parentNode;
      var pointsLine = document.getElementById(input.id + "-points");
      var chips = document.createElement("div");
      chips.className = "chips";
      var bar = document.createElement("div");
      bar.className = "picker-bar";
      var toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "button picker-toggle";
      toggle.textContent = text.add;
      toggle.setAttribute("aria-expanded", "false");
      toggle.setAttribute("aria-controls", input.id + "-picker");
      var panel = document.createElement("div");
      panel.className = "picker";
      panel.id = input.id + "-picker";
      panel.hidden = true;
      var rankRow = document.createElement("div");
      rankRow.className = "row ranks";
      rankRow.setAttribute("role", "group");
      rankRow.setAttribute("aria-label", text.rank);
      var suitRow = document.createElement("div");
      suitRow.className = "row suits";
      suitRow.setAttribute("role", "group");
      suitRow.setAttribute("aria-label", text.suit);
      var note = document.createElement("p");
      note.className = "picker-note";
      note.id = input.id + "-note";
      note.textContent = text.noneLeft;
      note.hidden = true;
      var chosenRank = null;

      function add(card) {
        input.value = tokens(input).concat([written(card)]).join(" ");
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      function button(label, cls) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        if (cls) b.className = cls;
        return b;
      }
      var rankButtons = data.ranks.map(function (r) {
        var b = button(r[1]);
        b.dataset.rank = r[0];
        b.setAttribute("aria-pressed", "false");
        b.addEventListener("click", function () {
          chosenRank = chosenRank === r[0] ? null : r[0];
          refreshAll();
        });
        rankRow.appendChild(b);
        return b;
      });
      var joker = button(text.joker, "joker");
      joker.dataset.joker = "1";
      joker.addEventListener("click", function () { chosenRank = null; add(JOKER); });
      rankRow.appendChild(joker);
      var suitButtons = data.suits.map(function (s) {
        var b = button(s[1], s[0] === "h" || s[0] === "d" ? "red" : "");
        b.dataset.suit = s[0];
        b.addEventListener("click", function () {
          if (!chosenRank) return;
          var card = chosenRank + s[0];
          chosenRank = null;
          add(card);
        });
        suitRow.appendChild(b);
        return b;
      });
      panel.appendChild(rankRow);
      panel.appendChild(suitRow);
      panel.appendChild(note);

      // A button greyed out because the deck holds no more of it says so (title, and
      // the visible note as its description); one greyed out for another reason does not.
      function grey(b, disabled, exhausted, what) {
        b.disabled = disabled;
        b.classList.toggle("none-left", exhausted);
        if (exhausted) {
          b.title = noneLeft(what);
          b.setAttribute("aria-describedby", note.id);
        } else {
          b.removeAttribute("title");
          b.removeAttribute("aria-describedby");
        }
      }

      var self = {
        close: function () {
          panel.hidden = true;
          chosenRank = null;
          toggle.setAttribute("aria-expanded", "false");
          toggle.textContent = text.add;
        },
        open: function () {
          closeAll(self);
          panel.hidden = false;
          toggle.setAttribute("aria-expanded", "true");
          toggle.textContent = text.done;
          refreshAll();
        },
        refresh: function (c) {
          var list = tokens(input);
          var cards = list.map(cardOf);
          chips.textContent = "";
          list.forEach(function (t, i) {
            var card = cards[i];
            var label = card ? shown(card) : t;
            var chip = button(label, "chip" + (isRed(card) ? " red" : "") + (card ? "" : " unknown"));
            chip.setAttribute("aria-label", text.remove + " " + label);
            chip.addEventListener("click", function () {
              var rest = tokens(input);
              rest.splice(i, 1);
              input.value = rest.join(" ");
              refreshAll();
              var next = chips.children[Math.min(i, chips.children.length - 1)];
              (next || toggle).focus();
            });
            chips.appendChild(chip);
          });
          if (pointsLine) {
            var sum = 0;
            var readable = cards.every(function (card) { return card !== null; });
            cards.forEach(function (card) { if (card) sum += points(card); });
            pointsLine.hidden = list.length === 0;
            pointsLine.textContent = text.points.replace("{points}", readable ? String(sum) : "?");
          }
          var anyLeftOut = false;
          rankButtons.forEach(function (b) {
            var rank = b.dataset.rank;
            var gone = data.suits.every(function (s) { return (c[rank + s[0]] || 0) >= copies; });
            if (gone && chosenRank === rank) chosenRank = null;
            grey(b, gone, gone, rankLabel[rank]);
            anyLeftOut = anyLeftOut || gone;
          });
          rankButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.rank === chosenRank)); });
          var jokersGone = (c[JOKER] || 0) >= jokerLimit;
          grey(joker, jokersGone, jokersGone, text.joker);
          anyLeftOut = anyLeftOut || jokersGone;
          suitButtons.forEach(function (b) {
            var card = chosenRank ? chosenRank + b.dataset.suit : null;
            var gone = !!card && (c[card] || 0) >= copies;
            grey(b, !card || gone, gone, card ? shown(card) : "");
            anyLeftOut = anyLeftOut || gone;
          });
          suitRow.classList.toggle("waiting", !chosenRank);
          note.hidden = !anyLeftOut;
        }
      };

      toggle.addEventListener("click", function () { if (panel.hidden) self.open(); else self.close(); });
      panel.addEventListener("keydown", function (event) {
        if (event.key === "Escape") { self.close(); toggle.focus(); }
      });
      input.addEventListener("input", refreshAll);
      bar.appendChild(toggle);
      if (pointsLine) bar.appendChild(pointsLine);
      input.insertAdjacentElement("afterend", chips);
      field.appendChild(bar);
      field.appendChild(panel);
      pickers.push(self);
    });

    // The player who went out has no cards to count: hide that entry.
    var radios = form.querySelectorAll("input[name=winner]");
    function showPlayers() {
      var chosen = form.querySelector("input[name=winner]:checked");
      pickers.forEach(function (p, i) {
        var fieldset = inputs[i].closest("fieldset");
        fieldset.hidden = !!chosen && chosen.value === fieldset.dataset.playerId;
        if (fieldset.hidden) p.close();
      });
      refreshAll();
    }
    Array.prototype.forEach.call(radios, function (r) { r.addEventListener("change", showPlayers); });
    showPlayers();
  }

  init(document);
  document.addEventListener("companion:content", function (event) { init(event.detail.root); });
})();
