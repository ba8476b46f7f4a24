// The statistics page's charts (Chart.js, vendored) and its sortable table. The data comes from the
// page itself (json_script "stats-data"); labels are drawn on canvas, never inserted as HTML.
(function () {
  "use strict";
  // Words go through Django's JavaScript catalog (jsi18n, loaded by the base template).
  const _ = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);
  const playersText = n => fmt(window.ngettext("%(n)s player", "%(n)s players", Number(n)), {n});
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  const element = document.getElementById("stats-data");
  const data = element ? JSON.parse(element.textContent) : null;
  const pct = v => (100 * v).toFixed(1) + " %";
  const percentAxis = title => ({title: {display: true, text: title}, ticks: {callback: v => Math.round(100 * v) + " %"}});
  const interval = r => " (" + pct(r.lo) + "–" + pct(r.hi) + ", n=" + r.n + ")";
  const chart = (id, config) => {
    const canvas = document.getElementById(id);
    if (!canvas || !window.Chart) return;
    if (!config.data.datasets.some(d => d.data.some(v => v !== null && v !== 0))) {
      // an empty chart says why instead of drawing bare axes (its data-empty, written for that chart)
      const note = document.createElement("p");
      note.className = "muted chart-empty";
      note.textContent = canvas.dataset.empty || _("Not enough games for this chart yet.");
      canvas.parentElement.replaceWith(note);
      return;
    }
    new window.Chart(canvas, config);
  };
  // Bands and fair-share lines (aux) are explained by the page, not listed in the legend.
  const quiet = {filter: (item, d) => !d.datasets[item.datasetIndex].aux};

  function byTrumps(id, lines, name, fair, xTitle, yTitle) {
    // One line per key of `lines`; a point is [trumps, rate, low, high, hits, trials]; fair(key) is its fair share.
    const datasets = [];
    Object.keys(lines).forEach(function (key, i) {
      const colour = colours[i % colours.length];
      const points = lines[key];
      const label = name(key);
      datasets.push({label: label + " (95 % low)", aux: true, data: points.map(p => ({x: p[0], y: p[2]})), borderWidth: 0,
                     pointRadius: 0, fill: false, backgroundColor: colour + "22"});
      datasets.push({label: label + " (95 % high)", aux: true, data: points.map(p => ({x: p[0], y: p[3]})), borderWidth: 0,
                     pointRadius: 0, fill: "-1", backgroundColor: colour + "22"});
      datasets.push({label: label, data: points.map(p => ({x: p[0], y: p[1], lo: p[2], hi: p[3], n: p[5]})),
                     borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 3, fill: false});
      const xs = points.map(p => p[0]);
      datasets.push({label: fmt(_("%(line)s, fair share"), {line: label}), aux: true, data: [{x: Math.min(...xs), y: fair(key)}, {x: Math.max(...xs), y: fair(key)}],
                     borderColor: colour, borderDash: [5, 4], borderWidth: 1, pointRadius: 0, fill: false});
    });
    chart(id, {
      type: "line", data: {datasets: datasets},
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {x: {type: "linear", ticks: {precision: 0, stepSize: 1}, title: {display: true, text: xTitle}},
                 y: percentAxis(yTitle)},
        plugins: {legend: {labels: quiet},
                  tooltip: {filter: item => "lo" in item.raw,
                            callbacks: {label: ctx => ctx.dataset.label + ": " + pct(ctx.raw.y) + interval(ctx.raw)}}},
      },
    });
  }

  function whiskers(id, labels, series, fair, yTitle) {
    // Rates with their 95 % intervals as whiskers, side by side per label, and the fair share as a dashed tick.
    // A series is {label, points: [[rate, low, high, hits, trials], ...]} (one point per label).
    const datasets = [];
    const gap = null;  // a point with y null breaks a line: one dataset draws every whisker
    series.forEach(function (s, i) {
      const colour = colours[i % colours.length];
      const at = j => j + (series.length > 1 ? 0.3 * (i / (series.length - 1) - 0.5) : 0);
      datasets.push({label: s.label, data: s.points.map((p, j) => ({x: at(j), y: p[0], lo: p[1], hi: p[2], n: p[4]})),
                     pointRadius: 5, borderColor: colour, backgroundColor: colour});
      datasets.push({label: s.label + " 95 %", aux: true, showLine: true, spanGaps: false, pointRadius: 0, borderWidth: 3,
                     borderColor: colour + "66",
                     data: s.points.flatMap((p, j) => [{x: at(j), y: p[1]}, {x: at(j), y: p[2]}, {x: at(j), y: gap}])});
    });
    datasets.push({label: _("fair share"), showLine: true, spanGaps: false, pointRadius: 0, borderWidth: 2, borderDash: [5, 4],
                   borderColor: "#334155", data: fair.flatMap((f, j) => [{x: j - 0.35, y: f}, {x: j + 0.35, y: f}, {x: j, y: gap}])});
    chart(id, {
      type: "scatter", data: {datasets: datasets},
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {x: {type: "linear", min: -0.5, max: labels.length - 0.5, grid: {display: false},
                     afterBuildTicks: axis => { axis.ticks = labels.map((_, j) => ({value: j})); },
                     ticks: {autoSkip: false, callback: v => labels[v]}},
                 y: percentAxis(yTitle)},
        plugins: {legend: {labels: quiet},
                  tooltip: {filter: item => item.raw && "lo" in item.raw,
                            callbacks: {title: items => labels[Math.round(items[0].raw.x)],
                                        label: ctx => ctx.dataset.label + ": " + pct(ctx.raw.y) + interval(ctx.raw)}}},
      },
    });
  }

  function firstAttacker() {
    // A row is [players, rate, low, high, duraks, games, fair share].
    const rows = data.first_attacker;
    whiskers("chart-first", rows.map(r => playersText(r[0])), [{label: _("first attacker"), points: rows.map(r => r.slice(1, 6))}],
             rows.map(r => r[6]), _("durak rate"));
  }

  function partnerships() {
    const p = data.partnerships;
    whiskers("chart-partnerships", p.labels, [{label: _("first attacker's side"), points: p.attacker},
                                              {label: _("first defender's side"), points: p.defender}],
             p.fair, _("loss rate of the side"));
  }

  function bouts() {
    const series = data.bouts.series;
    chart("chart-bouts", {
      type: "bar",
      data: {labels: data.bouts.labels,
             datasets: Object.keys(series).map((players, i) => ({label: playersText(players), data: series[players],
                                                                  backgroundColor: colours[i % colours.length] + "bb"}))},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {title: {display: true, text: _("bouts")}}, y: percentAxis(_("share of games"))},
                plugins: {tooltip: {callbacks: {label: ctx => ctx.dataset.label + ": " + pct(ctx.raw)}}}},
    });
  }

  function draws() {
    const reasons = data.draws.reasons;
    chart("chart-draws", {
      type: "bar",
      data: {labels: data.draws.players.map(playersText),
             datasets: Object.keys(reasons).map((reason, i) => ({label: reason, data: reasons[reason],
                                                                  backgroundColor: colours[i % colours.length] + "bb"}))},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {stacked: true}, y: {...percentAxis(_("share of games drawn")), stacked: true}},
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
          {type: "line", label: _("games needed vs independent deals"), data: rows.map(r => r[1]),
           showLine: false, pointRadius: 5, borderColor: colours[0], backgroundColor: colours[0]},
          {type: "line", label: _("independent deals (1×)"), data: rows.map(() => 1), pointRadius: 0, borderDash: [5, 4],
           borderWidth: 1, borderColor: "#334155"},
          {label: _("95 % interval"), aux: true, data: rows.map(r => [r[2], r[3]]), backgroundColor: colours[0] + "33", barPercentage: 0.35},
        ],
      },
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {y: {min: 0, title: {display: true, text: _("games needed, × independent")}}},
        plugins: {legend: {labels: quiet}, tooltip: {callbacks: {label: function (ctx) {
          const r = rows[ctx.dataIndex];
          if (ctx.datasetIndex === 0) {
            return fmt(window.ngettext("%(factor)s× (ρ = %(rho)s, %(sets)s set)", "%(factor)s× (ρ = %(rho)s, %(sets)s sets)", r[5]),
                       {factor: r[1].toFixed(2), rho: r[4].toFixed(3), sets: r[5]});
          }
          if (ctx.datasetIndex === 2) return "95 %: " + ctx.raw[0].toFixed(2) + "–" + ctx.raw[1].toFixed(2) + "×";
          return _("independent: 1×");
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
  byTrumps("chart-trumps", data.trumps, playersText, players => 1 / players, _("trumps in the starting hand"),
           _("durak rate"));
  firstAttacker();
  bouts();
  draws();
  if (data.duplicate.length) duplicate();
  if (data.partnerships.labels.length) partnerships();
  byTrumps("chart-team-trumps", data.team_trumps, key => key, key => data.team_fair[key],
           _("trumps in the team's starting hands"), _("loss rate of the team"));
})();
