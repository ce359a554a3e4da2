// Asks before an irreversible action: a button or form with data-confirm="..." opens a small dialog (Cancel is
// focused first); only "Yes" sends the form, to whichever handler would have had it. "{player}" in the text
// becomes the chosen option of the form's field of that name. Without JavaScript the form is sent as it is.
(function () {
  "use strict";

  var dialog;

  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "confirm";
    dialog.setAttribute("aria-labelledby", "confirm-text");
    dialog.innerHTML =
      '<form method="dialog"><p id="confirm-text"></p><p class="actions">' +
      '<button class="button secondary" value="cancel" autofocus>Cancel</button> ' +
      '<button class="button" value="yes" data-confirm-yes></button></p></form>';
    document.body.append(dialog);
    return dialog;
  }

  function fill(text, form) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      var field = form.elements[name];
      if (!field) return whole;
      if (field.tagName === "SELECT") return field.selectedIndex >= 0 ? field.options[field.selectedIndex].text : "";
      return field.value;
    });
  }

  window.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var submitter = event.submitter;
      var source = submitter && submitter.hasAttribute("data-confirm") ? submitter : form.hasAttribute("data-confirm") ? form : null;
      if (!source) return;
      if (form.dataset.confirmed === "yes") {
        delete form.dataset.confirmed;
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      var box = dialog || build();
      box.querySelector("#confirm-text").textContent = fill(source.dataset.confirm, form);
      box.querySelector("[data-confirm-yes]").textContent = source.dataset.confirmYes || "Yes, " + (submitter ? submitter.textContent.trim() : "go ahead").replace(/^./, function (c) { return c.toLowerCase(); });
      box.returnValue = "";
      box.onclose = function () {
        if (box.returnValue !== "yes") return;
        form.dataset.confirmed = "yes";
        if (submitter) form.requestSubmit(submitter);
        else form.requestSubmit();
      };
      box.showModal();
    },
    true
  );
})();
