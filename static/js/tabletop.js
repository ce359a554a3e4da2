// A real-cards table, live: each server-sent event carries this viewer's table, rendered by the server; a
// reconnecting browser sends the last version it had (Last-Event-ID) and catches up at once.
(function () {
  "use strict";
  var box = document.getElementById("tabletop");
  // A refused step (400, 403, 409) comes back as the table with the refusal in it: show it like any answer.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target === box && event.detail.xhr.status >= 400 && event.detail.xhr.status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  var status = document.getElementById("tt-live");
  if (!box || !window.EventSource) {
    if (status) status.textContent = "Live updates are off: reload to see the table now.";
    return;
  }
  function version() {
    var inner = box.querySelector(".tt");
    return inner ? inner.getAttribute("data-version") : "";
  }
  var source = new EventSource(box.getAttribute("data-events") + "?since=" + encodeURIComponent(version()));
  source.addEventListener("open", function () { if (status) status.textContent = "Live"; });
  source.addEventListener("error", function () { if (status) status.textContent = "Reconnecting…"; });
  source.addEventListener("state", function (event) {
    var data = JSON.parse(event.data);
    if (!data.html || String(data.version) === version()) return;
    // Keep what the viewer is typing or ticking: a change elsewhere re-renders only when no form is busy.
    var busy = box.contains(document.activeElement) && document.activeElement.matches("input[type=number], input[type=text], input:not([type])");
    if (busy) { if (status) status.textContent = "Live (the table moved on: finish or reload)"; return; }
    box.innerHTML = data.html;
    if (window.htmx) window.htmx.process(box);
  });
})();
