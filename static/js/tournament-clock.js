// The tournament clock on every page that shows it: asks the server's clock API each second (the server is the
// one source of time) and fills the [data-clock] fields; on a new level, the page flashes (and beeps if asked).
(function () {
  "use strict";
  const root = document.querySelector("[data-clock-url]");
  if (!root) return;
  const url = root.getAttribute("data-clock-url");
  const projector = root.hasAttribute("data-projector");
  let last = null;

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    const m = Math.floor(seconds / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return projector ? m + ":" + s : m + " min " + s + " s";
  }

  function ordinal(n) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n + suffix;
  }

  function setText(name, text) {
    document.querySelectorAll('[data-clock="' + name + '"]').forEach(function (el) {
      if (el.textContent !== text) el.textContent = text;
    });
  }

  function beep() {
    const box = document.querySelector("[data-clock-sound]");
    if (!box || !box.checked) return;
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      const audio = new Context();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (err) {
      /* no audio on this device: the flash is enough */
    }
  }

  function flash() {
    document.body.classList.remove("clock-flash");
    void document.body.offsetWidth;
    document.body.classList.add("clock-flash");
    beep();
  }

  function show(data) {
    const key = data.level_number + ":" + data.epoch;
    if (last !== null && key !== last) flash();
    last = key;
    setText("level_number", data.level_number === null ? (projector ? "–" : "not started") : String(data.level_number));
    setText("level_label", data.level_label || (projector ? "The clock has not started" : ""));
    setText("next_level_label", data.next_level_label || "–");
    setText("time_left", data.finished ? (projector ? "Finished" : "stopped: the tournament is finished") : clockText(data.seconds_left));
    // A word in the projector's big clock takes a smaller size than digits, so "Finished" fits a phone's width.
    document.querySelectorAll(".p-time").forEach(function (el) { el.classList.toggle("p-word", !!data.finished); });
    setText("players_left", projector ? String(data.players_left) : data.players_left + " of " + data.entries);
    setText("average_stack", data.average_stack === null ? "–" : data.average_stack.toLocaleString("en"));
    setText("average_note", data.average_note || "");
    setText(
      "chip_leader",
      data.chip_leader ? data.chip_leader.name + " · " + data.chip_leader.stack.toLocaleString("en") : "–"
    );
    setText("prize_pool", data.prize_pool.toLocaleString("en") + (projector ? "" : " credits"));
    // Once booked, the prizes with who got them (shared places each with their share); before, the projection.
    const rows = data.payouts_booked
      ? (data.prizes || []).map(function (row) { return [row.place, row.name + " · " + row.prize.toLocaleString("en")]; })
      : data.payouts.map(function (amount, index) { return [index + 1, amount.toLocaleString("en")]; });
    setText("payouts_label", data.payouts_label || "");
    document.querySelectorAll('[data-clock="payouts_label"]').forEach(function (el) { el.hidden = !rows.length; });
    document.querySelectorAll("[data-clock-payouts]").forEach(function (list) {
      const text = JSON.stringify(rows);
      if (list.dataset.shown === text) return;
      list.dataset.shown = text;
      list.setAttribute("aria-label", data.payouts_label || "Payouts");
      list.replaceChildren.apply(list, rows.map(function (row) {
        const item = document.createElement("li");
        const place = document.createElement("span");
        place.className = "p-place";
        place.textContent = ordinal(row[0]);
        item.append(place, " " + row[1]);
        return item;
      }));
    });
    document.querySelectorAll('[data-clock="paused"]').forEach(function (el) { el.hidden = !data.paused; });
    document.documentElement.dataset.clockLevel = key;
  }

  // Between messages the page counts the seconds down itself, from the server's last word.
  let base = null;
  let receivedAt = 0;
  function receive(data) {
    base = data;
    receivedAt = Date.now();
    show(data);
  }
  window.setInterval(function () {
    if (!base || base.paused || base.finished || base.seconds_left === null) return;
    const left = Math.max(0, base.seconds_left - Math.floor((Date.now() - receivedAt) / 1000));
    setText("time_left", clockText(left));
    if (left === 0) poll(false); // the level is due: ask the server for the new one
  }, 1000);

  function poll(again) {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) receive(data); })
      .catch(function () { /* offline for a moment: the next poll or message catches up */ })
      .finally(function () { if (again) window.setTimeout(function () { poll(true); }, again); });
  }

  const eventsUrl = root.getAttribute("data-clock-events-url");
  if (eventsUrl && window.EventSource) {
    // Live: the server sends the clock whenever it changes (server-sent events); a slow poll is the safety net.
    const source = new EventSource(eventsUrl);
    source.addEventListener("state", function (event) {
      try { receive(JSON.parse(event.data)); } catch (err) { /* a broken message: the next one or the poll fixes it */ }
    });
    poll(15000);
  } else {
    poll(1000);
  }
})();
