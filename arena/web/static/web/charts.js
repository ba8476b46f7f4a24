// Rating history on the bot page: one chart per ladder (ratings on two ladders are not on one scale, nor are
// their game counts), the rating as a line and its 95 % interval as a band (Chart.js, vendored).
(function () {
  "use strict";
  const data = document.getElementById("rating-history");
  if (!data || !window.Chart) return;
  const history = JSON.parse(data.textContent);
  const fmt = (text, values) => window.interpolate(text, values, true);
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  document.querySelectorAll("canvas.rating-chart[data-ladder]").forEach(function (canvas, i) {
    const ladder = canvas.dataset.ladder;
    const title = canvas.dataset.title || ladder;  // the ladder in the reader's words
    const points = history[ladder] || [];
    const colour = colours[i % colours.length];
    // A point is [rated games, rating, 95 % low, 95 % high, version number].
    const datasets = [
      {label: "95 % low", data: points.map(p => ({x: p[0], y: p[2]})), borderWidth: 0, pointRadius: 0, fill: false,
       backgroundColor: colour + "22"},
      {label: "95 % high", data: points.map(p => ({x: p[0], y: p[3]})), borderWidth: 0, pointRadius: 0, fill: "-1",
       backgroundColor: colour + "22"},
      {label: title, data: points.map(p => ({x: p[0], y: p[1], v: p[4], lo: p[2], hi: p[3]})), borderColor: colour,
       backgroundColor: colour, borderWidth: 2, pointRadius: points.length > 60 ? 0 : 2, fill: false},
    ];
    new window.Chart(canvas, {
      type: "line",
      data: {datasets: datasets},
      options: {
        animation: false, parsing: true, maintainAspectRatio: false,
        scales: {x: {type: "linear", ticks: {precision: 0},
                     title: {display: true, text: fmt(window.gettext("rated games on %(ladder)s"), {ladder: title})}},
                 y: {title: {display: true, text: window.gettext("rating")}}},
        plugins: {
          legend: {display: false},
          tooltip: {filter: item => !item.dataset.label.includes("95 %"),
                    callbacks: {label: ctx => fmt(window.gettext("rating %(rating)s (%(low)s–%(high)s, v%(version)s)"), {
                      rating: Math.round(ctx.parsed.y), low: Math.round(ctx.raw.lo), high: Math.round(ctx.raw.hi),
                      version: ctx.raw.v})}},
        },
      },
    });
  });
})();
