// The table page's first-visit guide: shown until its "Got it" is pressed, remembered per variant in localStorage.
(function () {
  "use strict";
  const panel = document.querySelector("[data-first-visit]");
  if (!panel) return;
  const key = panel.dataset.firstVisit;
  let seen = false;
  try { seen = window.localStorage.getItem(key) === "dismissed"; } catch (e) { seen = false; }
  if (seen) return;
  panel.hidden = false;
  panel.querySelector("[data-first-visit-close]").addEventListener("click", function () {
    try { window.localStorage.setItem(key, "dismissed"); } catch (e) { /* private mode: shown again next time */ }
    panel.hidden = true;
  });
})();
