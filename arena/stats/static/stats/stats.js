// The statistics page's charts (Chart.js, vendored) and its sortable table. The data comes from the
// page itself (json_script "stats-data"); labels are drawn on canvas, never inserted as HTML.
(function () {
  "use strict";
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  const element = document.getElementById("stats-data");
  const data = element ? JSON.parse(element.textContent) : null;
  const pct = v => (100 * v).toFixed(1) + " %";
  const percentAxis = title => ({title: {display: true, text: title}, ticks: {callback: v => Math.round(100 * v) + " %"}});
  const interval = r => " (" + pct(r.lo) + "–" + pct(r.hi) + ", n=" + r.n + ")";
  const chart = (id, config) => {
    const canvas = document.getElementById(id);
    if (canvas && window.Chart) new window.Chart(canvas, config);
  };
  const quiet = {filter: item => !item.text.includes("95 %")};

  function trumps() {
    // A point is [trumps, rate, low, high, duraks, seat-games].
    const datasets = [];
    Object.keys(data.trumps).forEach(function (players, i) {
      const colour = colours[i % colours.length];
      const points = data.trumps[players];
      const label = players + " players";
      datasets.push({label: label + " (95 % low)", data: points.map(p => ({x: p[0], y: p[2]})), borderWidth: 0,
                     pointRadius: 0, fill: false, backgroundColor: colour + "22"});
      datasets.push({label: label + " (95 % high)", data: points.map(p => ({x: p[0], y: p[3]})), borderWidth: 0,
                     pointRadius: 0, fill: "-1", backgroundColor: colour + "22"});
      datasets.push({label: label, data: points.map(p => ({x: p[0], y: p[1], lo: p[2], hi: p[3], n: p[5]})),
                     borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 3, fill: false});
      const xs = points.map(p => p[0]);
      datasets.push({label: label + " fair share", data: [{x: Math.min(...xs), y: 1 / players}, {x: Math.max(...xs), y: 1 / players}],
                     borderColor: colour, borderDash: [5, 4], borderWidth: 1, pointRadius: 0, fill: false});
    });
    chart("chart-trumps", {
      type: "line", data: {datasets: datasets},
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {x: {type: "linear", ticks: {precision: 0, stepSize: 1}, title: {display: true, text: "trumps in the starting hand"}},
                 y: percentAxis("durak rate")},
        plugins: {legend: {labels: {filter: item => !item.text.includes("95 %") && !item.text.includes("fair")}},
                  tooltip: {filter: item => "lo" in item.raw,
                            callbacks: {label: ctx => ctx.dataset.label + ": " + pct(ctx.raw.y) + interval(ctx.raw)}}},
      },
    });
  }

  function firstAttacker() {
    // A row is [players, rate, low, high, duraks, games, fair share].
    const rows = data.first_attacker;
    chart("chart-first", {
      type: "bar",
      data: {
        labels: rows.map(r => r[0] + " players"),
        datasets: [
          {type: "line", label: "first attacker", data: rows.map(r => r[1]),
           showLine: false, pointRadius: 5, borderColor: colours[0], backgroundColor: colours[0]},
          {type: "line", label: "fair share 1/N", data: rows.map(r => r[6]), showLine: false, pointStyle: "line",
           pointRadius: 14, borderWidth: 2, borderColor: "#334155", backgroundColor: "#334155"},
          {label: "95 % interval", data: rows.map(r => [r[2], r[3]]), backgroundColor: colours[0] + "33", barPercentage: 0.35},
        ],
      },
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {y: percentAxis("durak rate")},
        plugins: {tooltip: {callbacks: {label: function (ctx) {
          const r = rows[ctx.dataIndex];
          if (ctx.datasetIndex === 0) return "first attacker: " + pct(r[1]) + interval({lo: r[2], hi: r[3], n: r[5]});
          if (ctx.datasetIndex === 1) return "fair share: " + pct(ctx.raw);
          return "95 %: " + pct(ctx.raw[0]) + "–" + pct(ctx.raw[1]);
        }}}},
      },
    });
  }

  function bouts() {
    const series = data.bouts.series;
    chart("chart-bouts", {
      type: "bar",
      data: {labels: data.bouts.labels,
             datasets: Object.keys(series).map((players, i) => ({label: players + " players", data: series[players],
                                                                  backgroundColor: colours[i % colours.length] + "bb"}))},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {title: {display: true, text: "bouts"}}, y: percentAxis("share of games")},
                plugins: {tooltip: {callbacks: {label: ctx => ctx.dataset.label + ": " + pct(ctx.raw)}}}},
    });
  }

  function draws() {
    const reasons = data.draws.reasons;
    chart("chart-draws", {
      type: "bar",
      data: {labels: data.draws.players.map(p => p + " players"),
             datasets: Object.keys(reasons).map((reason, i) => ({label: reason, data: reasons[reason],
                                                                  backgroundColor: colours[i % colours.length] + "bb"}))},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {stacked: true}, y: {...percentAxis("share of games drawn"), stacked: true}},
                plugins: {tooltip: {callbacks: {label: ctx => ctx.dataset.label + ": " + pct(ctx.raw)}}}},
    });
  }

  function duplicate() {
    // A row is [label, factor, factor low, factor high, rho, sets].
    const rows = data.duplicate;
    chart("chart-duplicate", {
      type: "bar",
      data: {
        labels: rows.map(r => r[0]),
        datasets: [
          {type: "line", label: "games needed vs independent deals", data: rows.map(r => r[1]),
           showLine: false, pointRadius: 5, borderColor: colours[0], backgroundColor: colours[0]},
          {type: "line", label: "independent deals (1×)", data: rows.map(() => 1), pointRadius: 0, borderDash: [5, 4],
           borderWidth: 1, borderColor: "#334155"},
          {label: "95 % interval", data: rows.map(r => [r[2], r[3]]), backgroundColor: colours[0] + "33", barPercentage: 0.35},
        ],
      },
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {y: {min: 0, title: {display: true, text: "games needed, × independent"}}},
        plugins: {legend: {labels: quiet}, tooltip: {callbacks: {label: function (ctx) {
          const r = rows[ctx.dataIndex];
          if (ctx.datasetIndex === 0) return r[1].toFixed(2) + "× (ρ = " + r[4].toFixed(3) + ", " + r[5] + " sets)";
          if (ctx.datasetIndex === 2) return "95 %: " + ctx.raw[0].toFixed(2) + "–" + ctx.raw[1].toFixed(2) + "×";
          return "independent: 1×";
        }}}},
      },
    });
  }

  function sortable(table) {
    const headers = Array.from(table.querySelectorAll("th[data-sort]"));
    headers.forEach(function (th) {
      th.tabIndex = 0;
      const sort = function () {
        const column = Array.from(th.parentNode.children).indexOf(th);
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(h => h.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.tBodies[0];
        const key = function (row) {
          const cell = row.children[column];
          const raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
          return th.dataset.sort === "num" ? parseFloat(raw) || 0 : raw.toLowerCase();
        };
        const rows = Array.from(body.rows).sort(function (a, b) {
          const x = key(a), y = key(b);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(row => body.appendChild(row));
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  }

  document.querySelectorAll("table.sortable").forEach(sortable);
  if (!data || !window.Chart) return;
  trumps();
  firstAttacker();
  bouts();
  draws();
  if (data.duplicate.length) duplicate();
})();
