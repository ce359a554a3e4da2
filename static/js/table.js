// The table page: swap in each rendering the server sends this viewer (event stream, or polling
// when the stream fails), count the turn clock down, post decisions, keyboard shortcuts.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const errorBox = document.getElementById("table-error");
  const statusBox = document.getElementById("live-status");
  if (statusBox) statusBox.hidden = false; // shown only where this script runs: without it the page says so
  let version = Number(root.dataset.version);
  let deadline = root.dataset.secondsLeft === "" ? null : Date.now() + 1000 * Number(root.dataset.secondsLeft);
  let source = null;
  let failures = 0;
  let pollTimer = null;

  function apply(data) {
    if (typeof data.version !== "number" || data.version < version) return;
    const changed = data.version !== version || root.dataset.rendered !== "1";
    version = data.version;
    root.dataset.version = String(version);
    root.dataset.rendered = "1";
    deadline = data.seconds_left === null || data.seconds_left === undefined ? null : Date.now() + 1000 * data.seconds_left;
    if (changed) {
      // Keep what the player was choosing (cards ticked, the amount) across a re-render for the same decision.
      const ticked = Array.from(root.querySelectorAll('input[name="cards"]:checked'), function (i) { return i.value; });
      const amount = root.querySelector("[data-amount]");
      const kept = amount ? amount.value : null;
      root.innerHTML = data.html;
      root.querySelectorAll('input[name="cards"]').forEach(function (i) { i.checked = ticked.indexOf(i.value) !== -1; });
      const slider = root.querySelector("[data-amount]");
      if (slider && kept !== null && Number(kept) >= Number(slider.min) && Number(kept) <= Number(slider.max)) {
        slider.value = kept;
        const out = root.querySelector("[data-amount-out]");
        if (out) out.textContent = kept;
      }
      bindAmount();
      contributeEntropy();
    }
    tick();
  }

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  function setStatus(text) {
    if (statusBox) statusBox.textContent = text;
  }

  function connect() {
    if (!window.EventSource) return poll();
    source = new EventSource(root.dataset.events + "?since=" + version);
    source.addEventListener("open", function () { failures = 0; setStatus("Live"); });
    source.addEventListener("state", function (event) { failures = 0; apply(JSON.parse(event.data)); });
    source.addEventListener("error", function () {
      failures += 1;
      setStatus("Reconnecting…");
      if (failures >= 4) { source.close(); poll(); }
    });
  }

  // The fallback: ask for the table every two seconds.
  function poll() {
    setStatus("Live (polling)");
    if (pollTimer) return;
    pollTimer = window.setInterval(refresh, 2000);
  }

  function refresh() {
    return fetch(root.dataset.fragment, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(apply)
      .catch(function () { setStatus("Offline: retrying"); });
  }

  function tick() {
    const clock = root.querySelector("[data-clock]");
    if (!clock) return;
    clock.textContent = deadline === null ? "" : Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) + " s left";
  }
  window.setInterval(tick, 250);

  function post(form, submitter) {
    const body = new FormData(form);
    if (submitter && submitter.name) body.set(submitter.name, submitter.value);
    const buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    return fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": root.dataset.csrf },
    })
      .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
      .then(function (answer) {
        showError(answer.ok ? "" : answer.data.detail);
        apply(answer.data);
      })
      .catch(function () { showError("The server could not be reached; try again."); })
      .finally(function () { buttons.forEach(function (b) { b.disabled = false; }); });
  }

  root.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches("[data-act-form], [data-do-form]")) return;
    event.preventDefault();
    post(form, event.submitter);
  });

  function bindAmount() {
    const slider = root.querySelector("[data-amount]");
    const out = root.querySelector("[data-amount-out]");
    if (!slider || !out) return;
    slider.addEventListener("input", function () { out.textContent = slider.value; });
    root.querySelectorAll("[data-preset]").forEach(function (button) {
      button.addEventListener("click", function () {
        slider.value = button.dataset.preset;
        out.textContent = slider.value;
      });
    });
  }
  bindAmount();

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" && target.type !== "checkbox" && target.type !== "range")) return;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const button = root.querySelector('[data-act-form] button[data-key="' + event.key.toLowerCase() + '"]');
    if (button) { event.preventDefault(); button.click(); }
  });

  // RULES 1.7: between hands, a seated player's browser adds its own randomness to the next deck; the answer's
  // rendering (the version unchanged) is swapped in, so the player sees what the server took from their browser.
  let entropySentFor = null;
  function contributeEntropy() {
    const marker = root.querySelector("[data-entropy]");
    if (!marker || !window.crypto || entropySentFor === marker.dataset.hand) return;
    entropySentFor = marker.dataset.hand;
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    const body = new FormData();
    body.set("value", Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join(""));
    fetch(marker.dataset.entropy, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": root.dataset.csrf },
    })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || data.version !== version) return;
        root.dataset.rendered = "0";
        apply(data);
      })
      .catch(function () { entropySentFor = null; });
  }

  root.dataset.rendered = "1";
  contributeEntropy();
  connect();
})();
