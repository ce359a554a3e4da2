// Charts: every <figure class="chart" data-chart="ID"> is drawn with uPlot from the JSON in <script id="ID">
// ({x, time, x_label, y_label, series: [{label, values}]}). Without JavaScript the figure's table stays.
(function () {
  "use strict";
  var COLOURS = ["#d8b24a", "#7cc4d6", "#7fd18b", "#ff8a80", "#c792ea", "#f6a85b", "#9fb4ff", "#e6e6e6"];
  var AXIS = { stroke: "#a3acbb", grid: { stroke: "#2f3747", width: 1 }, ticks: { stroke: "#2f3747", width: 1 } };

  function draw(figure) {
    var source = document.getElementById(figure.dataset.chart);
    var canvas = figure.querySelector(".chart-canvas");
    if (!source || !canvas || typeof uPlot === "undefined") return;
    var data = JSON.parse(source.textContent);
    var many = data.series.length > 1;
    var series = [{ label: data.x_label, value: data.time ? "{D} {MMM} {YYYY}" : null }];
    data.series.forEach(function (line, index) {
      series.push({
        label: line.label,
        stroke: COLOURS[index % COLOURS.length],
        width: 2,
        spanGaps: true,
        points: { show: data.x.length <= 60, size: data.x.length === 1 ? 10 : 5 },
        value: function (u, v) { return v == null ? "–" : v.toLocaleString("en"); },
      });
    });
    var options = {
      width: Math.max(200, canvas.clientWidth),
      height: Math.min(320, Math.max(200, Math.round(canvas.clientWidth * 0.55))),
      // One point (a player with one result) has no width of its own (uPlot would stretch it over years): a
      // day (or one step) either side of it.
      scales: { x: { time: !!data.time, range: function (u, min, max) {
        var pad = data.time ? 86400 : 1;
        return data.x.length === 1 ? [data.x[0] - pad, data.x[0] + pad] : [min, max];
      } } },
      axes: [
        // Time labels ("7:58pm" over "11/27/26") want more room than numbers: ticks at least 90 px apart.
        Object.assign({ label: data.x_label }, data.time ? { space: 90 } : { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }, AXIS),
        Object.assign({ label: data.y_label, size: 60, values: function (u, ticks) {
          return ticks.map(function (t) { return t.toLocaleString("en"); });
        } }, AXIS),
      ],
      series: series,
      legend: { show: true, live: many },
      cursor: { drag: { x: false, y: false } },
    };
    var values = [data.x].concat(data.series.map(function (line) { return line.values; }));
    var plot = new uPlot(options, values, canvas);
    figure.classList.add("drawn");
    var fallback = figure.querySelector(".chart-fallback");
    if (fallback) fallback.removeAttribute("open");
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(function () {
        var width = Math.max(200, canvas.clientWidth);
        if (Math.abs(width - plot.width) > 2) {
          plot.setSize({ width: width, height: Math.min(320, Math.max(200, Math.round(width * 0.55))) });
        }
      }).observe(canvas);
    }
  }

  function drawAll(root) {
    (root || document).querySelectorAll("figure.chart[data-chart]").forEach(function (figure) {
      if (!figure.classList.contains("drawn")) draw(figure);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:afterSwap", function (event) { drawAll(event.target); });
  window.sabaccCharts = { drawAll: drawAll };
})();
