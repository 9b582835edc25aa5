// The live play-by-play (templates/referee/live.html): every few seconds, ask the server
// whether the table changed (a token, answered 304 while it is the page's), and show
// the new table when another device moved. Only an enhancement: without script the
// page has a « Rafraîchir » link, and every move is a plain form.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.dataset.stateUrl || !window.fetch) return;
  var token = live.dataset.token;
  var EVERY = 2500;
  // Something typed or chosen in a form, or a page that kept what was typed (a refused
  // move): the page is not replaced under the player's fingers; it says so instead.
  var touched = live.dataset.kept === "1";
  live.addEventListener("input", function () { touched = true; });
  live.addEventListener("change", function () { touched = true; });
  var notice = null;

  function showNew() {
    var here = window.location.pathname === live.dataset.url;
    if (!touched) {
      if (here) window.location.reload();
      else window.location.replace(live.dataset.url + "#turn");
      return;
    }
    if (notice) return;
    notice = document.createElement("p");
    notice.className = "flash live-changed";
    notice.setAttribute("role", "status");
    notice.appendChild(document.createTextNode(live.dataset.changed + " "));
    var link = document.createElement("a");
    link.className = "button";
    link.href = live.dataset.url + "#turn";
    link.textContent = live.dataset.refresh;
    notice.appendChild(link);
    live.insertBefore(notice, live.firstChild);
  }

  function next() { window.setTimeout(poll, EVERY); }

  function poll() {
    if (document.visibilityState === "hidden") { next(); return; }
    fetch(live.dataset.stateUrl, {
      headers: { "Accept": "application/json", "If-None-Match": "\"" + token + "\"" },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status !== 200) return null;
      return response.json();
    }).then(function (data) {
      if (data && data.token && data.token !== token) {
        showNew();
        if (touched) token = data.token;
      }
      next();
    }).catch(next);
  }

  next();
})();
