// Tap-to-order list (templates/_widgets.html, tap_order): tap the choices in order and
// each gets its number; a second tap takes it out and the ones after move up. Once as
// many are chosen as may be (data-most, the engine's bound, else one per field), a tap
// on one more is refused: the reason the page wrote (.tap-order-full, a live region) is
// said again and shown as an error; nothing is decided here.
// « Échanger deux joueurs » (.tap-order-swap, a toggle): the next two taps swap those
// two choices' places (one left out takes the other's place); .tap-order-said (a live
// region) says what to tap and what was done, in the page's words (the button's data-).
// Only an enhancement: without script the form's own fields (one select or input per
// position) are the form. The script hides them and fills them from the taps, so the
// server reads exactly what it reads without script.
//
// It enhances the page when it loads, and any new content another script puts in it
// (static/watch.js, "companion:content"): a list is enhanced once.
(function () {
  "use strict";

  function fill(text, values) {
    return (text || "").replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : all;
    });
  }

  function enhance(widget) {
    if (widget.dataset.tapReady) return;
    widget.dataset.tapReady = "1";
    var taps = widget.querySelector(".tap-order-taps");
    var fallback = widget.querySelector(".tap-order-fallback");
    var full = widget.querySelector(".tap-order-full");
    var swap = widget.querySelector(".tap-order-swap");
    var said = widget.querySelector(".tap-order-said");
    var slots = Array.prototype.slice.call(fallback.querySelectorAll("select, input"));
    var buttons = Array.prototype.slice.call(taps.querySelectorAll("button[data-value]"));
    if (!slots.length || !buttons.length) return;
    var known = {};
    var labels = {};
    buttons.forEach(function (b) {
      known[b.dataset.value] = true;
      labels[b.dataset.value] = b.querySelector(".tap-order-label").textContent.trim();
    });
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
    function read() {
      order = [];
      slots.forEach(function (slot) {
        if (slot.value && known[slot.value] && order.indexOf(slot.value) < 0) order.push(slot.value);
      });
    }
    read();
    // Swapping: whether the toggle is on, and the first of the two choices once tapped.
    var swapping = false;
    var first = null;

    function say(text) {
      if (said) said.textContent = text || "";
    }

    function render() {
      slots.forEach(function (slot, i) { slot.value = order[i] || ""; });
      var isFull = order.length >= limit;
      buttons.forEach(function (b) {
        var at = order.indexOf(b.dataset.value);
        b.setAttribute("aria-pressed", String(at >= 0));
        b.querySelector(".tap-order-no").textContent = at >= 0 ? String(at + 1) : "";
        b.querySelector(".tap-order-where").textContent = at >= 0 ? ", " + names[at] : "";
        // Still tappable, so that a tap too many is told why (a disabled button says nothing).
        b.setAttribute("aria-disabled", String(at < 0 && isFull && !swapping));
        b.classList.toggle("tap-order-first", swapping && b.dataset.value === first);
      });
      if (full) {
        full.hidden = swapping || !isFull || buttons.length <= limit;
        if (full.hidden) full.classList.remove("error");
      }
      if (swap) {
        swap.hidden = !swapping && (order.length < 1 || buttons.length < 2);
        swap.setAttribute("aria-pressed", String(swapping));
      }
      widget.classList.toggle("tap-order-swapping", swapping);
    }

    // One tap too many: the reason, said again (a live region speaks a change) and in red.
    function refuse() {
      if (!full) return;
      full.hidden = false;
      full.classList.add("error");
      full.textContent = "";
      window.setTimeout(function () { full.textContent = fullText; }, 60);
    }

    function stopSwapping(text) {
      swapping = false;
      first = null;
      render();
      say(text);
    }

    // The second tap of a swap: the two choices change places; one left out takes the
    // place of the other, which is left out.
    function swapWith(value) {
      var a = order.indexOf(first);
      var b = order.indexOf(value);
      var words = { a: labels[first], b: labels[value] };
      if (a < 0 && b < 0) {
        first = null;
        render();
        say(fill(swap.dataset.none, words));
        return;
      }
      if (a >= 0) order[a] = value;
      if (b >= 0) order[b] = first;
      stopSwapping(fill(swap.dataset.swapped, words));
    }

    // The fields filled by another script (a round said in one line, static/line.js):
    // the taps follow them.
    fallback.addEventListener("change", function () {
      read();
      swapping = false;
      first = null;
      render();
    });

    if (swap) {
      swap.addEventListener("click", function () {
        if (swapping) return stopSwapping(swap.dataset.stopped);
        swapping = true;
        first = null;
        render();
        say(swap.dataset.first);
      });
    }

    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var value = b.dataset.value;
        if (swapping) {
          if (first === null) {
            first = value;
            render();
            say(fill(swap.dataset.second, { name: labels[value] }));
          } else if (first === value) {
            first = null;
            render();
            say(swap.dataset.first);
          } else {
            swapWith(value);
          }
          return;
        }
        var at = order.indexOf(value);
        if (at >= 0) order.splice(at, 1);
        else if (order.length < limit) order.push(value);
        else return refuse();
        say("");
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
