// Ladder games per hour on the activity page: one stacked bar series per ladder (Chart.js, vendored).
(function () {
  "use strict";
  const data = document.getElementById("activity-data");
  const canvas = document.getElementById("activity-chart");
  if (!data || !canvas || !window.Chart) return;
  const chart = JSON.parse(data.textContent);
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  const datasets = Object.keys(chart.series).map(function (ladder, i) {
    return {label: ladder, data: chart.series[ladder], backgroundColor: colours[i % colours.length]};
  });
  new window.Chart(canvas, {
    type: "bar",
    data: {labels: chart.labels, datasets: datasets},
    options: {
      animation: false, maintainAspectRatio: false,
      scales: {x: {stacked: true}, y: {stacked: true, beginAtZero: true, ticks: {precision: 0},
                                       title: {display: true, text: window.gettext("games")}}},
    },
  });
})();
