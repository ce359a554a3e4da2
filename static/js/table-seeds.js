// The seed page: hash each revealed server seed in the browser (SHA-256) and compare it with the commitment
// published before the hand, so the check does not rest on the server's word.
(function () {
  "use strict";
  const table = document.getElementById("seeds");
  if (!table || table.dataset.verify !== "1" || !(window.crypto && window.crypto.subtle)) return;
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  table.querySelectorAll("tbody tr").forEach(async (row) => {
    const seed = row.dataset.serverSeed;
    const out = row.querySelector("[data-browser-check]");
    if (!seed || !out) return;
    const digest = hex(await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed)));
    const ok = digest === row.dataset.commitment;
    out.textContent = ok ? "✓ your browser agrees" : "✗ your browser's hash differs";
    row.dataset.browserChecked = ok ? "ok" : "bad";
  });
})();
