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

// Opening a table: a table plays its event's variant, so only that variant's rules can be chosen.
(function () {
  "use strict";
  const events = document.querySelector("[data-variant-select]");
  const presets = document.querySelector("[data-preset-select]");
  if (!events || !presets) return;
  function offer() {
    const chosen = events.options[events.selectedIndex];
    const variant = chosen ? chosen.dataset.variant : "";
    presets.querySelectorAll("optgroup").forEach(function (group) {
      const own = group.dataset.variant === variant;
      group.hidden = !own;
      group.disabled = !own;
    });
    const picked = presets.options[presets.selectedIndex];
    if (picked && picked.parentElement.disabled) presets.value = "";
  }
  events.addEventListener("change", offer);
  offer();
})();
