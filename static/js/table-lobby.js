// The lobby: reload the list of tables whenever one changes (server-sent events; polling otherwise).
(function () {
  "use strict";
  const lobby = document.getElementById("lobby");
  if (!lobby) return;
  function reload() {
    fetch(lobby.dataset.refresh, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) { lobby.innerHTML = html; });
  }
  if (window.EventSource) {
    let failures = 0;
    const source = new EventSource(lobby.dataset.events);
    source.addEventListener("state", function () { failures = 0; reload(); });
    source.addEventListener("error", function () {
      failures += 1;
      if (failures >= 4) { source.close(); window.setInterval(reload, 5000); }
    });
  } else {
    window.setInterval(reload, 5000);
  }
})();
