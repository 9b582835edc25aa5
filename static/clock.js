// The group's clock page (templates/groups/clock.html): propose the phone's own time
// zone. When the phone's zone is in the list and differs from the group's, it is chosen
// in the list and a line says so; nothing is saved until the form is sent.
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
  if (!zone || zone === select.value) return;
  var found = false;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) found = true;
  }
  if (!found) return;
  select.value = zone;
  note.textContent = (note.getAttribute("data-text") || "").replace("{zone}", zone.replace(/_/g, " "));
  note.hidden = false;
})();
