// A refused form's summary (templates/_form_errors.html) takes the focus when the page opens: it scrolls into view
// on a long page (the event page's forms are far down on a phone) and a screen reader reads what to fix first.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var summary = document.getElementById("error-summary");
    if (summary) summary.focus();
  });
})();
