// Le Président's forms, two small helps; without script every form works as it is.
// - The round form (templates/games/president_round.html): each event shows only its own
//   choices (the jeu blanc's player, the coup d'État's, the guillotine's three), none for
//   « Nothing special » or the putsch. Without script all stay visible and the server
//   reads only the chosen event's.
// - The live start of a first round (templates/referee/live_start.html): who leads, said
//   as the dealer chosen changes. Each choice carries the sentence the server wrote from
//   the engine's answer (data-leads): the script decides and words nothing.
(function () {
  "use strict";

  function showEvents() {
    var sets = document.querySelectorAll("fieldset[data-events]");
    Array.prototype.forEach.call(sets, function (set) {
      var checked = set.querySelector("input[name=event]:checked");
      var chosen = checked ? checked.value : "";
      Array.prototype.forEach.call(set.querySelectorAll("[data-event]"), function (part) {
        part.hidden = part.dataset.event !== chosen;
      });
    });
  }

  function showLeader() {
    var line = document.querySelector("[data-leads-line]");
    if (!line) return;
    var checked = document.querySelector("input[name=dealer]:checked");
    line.hidden = !checked;
    if (checked) line.textContent = checked.dataset.leads;
  }

  function all() {
    showEvents();
    showLeader();
  }

  document.addEventListener("change", function (event) {
    var name = event.target && event.target.name;
    if (name === "event") showEvents();
    if (name === "dealer") showLeader();
  });
  // A live page whose content static/watch.js put in place.
  document.addEventListener("companion:content", all);
  all();
})();
