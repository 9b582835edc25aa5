// Times on this phone's own clock: a <time datetime="…" data-local-time> the server wrote
// on the clock it knew (a group's, else Europe/Paris) is written again in the phone's
// zone, as the page's language writes an hour (« 21:47 », "9:47 PM"). Without a script,
// or without Intl, the server's time stays, its zone being the table's usual one.
(function () {
  "use strict";
  if (!window.Intl || !Intl.DateTimeFormat) return;
  var lang = document.documentElement.lang || "fr";
  var format;
  try {
    // As the server writes an hour: « 04:19 » in French, "4:19 AM" in English.
    format = new Intl.DateTimeFormat(lang, { hour: lang.indexOf("fr") === 0 ? "2-digit" : "numeric", minute: "2-digit" });
  } catch (e) {
    return;
  }
  Array.prototype.forEach.call(document.querySelectorAll("time[data-local-time]"), function (el) {
    var moment = new Date(el.getAttribute("datetime") || "");
    if (!isNaN(moment)) el.textContent = format.format(moment);
  });
})();
