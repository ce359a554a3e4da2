// A real-cards table, live: each server-sent event carries this viewer's table, rendered by the server; a
// reconnecting browser sends the last version it had (Last-Event-ID) and catches up at once.
(function () {
  "use strict";
  var box = document.getElementById("tabletop");
  var status = document.getElementById("tt-live");
  if (!box) return;
  if (status) status.hidden = false; // shown only where this script runs: without it the page says so
  // A refused step (400, 403, 409) comes back as the table with the refusal in it: show it like any answer.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target === box && event.detail.xhr.status >= 400 && event.detail.xhr.status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  if (!window.EventSource) {
    if (status) status.textContent = "Live updates are off: reload to see the table now.";
    return;
  }
  function attr(name) {
    var inner = box.querySelector(".tt");
    return inner ? inner.getAttribute(name) : "";
  }
  // A hand-over QR code the host has open stays open through every re-render while a friend scans it, and so
  // does a confirmation step ("End the game…") the host has opened.
  function openHandovers() {
    return Array.prototype.map.call(box.querySelectorAll("details[data-seat][open], details[data-keep][open]"), function (d) {
      return d.hasAttribute("data-seat") ? '[data-seat="' + d.getAttribute("data-seat") + '"]' : '[data-keep="' + d.getAttribute("data-keep") + '"]';
    });
  }
  function reopen(keys) {
    keys.forEach(function (key) {
      var again = box.querySelector("details" + key);
      if (again) again.open = true;
    });
  }
  var kept = [];
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target === box) kept = openHandovers();
  });
  var source = null;
  var seat = attr("data-you");
  function connect() {
    if (source) source.close();
    source = new EventSource(box.getAttribute("data-events") + "?since=" + encodeURIComponent(attr("data-version")));
    source.addEventListener("open", function () { if (status) status.textContent = "Live"; });
    source.addEventListener("error", function () { if (status) status.textContent = "Reconnecting…"; });
    source.addEventListener("state", function (event) {
      var data = JSON.parse(event.data);
      if (!data.html || String(data.version) === attr("data-version")) return;
      // Keep what the viewer is typing: a change elsewhere waits until they have sent it (or reload).
      var active = document.activeElement;
      if (box.contains(active) && active.matches("input[type=number], input[type=text], input:not([type])") && active.value) {
        if (status) status.textContent = "Live (the table moved on: finish or reload)";
        return;
      }
      var shown = openHandovers();
      box.innerHTML = data.html;
      reopen(shown);
      if (window.htmx) window.htmx.process(box);
    });
  }
  connect();
  // Taking a seat makes this browser a player: its stream, opened before, renders for a spectator, so reopen it.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === box) reopen(kept);
    if (event.detail.target === box && attr("data-you") !== seat) {
      seat = attr("data-you");
      connect();
    }
  });
})();
