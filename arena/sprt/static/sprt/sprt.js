// A strength test's live page: the LLR over pairs between its two bounds (Chart.js, vendored), and while the
// test runs, a poll of its JSON every few seconds that redraws the chart and the figures; the page reloads once
// the test ends so the server renders the verdict and the pairs.
(function () {
  "use strict";
  const script = document.getElementById("sprt-script");
  const source = document.getElementById("sprt-data");
  const canvas = document.getElementById("sprt-chart");
  if (!script || !source) return;
  let data = JSON.parse(source.textContent);
  let chart = null;

  function datasets(d) {
    const end = Math.max(10, d.pairs);
    const llr = d.history.map(p => ({x: p[0], y: p[1]}));
    return [
      {label: "LLR", data: llr, borderColor: "#2563eb", backgroundColor: "#2563eb", borderWidth: 2,
       pointRadius: llr.length > 80 ? 0 : 2, fill: false},
      {label: window.gettext("accept H1 (B is stronger)"), data: [{x: 0, y: d.upper}, {x: end, y: d.upper}],
       borderColor: "#059669", borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, fill: false},
      {label: window.gettext("accept H0 (not stronger)"), data: [{x: 0, y: d.lower}, {x: end, y: d.lower}],
       borderColor: "#dc2626", borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, fill: false},
    ];
  }

  function draw(d) {
    if (!canvas || !window.Chart) return;
    if (chart) {
      chart.data.datasets = datasets(d);
      chart.update();
      return;
    }
    chart = new window.Chart(canvas, {
      type: "line",
      data: {datasets: datasets(d)},
      options: {
        animation: false, maintainAspectRatio: false,
        scales: {x: {type: "linear", min: 0, ticks: {precision: 0}, title: {display: true, text: window.gettext("pairs")}},
                 y: {title: {display: true, text: window.gettext("log-likelihood ratio")}}},
      },
    });
  }

  function fill(d) {
    const values = {
      status_text: d.status_text, verdict: d.verdict, pairs: d.pairs, games: d.games, llr: d.llr.toFixed(3),
      elo_text: d.elo_text, interval_text: d.interval_text, los_text: d.los_text, failed_matches: d.failed_matches,
      estimate_note: d.estimate_note,
      game_wins: d.games_won_drawn_lost[0], game_draws: d.games_won_drawn_lost[1],
      game_losses: d.games_won_drawn_lost[2],
    };
    d.pentanomial.forEach((count, i) => { values["penta-" + i] = count; });  // bins 0, 1/4, 1/2, 3/4, 1
    document.querySelectorAll("[data-field]").forEach(function (element) {
      const key = element.getAttribute("data-field");
      if (key in values) element.textContent = String(values[key]);
    });
  }

  draw(data);
  if (!data.running) return;
  const url = script.getAttribute("data-url");
  const timer = window.setInterval(function () {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(response => (response.ok ? response.json() : null))
      .then(function (fresh) {
        if (!fresh) return;
        if (!fresh.running) {
          window.clearInterval(timer);
          window.location.reload();
          return;
        }
        if (fresh.pairs !== data.pairs) {
          data = fresh;
          fill(data);
          draw(data);
        }
      })
      .catch(function () { /* a missed poll is retried at the next tick */ });
  }, 5000);
})();
