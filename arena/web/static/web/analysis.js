// The analysis of a game in the replay viewer (arena/analysis/): the value chart, mistakes and inaccuracies
// marked in the move list and on the chart, and at a flagged step the best move named and its card lifted in
// the hand. While the analysis is queued or running, the progress is polled and the page reloads when done.
// A verdict's step counts every step from 0 (durak replay --trace); the viewer's step 0 is the deal, so a
// verdict is drawn at its step + 1. Talks to replay.js by events on #replay: replay:step and replay:go.
(() => {
  "use strict";

  const _ = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);
  const box = document.getElementById("rp-analysis");
  if (!box) return;

  const status = box.dataset.status;
  if (status === "queued" || status === "running") {
    const progress = document.getElementById("rp-analysis-progress");
    const poll = () => fetch(box.dataset.url, { headers: { Accept: "application/json" } })
      .then((response) => response.json())
      .then((data) => {
        if (data.status === "done" || data.status === "failed") { location.reload(); return; }
        if (progress) {
          progress.querySelector("progress").max = data.decisions;
          progress.querySelector("progress").value = data.done;
          progress.querySelector("span").textContent = data.status === "running"
            ? fmt(_("analysing %(done)s/%(total)s"), { done: data.done, total: data.decisions }) : _("analysis queued");
        }
        setTimeout(poll, 2000);
      })
      .catch(() => setTimeout(poll, 5000));
    setTimeout(poll, 2000);
    return;
  }

  const dataNode = document.getElementById("replay-analysis");
  const root = document.getElementById("replay");
  const frames = document.getElementById("replay-frames");
  if (!dataNode || !root || !frames) return;
  const reviews = JSON.parse(dataNode.textContent);
  const F = JSON.parse(frames.textContent);
  const N = F.players;
  const LAST = F.steps.length - 1;
  const byStep = new Map(reviews.map((r) => [r.step + 1, r]));
  const flag = (r) => (r.mistake ? "mistake" : r.inaccuracy ? "inaccuracy" : null);
  const pretty = (action) => action.replace(/\b([2-9TJQKA])([SHDC])\b/g,
    (_m, rank, suit) => (rank === "T" ? "10" : rank) + { S: "♠", H: "♥", D: "♦", C: "♣" }[suit]);
  const value = (v) => ("durak" in v
    ? fmt(_("durak %(chance)s ± %(error)s"), { chance: v.durak.toFixed(2), error: v.se.toFixed(2) })
    : v.result === "draw" ? _("draw")
      : v.bouts === null ? (v.result === "win" ? _("win") : _("loss"))
        : fmt(v.result === "win" ? window.ngettext("win in %(bouts)s bout", "win in %(bouts)s bouts", v.bouts)
          : window.ngettext("loss in %(bouts)s bout", "loss in %(bouts)s bouts", v.bouts), { bouts: v.bouts }));

  // ------------------------------------------------------------------ the move list

  const list = document.getElementById("move-list");
  byStep.forEach((r, step) => {
    const kind = flag(r);
    const item = list && list.children[step];
    if (!kind || !item) return;
    item.classList.add(`is-${kind}`);
    const badge = document.createElement("span");
    badge.className = `rp-mv-flag rp-mv-${kind}`;
    badge.textContent = kind === "mistake" ? "??" : "?!";
    badge.title = kind === "mistake" ? _("mistake") : _("inaccuracy");
    item.querySelector("a").appendChild(badge);
  });

  // ------------------------------------------------------------------ the best move at a flagged step

  const best = document.getElementById("rp-best");
  function showBest(step) {
    document.querySelectorAll(".rp-card.is-best, [data-card].is-best").forEach((n) => n.classList.remove("is-best"));
    const r = byStep.get(step);
    const kind = r && flag(r);
    if (!best) return;
    if (!kind) { best.hidden = true; return; }
    best.hidden = false;
    best.className = `rp-best rp-best-${kind}`;
    best.textContent = fmt(kind === "mistake"
      ? _("Mistake: %(played)s (%(before)s → %(after)s). Best: %(best)s")
      : _("Inaccuracy: %(played)s (%(before)s → %(after)s). Best: %(best)s"), {
      played: pretty(r.action), before: value(r.before), after: value(r.after), best: r.best.map(pretty).join(", "),
    });
    // The card of the first best move is still in the seat's hand (the seat played another): lift it.
    const card = (r.best[0].match(/([2-9TJQKA][SHDC])$/) || [])[1];
    if (card) {
      const seat = root.querySelector(`[data-seat='${r.seat}']`);
      const node = seat && seat.querySelector(`[data-card='${card}']`);
      if (node) node.classList.add("is-best");
    }
  }
  root.addEventListener("replay:step", (event) => showBest(event.detail.step));
  const hashStep = Number(new URLSearchParams(location.hash.replace(/^#/, "")).get("step"));
  showBest(Number.isFinite(hashStep) ? hashStep : 0);

  // ------------------------------------------------------------------ the chart

  const canvas = document.getElementById("rp-value-chart");
  if (!canvas || !window.Chart) return;
  const colours = ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#db2777"];
  const flagColour = { mistake: "#b91c1c", inaccuracy: "#d97706" };
  const datasets = [];
  for (let k = 0; k < N; k++) {
    const seat = F.seats[k] || { name: "" };
    const points = reviews.map((r) => ({ x: r.step + 1, y: r.durak[k], r }));
    datasets.push({
      label: fmt(_("seat %(seat)s (%(name)s)"), { seat: k, name: seat.name }),
      data: points, borderColor: colours[k % colours.length], backgroundColor: colours[k % colours.length],
      borderWidth: 2, stepped: false, fill: false,
      // a flagged decision is a big point in the colour of its kind, on the line of the seat that made it
      pointRadius: points.map((p) => (flag(p.r) && p.r.seat === k ? 6 : 0)),
      pointHoverRadius: points.map((p) => (flag(p.r) && p.r.seat === k ? 8 : 3)),
      pointBackgroundColor: points.map((p) => flagColour[flag(p.r)] || colours[k % colours.length]),
      pointBorderColor: points.map((p) => flagColour[flag(p.r)] || colours[k % colours.length]),
    });
  }
  const exactFrom = reviews.find((r) => r.mode === "exact");
  const chart = new window.Chart(canvas, {
    type: "line",
    data: { datasets },
    options: {
      animation: false, maintainAspectRatio: false, parsing: true,
      interaction: { mode: "nearest", intersect: false, axis: "x" },
      scales: {
        x: { type: "linear", min: 0, max: LAST, ticks: { precision: 0 }, title: { display: true, text: _("step") } },
        y: { min: 0, max: 1, title: { display: true, text: _("chance to end as the durak") } },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            title: (items) => {
              const r = items[0].raw.r;
              const kind = flag(r);
              return fmt(_("step %(step)s: seat %(seat)s %(action)s"), { step: r.step + 1, seat: r.seat, action: pretty(r.action) })
                + (kind ? ` (${kind === "mistake" ? _("mistake") : _("inaccuracy")})` : "");
            },
            label: (item) => fmt(_("%(seat)s: durak %(chance)s"), { seat: item.dataset.label, chance: item.parsed.y.toFixed(2) }),
          },
        },
      },
      onClick: (_event, elements) => {
        if (!elements.length) return;
        const point = chart.data.datasets[elements[0].datasetIndex].data[elements[0].index];
        root.dispatchEvent(new CustomEvent("replay:go", { detail: { step: point.x } }));
      },
    },
    plugins: [{
      // a dashed line where the values become exact
      id: "exactFrom",
      afterDraw: (c) => {
        if (!exactFrom) return;
        const x = c.scales.x.getPixelForValue(exactFrom.step + 1);
        const { top, bottom } = c.chartArea;
        const ctx = c.ctx;
        ctx.save();
        ctx.strokeStyle = "#6b7280";
        ctx.setLineDash([4, 4]);
        ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
        ctx.fillStyle = "#6b7280";
        ctx.fillText(_("exact from here"), x + 4, top + 12);
        ctx.restore();
      },
    }],
  });
})();
