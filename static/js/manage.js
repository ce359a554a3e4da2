// Organiser pages: tie-breaker arrows without a reload and drag-and-drop (the vendored SortableJS), formula-specific inputs, and the result entry's
// live credits balance. Everything here only helps: the server checks every value again when saving.
(function () {
  "use strict";

  function tieBreakers(root) {
    root.querySelectorAll("ol[data-sortable]").forEach(function (list) {
      function refresh() {
        var items = list.querySelectorAll("li");
        items.forEach(function (item, index) {
          item.querySelector("[value$=':up']").disabled = index === 0;
          item.querySelector("[value$=':down']").disabled = index === items.length - 1;
        });
      }
      list.addEventListener("click", function (event) {
        var button = event.target.closest("button.arrow");
        if (!button) return;
        event.preventDefault();
        var item = button.closest("li");
        if (button.value.endsWith(":up") && item.previousElementSibling) {
          list.insertBefore(item, item.previousElementSibling);
        } else if (button.value.endsWith(":down") && item.nextElementSibling) {
          list.insertBefore(item.nextElementSibling, item);
        }
        refresh();
        button.disabled ? item.querySelector("input[type=checkbox]").focus() : button.focus();
      });
      // Dragging moves the <li>, and with it the hidden tie_order input: the form posts the new order.
      if (window.Sortable) {
        // forceFallback: pointer events rather than native drag-and-drop, the same with a mouse, a finger or a pen.
        window.Sortable.create(list, { handle: ".drag-handle", animation: 150, forceFallback: true, onEnd: refresh });
        list.querySelectorAll(".drag-handle").forEach(function (handle) { handle.hidden = false; });
        var hint = list.parentElement.querySelector(".drag-only");
        if (hint) hint.hidden = false;
      }
    });
  }

  function formulaInputs(root) {
    root.querySelectorAll("select[name=points_formula]").forEach(function (select) {
      var scope = select.closest("fieldset, details, form");
      function show() {
        scope.querySelectorAll("[data-formula]").forEach(function (box) {
          box.hidden = box.dataset.formula !== select.value;
        });
      }
      select.addEventListener("change", show);
      show();
    });
  }

  function whole(input) {
    if (!input || input.value.trim() === "") return null;
    var value = Number(input.value);
    return Number.isInteger(value) ? value : NaN;
  }

  function resultForm(form) {
    var rebuyAmount = Number(form.dataset.rebuyAmount || 0);
    var save = form.querySelector("#save-result");
    var reason = form.querySelector("#balance-reason");
    var balance = form.querySelector("#balance");
    var seats = Array.prototype.slice.call(form.querySelectorAll("[data-seat]"));
    var addSeat = form.querySelector("[data-add-seat]");

    function field(seat, name) {
      return seat.querySelector("[name$='-" + name + "']");
    }
    function mode() {
      var checked = form.querySelector("input[name=mode]:checked");
      return checked ? checked.value : "credits";
    }
    function chosen(seat) {
      var select = field(seat, "player");
      return select && select.value !== "";
    }
    function name(seat) {
      var select = field(seat, "player");
      return select.options[select.selectedIndex].text;
    }

    function verdict() {
      var rows = seats.filter(chosen);
      var current = mode();
      var names = rows.map(name);
      var twice = names.filter(function (n, i) { return names.indexOf(n) !== i; });
      var credits = 0, bad = [];
      rows.forEach(function (seat) {
        var buyIn = whole(field(seat, "buy_in")) || 0;
        var rebuys = whole(field(seat, "rebuys")) || 0;
        var rebuyCredits = whole(field(seat, "rebuy_credits"));
        var addon = whole(field(seat, "addon_credits")) || 0;
        var seatIn = buyIn + (rebuyCredits === null ? rebuys * rebuyAmount : rebuyCredits) + addon;
        if (Number.isNaN(seatIn)) bad.push(name(seat));
        credits += seatIn;
      });
      var shownIn = Number.isNaN(credits) ? "–" : credits.toLocaleString();
      if (rows.length < 2) return { ok: false, text: "Choose at least two players.", in: shownIn, out: "–" };
      if (twice.length) return { ok: false, text: twice[0] + " is chosen twice; each player sits once.", in: shownIn, out: "–" };
      if (bad.length) return { ok: false, text: "Write whole numbers of credits for " + bad.join(", ") + ".", in: "–", out: "–" };
      if (current === "replay") {
        var file = form.querySelector("input[type=file]");
        if (!file || !file.files.length) return { ok: false, text: "Choose the replay file.", in: shownIn, out: "–" };
        return { ok: true, text: "The engine plays the replay when you save; check it first with the button above.", in: shownIn, out: "from the replay" };
      }
      if (current === "order") {
        var unplaced = rows.filter(function (seat) { return whole(field(seat, "place")) === null; }).map(name);
        if (unplaced.length) return { ok: false, text: "Give a place to " + unplaced.join(", ") + ".", in: shownIn, out: "–" };
        return { ok: true, text: "Balanced: the winner ends with all " + shownIn + " credits.", in: shownIn, out: shownIn };
      }
      var missing = [], negative = [], placed = [], out = 0;
      rows.forEach(function (seat) {
        var final = whole(field(seat, "final_credits"));
        var place = whole(field(seat, "place"));
        if (final === null || Number.isNaN(final)) missing.push(name(seat));
        else {
          out += final;
          if (final < 0) negative.push(name(seat));
          if (place !== null && !Number.isNaN(place)) placed.push({ name: name(seat), final: final, place: place });
        }
      });
      if (missing.length) return { ok: false, text: "Enter the final credits of " + missing.join(", ") + ".", in: shownIn, out: out.toLocaleString() };
      if (negative.length) return { ok: false, text: "Final credits cannot be below 0: " + negative.join(", ") + ".", in: shownIn, out: out.toLocaleString() };
      // Places given by hand (for ties) must follow the credits, as the server checks: more credits, a better place.
      for (var i = 0; i < placed.length; i++) {
        for (var j = 0; j < placed.length; j++) {
          var a = placed[i], b = placed[j];
          if (a.final > b.final && a.place > b.place) {
            return { ok: false, text: a.name + " ends with more credits than " + b.name + " but is placed " + a.place + ", behind " + b.name + "'s " + b.place + ": change the places, or clear them to place players by their credits.", in: shownIn, out: out.toLocaleString() };
          }
        }
      }
      if (out !== credits) {
        var gap = Math.abs(credits - out).toLocaleString();
        var how = out < credits ? gap + " credits are missing" : gap + " credits too many";
        return { ok: false, text: "Credits do not balance: " + shownIn + " came in but " + out.toLocaleString() + " went out (" + how + ").", in: shownIn, out: out.toLocaleString() };
      }
      // Places are given for every player or for none, as the server checks (a player added to a corrected result).
      var noPlace = rows.filter(function (seat) { return whole(field(seat, "place")) === null; }).map(name);
      if (noPlace.length && noPlace.length < rows.length) {
        return { ok: false, text: "Give a place for every player or for none (places then follow final credits): " + noPlace.join(", ") + (noPlace.length > 1 ? " have none." : " has none."), in: shownIn, out: out.toLocaleString() };
      }
      return { ok: true, text: "Balanced: " + shownIn + " credits in and out.", in: shownIn, out: out.toLocaleString() };
    }

    function update() {
      var current = mode();
      form.querySelectorAll("[data-mode]").forEach(function (box) {
        box.hidden = box.dataset.mode.split(" ").indexOf(current) === -1;
      });
      var result = verdict();
      form.querySelector("[data-credits-in]").textContent = result.in;
      form.querySelector("[data-credits-out]").textContent = result.out;
      reason.textContent = result.text;
      balance.classList.toggle("balanced", result.ok);
      save.disabled = !result.ok;
    }

    // Show the chosen players and one empty line (at least two); "Add a player" shows the next.
    if (addSeat) {
      var shown = Math.max(2, seats.filter(chosen).length + 1);
      seats.forEach(function (seat, index) { seat.hidden = index >= shown && !chosen(seat); });
      addSeat.hidden = false;
      addSeat.addEventListener("click", function () {
        var next = seats.find(function (seat) { return seat.hidden; });
        if (next) {
          next.hidden = false;
          field(next, "player").focus();
        }
        addSeat.hidden = !seats.some(function (seat) { return seat.hidden; });
      });
      addSeat.hidden = !seats.some(function (seat) { return seat.hidden; });
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    // One click saves once; coming back to the page (history) makes it usable again.
    form.addEventListener("submit", function (event) {
      if (event.submitter !== save) return;
      window.setTimeout(function () { save.disabled = true; reason.textContent = "Saving…"; }, 0);
    });
    window.addEventListener("pageshow", update);
    update();
  }

  // Rules: a preset belongs to one variant, so once a variant is chosen only its group of presets can be picked
  // (a preset of another variant is dropped for the variant's first, or for the blank choice where there is one).
  function presetsByVariant(root) {
    root.querySelectorAll("form").forEach(function (form) {
      var variant = form.querySelector("select[name=variant]");
      var preset = form.querySelector("select[name=preset]");
      if (!variant || !preset || !preset.querySelector("optgroup")) return;
      function offer() {
        var chosen = variant.value ? variant.options[variant.selectedIndex].text : null;
        preset.querySelectorAll("optgroup").forEach(function (group) {
          group.disabled = chosen !== null && group.label !== chosen;
        });
        var picked = preset.options[preset.selectedIndex];
        if (picked && picked.parentElement.disabled) {
          var blank = preset.querySelector("option[value='']");
          var first = preset.querySelector("optgroup:not([disabled]) option");
          preset.value = blank ? "" : (first ? first.value : "");
        }
      }
      variant.addEventListener("change", offer);
      offer();
      // The single options too: an option of another variant is hidden (and not sent), and a choice offers only
      // the chosen variant's group. With no variant chosen (a season keeping the league's) all are shown.
      function options() {
        var chosen = variant.value;
        var label = chosen ? variant.options[variant.selectedIndex].text : null;
        form.querySelectorAll("[data-variants]").forEach(function (input) {
          var fits = !chosen || input.dataset.variants.split(" ").indexOf(chosen) !== -1;
          var box = input.closest(".field") || input;
          box.hidden = !fits;
          input.disabled = !fits;
          input.querySelectorAll("optgroup").forEach(function (group) {
            group.disabled = label !== null && group.label !== label;
          });
          var picked = input.options && input.options[input.selectedIndex];
          if (picked && picked.parentElement.disabled) input.value = "";
        });
      }
      variant.addEventListener("change", options);
      options();
    });
  }

  function init(root) {
    presetsByVariant(root);
    tieBreakers(root);
    formulaInputs(root);
    root.querySelectorAll("form[data-balance]").forEach(resultForm);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
