// Whist with a tarot deck, the deal form (templates/games/whist_tarot_round.html): once
// every other player's bid is chosen, say which value the dealer may not bid, and strike
// that chip out (disabled, as the server draws it when it knows the other bids).
// Only a help: the server asks the engine, which refuses that bid with its reason. The
// forbidden value for each total of the other bids is the engine's (data-forbidden-bids), and
// so is the sentence saying it (data-forbidden-said, the one its refusal says): the script
// adds the bids up and reads them, it decides and words nothing.
(function () {
  "use strict";
  var form = document.querySelector("form[data-whist]");
  if (!form) return;
  var hint = document.getElementById("forbidden-hint");
  var dealer = form.querySelector("fieldset[data-dealer]");
  if (!hint || !dealer) return;
  var forbiddenFor = JSON.parse(form.dataset.forbiddenBids || "[]");
  // What is said of it: the engine's sentence for each total, as the server writes it.
  var saidFor = JSON.parse(form.dataset.forbiddenSaid || "[]");
  var others = Array.prototype.filter.call(form.querySelectorAll("fieldset[id^='bid_']"), function (f) {
    return f !== dealer;
  });
  var chips = dealer.querySelectorAll("input[type=radio]");

  // The dealer's chip of ``value`` struck and disabled (none: every chip free). A chip
  // chosen before it became forbidden is unchosen: it could not be sent.
  function strike(value) {
    var reason = hint.hidden ? hint.dataset.error : hint.id;
    for (var i = 0; i < chips.length; i++) {
      var chip = chips[i];
      var forbidden = value !== null && chip.value === String(value);
      chip.disabled = forbidden;
      if (forbidden) {
        chip.checked = false;
        chip.setAttribute("aria-describedby", reason);
      } else {
        chip.removeAttribute("aria-describedby");
      }
      var label = chip.closest("label");
      if (label) label.classList.toggle("forbidden", forbidden);
    }
  }

  function update() {
    var sum = 0;
    for (var i = 0; i < others.length; i++) {
      var checked = others[i].querySelector("input:checked");
      if (!checked) {
        hint.textContent = hint.dataset.wait;
        strike(null);
        return;
      }
      sum += parseInt(checked.value, 10);
    }
    var forbidden = forbiddenFor[sum];
    if (forbidden !== undefined && forbidden !== null) {
      hint.textContent = saidFor[sum];
      strike(forbidden);
    } else {
      hint.textContent = hint.dataset.free;
      strike(null);
    }
  }

  others.forEach(function (f) {
    f.addEventListener("change", function () {
      // Another bid changed: the refusal shown by the dealer's bids no longer holds.
      hint.hidden = false;
      update();
    });
  });
  update();
})();
