// Whist with a tarot deck, the deal form (templates/games/whist_tarot_round.html): once
// every other player's bid is chosen, say which value the dealer may not bid.
// Only a hint: the server asks the engine, which refuses that bid with its reason.
(function () {
  "use strict";
  var form = document.querySelector("form[data-whist]");
  if (!form) return;
  var hint = document.getElementById("forbidden-hint");
  var dealer = form.querySelector("fieldset[data-dealer]");
  if (!hint || !dealer) return;
  var cards = parseInt(form.dataset.cards, 10);
  var others = Array.prototype.filter.call(form.querySelectorAll("fieldset[id^='bid_']"), function (f) {
    return f !== dealer;
  });

  function update() {
    var sum = 0;
    for (var i = 0; i < others.length; i++) {
      var checked = others[i].querySelector("input:checked");
      if (!checked) {
        hint.textContent = hint.dataset.wait;
        return;
      }
      sum += parseInt(checked.value, 10);
    }
    var forbidden = cards - sum;
    hint.textContent = forbidden >= 0 ? hint.dataset.said.replace("{bid}", String(forbidden)) : hint.dataset.free;
  }

  others.forEach(function (f) { f.addEventListener("change", update); });
  update();
})();
