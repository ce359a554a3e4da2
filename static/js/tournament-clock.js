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
    setText("time_left", clockText(data.seconds_left));
    setText("players_left", projector ? String(data.players_left) : data.players_left + " of " + data.entries);
    setText("average_stack", data.average_stack.toLocaleString("en"));
    setText("prize_pool", data.prize_pool.toLocaleString("en") + (projector ? "" : " credits"));
    document.querySelectorAll("[data-clock-payouts]").forEach(function (list) {
      const text = data.payouts.join(",");
      if (list.dataset.shown === text) return;
      list.dataset.shown = text;
      list.replaceChildren.apply(list, data.payouts.map(function (amount, index) {
        const item = document.createElement("li");
        const place = document.createElement("span");
        place.className = "p-place";
        place.textContent = ordinal(index + 1);
        item.append(place, " " + amount.toLocaleString("en"));
        return item;
      }));
    });
    document.querySelectorAll('[data-clock="paused"]').forEach(function (el) { el.hidden = !data.paused; });
    document.documentElement.dataset.clockLevel = key;
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) show(data); })
      .catch(function () { /* offline for a moment: the next poll catches up */ })
      .finally(function () { window.setTimeout(poll, 1000); });
  }
  poll();
})();
