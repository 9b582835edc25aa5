// The group's clock page (templates/groups/clock.html): propose the phone's own time
// zone. When the phone's zone is in the list and differs from the group's, it is chosen
// in the list and a line says so, by the place the list shows; nothing is saved until the
// form is sent.
(function () {
  "use strict";
  var select = document.querySelector("select[data-browser-zone]");
  var note = document.getElementById("zone-proposed");
  if (!select || !note || !window.Intl || !Intl.DateTimeFormat) return;
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  var aliases = {};
  try {
    aliases = JSON.parse(select.getAttribute("data-zone-aliases") || "{}");
  } catch (e) {
    aliases = {};
  }
  // A zone the list names by another id (the browser's Asia/Calcutta is Asia/Kolkata).
  if (zone && Object.prototype.hasOwnProperty.call(aliases, zone)) zone = aliases[zone];
  if (!zone || zone === select.value) return;
  var found = null;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) found = select.options[i];
  }
  if (!found) return;
  select.value = zone;
  // Said as the list says it: the zone's place, in the page's language.
  note.textContent = (note.getAttribute("data-text") || "").replace("{zone}", found.textContent.trim());
  note.hidden = false;
})();
