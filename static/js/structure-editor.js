// The structure editor: rows of levels and breaks (add, remove, move up and down, fill from a preset) written
// into the form's JSON field on every change. Without JavaScript the JSON field is the editor; either way the
// server validates the levels and explains a refusal.
(function () {
  "use strict";

  var UNITS = ["minutes", "hands", "orbits"];

  function number(value) {
    var text = String(value === undefined || value === null ? "" : value).trim();
    return /^\d+$/.test(text) ? parseInt(text, 10) : text;
  }

  function setup(root) {
    var form = root.closest("form");
    var field = form.querySelector(root.dataset.field);
    var blinds = root.dataset.blinds === "true";
    var list = root.querySelector("[data-rows]");
    var status = root.querySelector("[data-status]");
    var choice = form.querySelector("select[name=structure]");

    function levelsFromField() {
      try {
        var levels = JSON.parse(field.value || "[]");
        return Array.isArray(levels) ? levels : [];
      } catch (error) {
        return null;
      }
    }

    function cell(label, name, value, row, short) {
      var wrap = document.createElement("label");
      wrap.className = "s-cell s-" + name;
      var caption = document.createElement("span");
      caption.textContent = short || label;
      var input = document.createElement("input");
      input.name = "s_" + name;
      input.inputMode = "numeric";
      input.value = value === undefined ? "" : value;
      input.dataset.label = label;
      input.setAttribute("aria-label", label + ", row " + row);
      wrap.append(caption, input);
      return wrap;
    }

    function button(text, action, label) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button small secondary";
      b.dataset.move = action;
      b.textContent = text;
      b.setAttribute("aria-label", label);
      return b;
    }

    function rowFor(level) {
      var item = document.createElement("li");
      item.className = "s-row";
      var isBreak = !!level.is_break;
      item.dataset.kind = isBreak ? "break" : "level";
      var title = document.createElement("span");
      title.className = "s-title";
      var kind = document.createElement("select");
      kind.name = "s_kind";
      kind.setAttribute("aria-label", "Level or break");
      [["level", "Level"], ["break", "Break"]].forEach(function (pair) {
        var option = new Option(pair[1], pair[0], false, pair[0] === item.dataset.kind);
        kind.add(option);
      });
      var cells = document.createElement("div");
      cells.className = "s-cells";
      if (blinds) {
        cells.append(cell("Small blind", "small_blind", level.small_blind || 0, 0, "Small"), cell("Big blind", "big_blind", level.big_blind || 0, 0, "Big"));
      }
      cells.append(cell("Ante", "ante", level.ante || 0), cell("Length", "length", level.length || ""));
      var unit = document.createElement("select");
      unit.name = "s_unit";
      unit.setAttribute("aria-label", "Unit");
      var units = UNITS.indexOf(level.unit) >= 0 || !level.unit ? UNITS : UNITS.concat([level.unit]);
      units.forEach(function (name) { unit.add(new Option(name === "minutes" ? "min" : name, name, false, (level.unit || "minutes") === name)); });
      var unitWrap = document.createElement("label");
      unitWrap.className = "s-cell s-unit";
      var unitCaption = document.createElement("span");
      unitCaption.textContent = "Unit";
      unitWrap.append(unitCaption, unit);
      cells.append(unitWrap);
      var tools = document.createElement("div");
      tools.className = "s-tools";
      tools.append(button("↑", "up", "Move up"), button("↓", "down", "Move down"), button("✕", "remove", "Remove"));
      item.append(title, kind, cells, tools);
      return item;
    }

    function renumber() {
      var rows = list.querySelectorAll(".s-row");
      rows.forEach(function (item, index) {
        var isBreak = item.querySelector("[name=s_kind]").value === "break";
        item.dataset.kind = isBreak ? "break" : "level";
        // Rows are numbered as the server's messages number them ("Level 3: ..."), breaks included.
        item.querySelector(".s-title").textContent = index + 1 + ".";
        item.querySelector("[data-move=up]").disabled = index === 0;
        item.querySelector("[data-move=down]").disabled = index === rows.length - 1;
        item.querySelector("[data-move=remove]").setAttribute("aria-label", "Remove row " + (index + 1));
        item.querySelector("[data-move=up]").setAttribute("aria-label", "Move row " + (index + 1) + " up");
        item.querySelector("[data-move=down]").setAttribute("aria-label", "Move row " + (index + 1) + " down");
        item.querySelectorAll(".s-cell input").forEach(function (input) {
          input.setAttribute("aria-label", input.dataset.label + ", row " + (index + 1));
        });
      });
    }

    function write() {
      var levels = [];
      list.querySelectorAll(".s-row").forEach(function (item) {
        var get = function (name) {
          var input = item.querySelector("[name=s_" + name + "]");
          return input ? number(input.value) : 0;
        };
        var isBreak = item.querySelector("[name=s_kind]").value === "break";
        var level = { small_blind: get("small_blind"), big_blind: get("big_blind"), ante: get("ante"), length: get("length"), unit: item.querySelector("[name=s_unit]").value };
        if (isBreak) {
          level = { small_blind: 0, big_blind: 0, ante: 0, length: get("length"), unit: "minutes", is_break: true };
        }
        levels.push(level);
      });
      field.value = JSON.stringify(levels);
      if (choice) choice.value = "custom";
      renumber();
    }

    function render(levels) {
      list.replaceChildren.apply(list, levels.map(rowFor));
      renumber();
    }

    list.addEventListener("input", write);
    list.addEventListener("change", function (event) {
      if (event.target.name === "s_kind") {
        var item = event.target.closest(".s-row");
        item.querySelectorAll(".s-small_blind input, .s-big_blind input, .s-ante input").forEach(function (input) {
          if (event.target.value === "break") input.value = "0";
        });
        if (event.target.value === "break") item.querySelector("[name=s_unit]").value = "minutes";
      }
      write();
    });
    list.addEventListener("click", function (event) {
      var b = event.target.closest("button[data-move]");
      if (!b) return;
      var item = b.closest(".s-row");
      if (b.dataset.move === "up" && item.previousElementSibling) list.insertBefore(item, item.previousElementSibling);
      if (b.dataset.move === "down" && item.nextElementSibling) list.insertBefore(item.nextElementSibling, item);
      if (b.dataset.move === "remove") {
        var next = item.nextElementSibling || item.previousElementSibling;
        item.remove();
        if (next) next.querySelector("input").focus();
      }
      write();
      if (b.dataset.move !== "remove") (b.disabled ? item.querySelector("select") : b).focus();
    });

    root.querySelector("[data-add=level]").addEventListener("click", function () {
      var rows = list.querySelectorAll(".s-row:not([data-kind=break])");
      var last = rows.length ? rows[rows.length - 1] : null;
      var level = { small_blind: 0, big_blind: 0, ante: 0, length: 20, unit: "minutes" };
      if (last) {
        ["small_blind", "big_blind", "ante", "length"].forEach(function (name) {
          var input = last.querySelector("[name=s_" + name + "]");
          if (input) level[name] = number(input.value) * (name === "length" ? 1 : 2) || level[name];
        });
        level.unit = last.querySelector("[name=s_unit]").value;
      }
      list.append(rowFor(level));
      write();
      list.lastElementChild.querySelector("input").focus();
    });
    root.querySelector("[data-add=break]").addEventListener("click", function () {
      list.append(rowFor({ length: 10, is_break: true }));
      write();
      list.lastElementChild.querySelector("input").focus();
    });

    var presetButton = root.querySelector("[data-preset]");
    presetButton.addEventListener("click", function () {
      var stack = form.querySelector("[name=starting_stack]");
      var params = new URLSearchParams({
        duration: root.querySelector("[name=preset_duration]").value,
        starting_stack: stack ? stack.value : root.dataset.stack || "",
      });
      var players = form.querySelector("[name=expected_players]");
      if (players && players.value) params.set("players", players.value);
      status.textContent = "Working out the levels…";
      fetch(root.dataset.presetUrl + "?" + params.toString(), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
        .then(function (result) {
          if (!result.ok) { status.textContent = result.body.detail || "The preset was refused."; return; }
          render(result.body.levels);
          write();
          status.textContent = "Filled with " + result.body.levels.length + " rows: change any of them before saving.";
        })
        .catch(function () { status.textContent = "The preset could not be fetched; try again."; });
    });

    var initial = levelsFromField();
    if (initial === null) {
      status.textContent = "The JSON below could not be read: fix it there, or fill from a preset.";
      return;
    }
    if (!initial.length && root.dataset.initial) initial = JSON.parse(root.dataset.initial);
    render(initial);
    root.hidden = false;
    var fallback = form.querySelector(root.dataset.fallback);
    if (fallback) fallback.open = false;  // the JSON stays one click away, and follows the rows
    field.addEventListener("change", function () {
      var levels = levelsFromField();
      if (levels === null) { status.textContent = "The JSON could not be read: the rows above are unchanged."; return; }
      render(levels);
      if (choice) choice.value = "custom";
      status.textContent = "The rows now follow the JSON.";
    });
    form.querySelectorAll("[data-without-editor]").forEach(function (element) { element.hidden = true; });
    if (initial.length) write();
  }

  document.querySelectorAll("[data-structure-editor]").forEach(setup);
})();
