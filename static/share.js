// Sharing an image the server draws (templates/_share.html): where the phone can share
// files (navigator.canShare({files})), a tap on the link opens its share sheet with the
// PNG; elsewhere the link downloads it as it does without JavaScript. The image is
// fetched when a finger (or the focus) reaches the link, so that the share itself
// still follows the tap (browsers share only in answer to one).
(function () {
  "use strict";
  if (!navigator.canShare || !navigator.share || !window.File || !window.fetch) return;

  var fetched = new WeakMap();

  function linkOf(event) {
    var target = event.target;
    return target && target.closest ? target.closest("a[data-share-image]") : null;
  }

  function fileFor(link) {
    var kept = fetched.get(link);
    if (!kept) {
      kept = fetch(link.href, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.blob();
        })
        .then(function (blob) {
          var file = new File([blob], link.getAttribute("download") || "companion.png", { type: "image/png" });
          kept.file = file;
          return file;
        });
      kept.catch(function () { fetched.delete(link); });
      fetched.set(link, kept);
    }
    return kept;
  }

  function download(link) {
    link.dataset.shareDownload = "1";
    link.click();
  }

  function share(link, file) {
    if (!navigator.canShare({ files: [file] })) return download(link);
    navigator.share({ files: [file], title: link.dataset.shareTitle || "" }).catch(function (error) {
      if (error && error.name !== "AbortError") download(link);
    });
  }

  ["pointerdown", "touchstart", "focusin", "mouseover"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var link = linkOf(event);
      if (link) fileFor(link).catch(function () {});
    }, { passive: true });
  });

  document.addEventListener("click", function (event) {
    var link = linkOf(event);
    if (!link) return;
    if (link.dataset.shareDownload) {  // the fallback's own click: let the link download
      delete link.dataset.shareDownload;
      return;
    }
    event.preventDefault();
    var kept = fileFor(link);
    if (kept.file) {
      share(link, kept.file);  // ready: shared in the tap itself
    } else {
      kept.then(function (file) { share(link, file); }, function () { download(link); });
    }
  });
})();
