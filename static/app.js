// Companion's few enhancements, on every page; without script every page still works.
(function () {
  "use strict";

  // A destructive action asks once here; without script the server shows a confirmation page.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset || !form.dataset.confirm) return;
    var flag = form.querySelector("input[name=confirmed]");
    if (flag && flag.value === "1") return;
    if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); return; }
    if (!flag) {
      flag = document.createElement("input");
      flag.type = "hidden"; flag.name = "confirmed";
      form.appendChild(flag);
    }
    flag.value = "1";
  });

  // A form that failed opens on its summary of what to fix.
  var summary = document.getElementById("error-summary");
  if (summary) summary.focus();

  // The screen stays awake while a game is open (where the browser can: Wake Lock).
  if (document.body.dataset.wake && "wakeLock" in navigator) {
    var lock = null;
    var ask = function () {
      if (document.visibilityState !== "visible" || lock) return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        lock.addEventListener("release", function () { lock = null; });
      }).catch(function () { /* refused (battery saver…): nothing breaks */ });
    };
    document.addEventListener("visibilitychange", ask);
    ask();
  }
})();
