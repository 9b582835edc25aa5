// Tap-to-order list (templates/_widgets.html, tap_order): tap the choices in order and
// each gets its number; a second tap takes it out and the ones after move up. Once as
// many are chosen as may be (data-most, the engine's bound, else one per field), a tap
// on one more is refused: the reason the page wrote (.tap-order-full, a live region) is
// said again and shown as an error; nothing is decided here.
// Only an enhancement: without script the form's own fields (one select or input per
// position) are the form. The script hides them and fills them from the taps, so the
// server reads exactly what it reads without script.
//
// It enhances the page when it loads, and any new content another script puts in it
// (static/watch.js, "companion:content"): a list is enhanced once.
(function () {
  "use strict";

  function enhance(widget) {
    if (widget.dataset.tapReady) return;
    widget.dataset.tapReady = "1";
    var taps = widget.querySelector(".tap-order-taps");
    var fallback = widget.querySelector(".tap-order-fallback");
    var full = widget.querySelector(".tap-order-full");
    var slots = Array.prototype.slice.call(fallback.querySelectorAll("select, input"));
    var buttons = Array.prototype.slice.call(taps.querySelectorAll("button[data-value]"));
    if (!slots.length || !buttons.length) return;
    var known = {};
    buttons.forEach(function (b) { known[b.dataset.value] = true; });
    var most = parseInt(widget.dataset.most || "", 10);
    var limit = most > 0 ? Math.min(most, slots.length) : slots.length;
    var fullText = full ? full.textContent : "";
    // What each position is called ("Seat 1"…): its field's label.
    var names = slots.map(function (slot, i) {
      var label = slot.id && fallback.querySelector("label[for='" + slot.id + "']");
      return label ? label.textContent.trim() : String(i + 1);
    });

    // Start from what the fields hold (a form sent back with an error, the back button).
    var order = [];
    slots.forEach(function (slot) {
      if (slot.value && known[slot.value] && order.indexOf(slot.value) < 0) order.push(slot.value);
    });

    function render() {
      slots.forEach(function (slot, i) { slot.value = order[i] || ""; });
      var isFull = order.length >= limit;
      buttons.forEach(function (b) {
        var at = order.indexOf(b.dataset.value);
        b.setAttribute("aria-pressed", String(at >= 0));
        b.querySelector(".tap-order-no").textContent = at >= 0 ? String(at + 1) : "";
        b.querySelector(".tap-order-where").textContent = at >= 0 ? ", " + names[at] : "";
        // Still tappable, so that a tap too many is told why (a disabled button says nothing).
        b.setAttribute("aria-disabled", String(at < 0 && isFull));
      });
      if (full) {
        full.hidden = !isFull || buttons.length <= limit;
        if (full.hidden) full.classList.remove("error");
      }
    }

    // One tap too many: the reason, said again (a live region speaks a change) and in red.
    function refuse() {
      if (!full) return;
      full.hidden = false;
      full.classList.add("error");
      full.textContent = "";
      window.setTimeout(function () { full.textContent = fullText; }, 60);
    }

    // The fields filled by another script (a round said in one line, static/line.js):
    // the taps follow them.
    fallback.addEventListener("change", function () {
      order = [];
      slots.forEach(function (slot) {
        if (slot.value && known[slot.value] && order.indexOf(slot.value) < 0) order.push(slot.value);
      });
      render();
    });

    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var at = order.indexOf(b.dataset.value);
        if (at >= 0) order.splice(at, 1);
        else if (order.length < limit) order.push(b.dataset.value);
        else return refuse();
        render();
      });
    });
    render();
    // A field's error (a player removed meanwhile…) stays in sight once the fields are hidden.
    Array.prototype.forEach.call(fallback.querySelectorAll(".error"), function (error) {
      var copy = error.cloneNode(true);
      copy.removeAttribute("id");
      taps.insertBefore(copy, taps.firstChild);
    });
    fallback.hidden = true;
    taps.hidden = false;
  }

  function init(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-tap-order]"), enhance);
  }

  init(document);
  document.addEventListener("companion:content", function (event) { init(event.detail.root); });
})();
