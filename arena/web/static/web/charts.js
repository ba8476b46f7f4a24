// Rating history on the bot page: one line per ladder with its 95 % interval as a band (Chart.js, vendored).
(function () {
  "use strict";
  const data = document.getElementById("rating-history");
  const canvas = document.getElementById("rating-chart");
  if (!data || !canvas || !window.Chart) return;
  const history = JSON.parse(data.textContent);
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  const datasets = [];
  Object.keys(history).forEach(function (ladder, i) {
    const colour = colours[i % colours.length];
    const points = history[ladder];
    // A point is [rated games, rating, 95 % low, 95 % high, version number].
    datasets.push({label: ladder + " (95 % low)", data: points.map(p => ({x: p[0], y: p[2]})), borderWidth: 0,
                   pointRadius: 0, fill: false, backgroundColor: colour + "22"});
    datasets.push({label: ladder + " (95 % high)", data: points.map(p => ({x: p[0], y: p[3]})), borderWidth: 0,
                   pointRadius: 0, fill: "-1", backgroundColor: colour + "22"});
    datasets.push({label: ladder, data: points.map(p => ({x: p[0], y: p[1], v: p[4], lo: p[2], hi: p[3]})), borderColor: colour,
                   backgroundColor: colour, borderWidth: 2, pointRadius: points.length > 60 ? 0 : 2, fill: false});
  });
  new window.Chart(canvas, {
    type: "line",
    data: {datasets: datasets},
    options: {
      animation: false, parsing: true, maintainAspectRatio: false,
      scales: {x: {type: "linear", ticks: {precision: 0}, title: {display: true, text: "rated games"}},
               y: {title: {display: true, text: "rating"}}},
      plugins: {
        legend: {labels: {filter: item => !item.text.includes("95 %")}},
        tooltip: {filter: item => !item.dataset.label.includes("95 %"),
                  callbacks: {label: ctx => ctx.dataset.label + ": " + Math.round(ctx.parsed.y) + " (" +
                              Math.round(ctx.raw.lo) + "–" + Math.round(ctx.raw.hi) + ", v" + ctx.raw.v + ")"}},
      },
    },
  });
})();
