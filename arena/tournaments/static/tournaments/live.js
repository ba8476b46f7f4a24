// The live tournament page: poll live.json while the tournament runs; move the progress bar, and reload the
// page once a match has finished (or the status changed) so standings, crosstable and rounds are current.
(function () {
  "use strict";
  const root = document.getElementById("tournament-live");
  if (!root) return;
  const url = root.dataset.url;
  let done = Number(root.dataset.done);
  let status = root.dataset.status;
  const bar = document.querySelector(".progress .done");
  const text = document.getElementById("progress-text");
  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        const finished = data.progress.done + data.progress.failed;
        if (bar) bar.style.width = data.progress.percent + "%";
        if (text) {
          text.textContent = window.interpolate(window.gettext("%(done)s of %(total)s matches"),
                                                {done: finished, total: data.progress.total}, true);
        }
        if (finished !== done || data.status !== status) {
          window.location.reload();
          return;
        }
        done = finished;
        status = data.status;
        if (status === "running" || status === "scheduled") window.setTimeout(poll, 5000);
      })
      .catch(function () { window.setTimeout(poll, 15000); });
  }
  if (status === "running" || status === "scheduled") window.setTimeout(poll, 5000);
})();
