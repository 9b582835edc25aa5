// A round said in one line (companion/games/line.py, templates/games/_line.html): as the
// person types or dictates in « En une phrase », the server reads the line (GET
// data-read-url?q=…) and the form's fields are filled in place — nothing is saved
// until the usual button is pressed. The read-back (what was not understood, the
// questions) is drawn by the server's template, parsed and put in place (never run).
// Where the browser offers speech recognition (and the page may use the microphone), a
// microphone fills the line; elsewhere the keyboard's own dictation does. Without script, « Lire la phrase » posts the form
// and the page comes back filled.
(function () {
  "use strict";
  var box = document.getElementById("line-box");
  if (!box || !window.fetch || !window.DOMParser) return;
  var input = box.querySelector(".line-input");
  var form = box.closest("form");
  if (!input || !form) return;
  var url = box.dataset.readUrl;
  // The line is read as it is typed: its button is for a page without script.
  var button = box.querySelector(".line-read-button");
  if (button) button.hidden = true;
  var timer = null;
  var asked = 0;
  // What each field held before the line filled it: given back when the line no longer says it.
  var before = {};

  function controls(name) {
    var found = form.elements.namedItem(name);
    if (!found) return [];
    return found.length !== undefined && !found.tagName ? Array.prototype.slice.call(found) : [found];
  }

  function valueOf(list) {
    return list.map(function (el) {
      if (el.type === "radio" || el.type === "checkbox") return el.checked ? (el.value || "on") : null;
      return el.value;
    }).filter(function (v) { return v !== null; }).join("\u0000");
  }

  function put(list, value) {
    list.forEach(function (el) {
      var old = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value;
      if (el.type === "radio") el.checked = el.value === value;
      else if (el.type === "checkbox") el.checked = value !== "" && value !== null && value.split("\u0000").indexOf(el.value || "on") >= 0 || value === "y";
      else el.value = value;
      var now = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value;
      if (old !== now) {
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  function fill(fields) {
    Object.keys(before).forEach(function (name) {
      if (!(name in fields)) { put(controls(name), before[name]); delete before[name]; }
    });
    Object.keys(fields).forEach(function (name) {
      var list = controls(name);
      if (!list.length) return;
      if (!(name in before)) before[name] = valueOf(list);
      put(list, String(fields[name]));
    });
  }

  function shown(html) {
    var drawn = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    var old = document.getElementById("line-reading");
    if (drawn && old) old.replaceWith(document.adoptNode(drawn));
  }

  function read() {
    timer = null;
    var text = input.value;
    var mine = ++asked;
    if (!text.trim()) { fill({}); shown('<div class="line-reading" id="line-reading" role="status" aria-live="polite"></div>'); return; }
    fetch(url + "?q=" + encodeURIComponent(text), { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || mine !== asked) return;  // a later keystroke asked again
        fill(answer.fields || {});
        if (answer.html) shown(answer.html);
      })
      .catch(function () { /* offline: « Lire la phrase » still posts the form */ });
  }

  function soon() {
    window.clearTimeout(timer);
    timer = window.setTimeout(read, 350);
  }
  input.addEventListener("input", soon);
  // Enter in the line reads it (the form is not sent: saving is the usual button's).
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); window.clearTimeout(timer); read(); }
  });

  // The microphone, where the browser offers speech recognition and the page may use the
  // microphone (the round forms' Permissions-Policy allows it to the app itself): no audio
  // goes through Companion.
  function microphoneAllowed() {
    var policy = document.permissionsPolicy || document.featurePolicy;
    if (!policy || typeof policy.allowsFeature !== "function") return true;
    try { return policy.allowsFeature("microphone"); } catch (e) { return true; }
  }
  var Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  var mic = box.querySelector(".line-mic");
  if (!Recognition || !mic || !microphoneAllowed()) return;
  mic.hidden = false;
  var listening = null;
  mic.addEventListener("click", function () {
    if (listening) { listening.stop(); return; }
    var recognition = new Recognition();
    recognition.lang = box.dataset.speechLang || "fr-FR";
    recognition.interimResults = true;
    var start = input.value ? input.value.replace(/\s*$/, " ") : "";
    recognition.onresult = function (event) {
      var said = "";
      for (var i = 0; i < event.results.length; i++) said += event.results[i][0].transcript;
      input.value = start + said;
      soon();
    };
    var placeholder = input.placeholder;
    recognition.onend = function () {
      listening = null;
      input.placeholder = placeholder;
      mic.setAttribute("aria-pressed", "false");
      mic.classList.remove("listening");
    };
    recognition.onerror = recognition.onend;
    listening = recognition;
    mic.setAttribute("aria-pressed", "true");
    mic.classList.add("listening");
    input.placeholder = box.dataset.listening || "";  // « À l’écoute… »
    recognition.start();
  });
})();
