// The replay viewer: draws the frames that arena.matches.replay computed (embedded as #replay-frames).
// Vanilla ES2020, no dependencies, nothing fetched. Deep links: #step=12&view=2 (or view=all).
// Team games (F.teams) add a lettered, coloured badge per team, say who plays for an out partner, and
// name the losing team; an individual game draws exactly as it did without them.
(() => {
  "use strict";

  const root = document.getElementById("replay");
  const dataNode = document.getElementById("replay-frames");
  if (!root || !dataNode) return;
  const F = JSON.parse(dataNode.textContent);
  const steps = F.steps || [];
  const N = F.players || 0;
  const LAST = steps.length - 1;
  if (LAST < 0 || N < 2) {
    root.classList.add("rp-empty");
    return;
  }
  // Decisions up to each step: the bots' own choices, the count the match page gives per game (the forced
  // steps between them, the only legal move played for a seat, are steps but not decisions).
  const DECIDED = [];
  steps.forEach((s, i) => DECIDED.push((i ? DECIDED[i - 1] : 0) + (s.seat !== null && !s.forced ? 1 : 0)));

  const $ = (id) => document.getElementById(id);
  const ui = {
    felt: $("rp-felt"), opponents: $("rp-opponents"), home: $("rp-home"), deck: $("rp-deck"),
    table: $("rp-table"), discard: $("rp-discard"), caption: $("caption"), meta: $("rp-step-meta"),
    counter: $("step-counter"), slider: $("step-slider"), view: $("perspective"), speed: $("speed"),
    moves: $("move-list"), first: $("btn-first"), back: $("btn-back"), play: $("btn-play"),
    forward: $("btn-forward"), last: $("btn-last"), roles: $("rp-roles"),
  };

  const Cards = window.DurakCards;
  const { SYMBOL, isRed, pretty, el } = Cards;
  // the suit sprite is inlined in the page (#rp-suit-S …); a card is an image, named in words ("queen of hearts")
  const CARDS = { sprite: "#rp-suit-", suitClass: true, role: "img", rankNames: true };
  const BASE_MS = 1100;

  // Words go through Django's JavaScript catalog (jsi18n, loaded by the base template).
  const _ = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);
  const split = (text) => (text ? text.match(/../g) : []) || [];
  const name = (k) => (F.seats[k] ? F.seats[k].name : fmt(_("seat %(seat)s"), { seat: k }));
  const who = (k) => fmt(_("Seat %(seat)s (%(name)s)"), { seat: k, name: name(k) });
  const TEAMS = F.teams || null;
  const teamOf = (k) => (TEAMS && F.seats[k] ? TEAMS[F.seats[k].team] : null);
  const lostTeam = TEAMS ? TEAMS.find((t) => t.lost) || null : null;

  const pip = (suit, cls) => Cards.suitIcon(suit, cls, CARDS.sprite);

  // ------------------------------------------------------------------ cards

  const faces = new Map();

  function face(code, extra) {
    let proto = faces.get(code);
    if (!proto) {
      proto = Cards.face(code, CARDS);
      faces.set(code, proto);
    }
    const node = proto.cloneNode(true);
    if (extra) node.classList.add(...extra.split(" "));
    return node;
  }

  const back = (extra) => Cards.back({ extra, role: CARDS.role });

  // ------------------------------------------------------------------ derived data

  // The discard pile is public: the cards of every beaten-off bout so far.
  const discardAt = [];
  {
    let pile = [];
    for (const s of steps) {
      if (s.bout_end && !s.bout_end.taken) pile = pile.concat(s.bout_end.cards);
      discardAt.push(pile);
    }
  }
  const lastOutcome = F.complete && steps[LAST].next === null;

  // ------------------------------------------------------------------ state

  let cur = 0;
  let view = "all";
  let timer = null;
  const seatEls = [];

  function homeSeat() {
    return view === "all" ? 0 : view;
  }

  function buildSeats() {
    ui.opponents.textContent = "";
    ui.home.textContent = "";
    seatEls.length = 0;
    const home = homeSeat();
    for (let i = 0; i < N; i++) {
      const k = (home + i) % N;
      const panel = el("section", `rp-seat${i === 0 ? " rp-seat-home" : ""}`);
      panel.dataset.seat = String(k);
      const head = el("div", "rp-seat-head");
      head.appendChild(el("span", `rp-seat-no rp-s${k}`, String(k)));
      const team = teamOf(k);
      if (team) {
        panel.classList.add("rp-seat-team", `team-${team.team}`);
        const badge = el("span", `team-badge team-${team.team}`, team.letter);
        badge.title = fmt(_("team %(letter)s: seats %(seats)s"), { letter: team.letter, seats: team.label });
        badge.setAttribute("aria-label", fmt(_("team %(letter)s"), { letter: team.letter }));
        head.appendChild(badge);
      }
      head.appendChild(el("span", "rp-seat-name", name(k)));
      const chips = el("span", "rp-chips");
      head.appendChild(chips);
      const count = el("span", "rp-count");
      count.title = _("cards in hand");
      head.appendChild(count);
      const hand = el("div", "rp-hand");
      panel.appendChild(head);
      panel.appendChild(hand);
      (i === 0 ? ui.home : ui.opponents).appendChild(panel);
      seatEls[k] = { panel, chips, count, hand };
    }
    root.dataset.view = String(view);
  }

  // ------------------------------------------------------------------ drawing one step

  function chip(box, text, kind) {
    box.appendChild(el("span", `rp-chip rp-chip-${kind}`, text));
  }

  function drawSeat(k, s, prev, animate) {
    const { panel, chips, count, hand } = seatEls[k];
    const held = split(s.hands[k]);
    const open = view === "all" || view === k;
    const outIndex = s.out.indexOf(k);
    const final = cur === LAST && lastOutcome;
    panel.classList.toggle("is-next", s.next === k);
    panel.classList.toggle("is-actor", s.seat === k);
    panel.classList.toggle("is-out", outIndex >= 0);
    panel.classList.toggle("is-open", open);
    chips.textContent = "";
    if (outIndex >= 0) chip(chips, fmt(_("out %(place)s."), { place: outIndex + 1 }), "safe");
    if (final && (lostTeam ? lostTeam.seats.includes(k) : F.result.durak === k)) chip(chips, lostTeam ? _("lost") : _("durak"), "durak");
    if (s.forfeit && s.forfeit.seat === k) chip(chips, fmt(_("forfeit: %(reason)s"), { reason: s.forfeit.reason_text || s.forfeit.reason }), "durak");
    if (!final && outIndex < 0 && held.length + (s.stock || 0) > 0) {
      // with teams, "for 0": this seat plays the position of its out partner 0
      const dfor = TEAMS && s.defender_position !== k ? fmt(_(" for %(seat)s"), { seat: s.defender_position }) : "";
      const afor = TEAMS && s.attacker_position !== k ? fmt(_(" for %(seat)s"), { seat: s.attacker_position }) : "";
      if (s.defender === k) chip(chips, (s.take ? _("takes") : _("defends")) + dfor, s.take ? "take" : "defend");
      else if (s.attacker === k) chip(chips, _("attacks") + afor, "attack");
    }
    if (!final && TEAMS && outIndex >= 0) {
      if (s.attacker_position === k && s.attacker !== k) chip(chips, fmt(_("played by %(seat)s"), { seat: s.attacker }), "standin");
      else if (s.defender_position === k && s.defender !== k) chip(chips, fmt(_("played by %(seat)s"), { seat: s.defender }), "standin");
    }
    if (s.next === k) chip(chips, _("to act"), "next");
    count.textContent = String(held.length);
    count.dataset.unit = window.npgettext("in hand", "card", "cards", held.length);

    const hl = new Set(s.hl);
    const before = prev ? new Set(split(prev.hands[k])) : null;
    hand.textContent = "";
    hand.classList.toggle("rp-many", held.length > 8);
    const slots = [];
    if (open) {
      for (const code of held) {
        let extra = "";
        if (hl.has(code)) extra += " rp-hl";
        if (animate && before && !before.has(code)) extra += " rp-new";
        slots.push(face(code, extra.trim()));
      }
    } else {
      const known = split(s.known[k]);
      for (const code of known) {
        let extra = "rp-known";
        if (hl.has(code)) extra += " rp-hl";
        if (animate && before && !before.has(code)) extra += " rp-new";
        slots.push(face(code, extra));
      }
      const hidden = held.length - known.length;
      const wasHidden = prev ? split(prev.hands[k]).length - split(prev.known[k]).length : hidden;
      for (let j = 0; j < hidden; j++) {
        slots.push(back(animate && j >= wasHidden ? "rp-new" : ""));
      }
    }
    for (const card of slots) {
      const slot = el("div", "rp-slot");
      slot.appendChild(card);
      hand.appendChild(slot);
    }
    if (!slots.length) hand.appendChild(el("span", "rp-hand-empty", outIndex >= 0 ? _("safe") : _("no cards")));
  }

  function drawTable(s, animate) {
    const box = ui.table;
    box.textContent = "";
    box.classList.toggle("is-taking", !!s.take);
    const hl = new Set(s.hl);
    for (const pair of s.table) {
      const [attack, cover] = split(pair);
      const slot = el("div", `rp-pair${cover ? " is-beaten" : ""}`);
      slot.appendChild(face(attack, `rp-attack${hl.has(attack) ? " rp-hl" : ""}${animate && hl.has(attack) && !cover ? " rp-enter" : ""}`));
      if (cover) {
        slot.appendChild(face(cover, `rp-cover${hl.has(cover) ? " rp-hl" : ""}${animate && hl.has(cover) ? " rp-enter" : ""}`));
      }
      box.appendChild(slot);
    }
    if (!s.table.length) {
      let note = s.seat === null ? fmt(_("Bout 1 · trump %(suit)s"), { suit: SYMBOL[F.trump] || "" }) : "";
      if (s.bout_end) {
        const e = s.bout_end;
        note = e.taken ? fmt(_("Bout %(bout)s: taken by seat %(seat)s"), { bout: e.bout, seat: e.by })
          : fmt(_("Bout %(bout)s: beaten off"), { bout: e.bout });
      }
      if (cur === LAST && lastOutcome) {
        note = F.result.durak === null ? _("Draw")
          : lostTeam ? fmt(_("Team %(letter)s (%(name)s) lost"), { letter: lostTeam.letter, name: lostTeam.name })
            : fmt(_("Seat %(seat)s (%(name)s) is the durak"), { seat: F.result.durak, name: name(F.result.durak) });
      }
      if (note) box.appendChild(el("div", "rp-table-note", note));
    } else if (s.take) {
      box.appendChild(el("div", "rp-take-flag", fmt(_("seat %(seat)s takes"), { seat: s.defender })));
    }
  }

  function drawDeck(s) {
    const box = ui.deck;
    box.textContent = "";
    const pile = el("div", "rp-stock");
    const inStock = s.trump_by === null && s.stock > 0;
    if (inStock) pile.appendChild(face(s.trump_card, "rp-trump-card"));
    const backs = Math.min(4, Math.ceil((s.stock - (inStock ? 1 : 0)) / 4));
    for (let j = 0; j < backs; j++) {
      const b = back("rp-stock-card");
      b.style.setProperty("--i", String(j));
      pile.appendChild(b);
    }
    if (!s.stock) {
      const marker = el("div", `rp-trump-mark${isRed(F.trump) ? " rp-red" : ""}`);
      marker.appendChild(pip(F.trump, "rp-trump-pip"));
      pile.appendChild(marker);
    }
    box.appendChild(pile);
    const label = el("div", "rp-pile-label");
    label.textContent = s.stock ? fmt(window.ngettext("%(count)s in stock", "%(count)s in stock", s.stock), { count: s.stock })
      : s.trump_by !== null ? fmt(_("trump %(card)s to seat %(seat)s"), { card: pretty(s.trump_card), seat: s.trump_by })
        : _("stock empty");
    box.appendChild(label);
  }

  function drawDiscard(i, s) {
    const box = ui.discard;
    const wasOpen = box.classList.contains("is-open");
    box.textContent = "";
    const button = el("button", "rp-discard-pile");
    button.type = "button";
    button.title = _("Show the discard pile");
    button.setAttribute("aria-expanded", String(wasOpen));
    const layers = Math.min(3, Math.ceil(s.discard / 6));
    for (let j = 0; j < layers; j++) {
      const b = back("rp-discard-card");
      b.style.setProperty("--i", String(j));
      button.appendChild(b);
    }
    if (!layers) button.appendChild(el("span", "rp-discard-none", ""));
    box.appendChild(button);
    box.appendChild(el("div", "rp-pile-label", s.discard
      ? fmt(window.ngettext("%(count)s discarded", "%(count)s discarded", s.discard), { count: s.discard }) : _("no discard")));
    if (wasOpen && s.discard) {
      const list = el("div", "rp-discard-list");
      for (const code of [...discardAt[i]].sort(inHandOrder)) list.appendChild(face(code));
      box.appendChild(list);
    } else {
      box.classList.remove("is-open");
    }
  }

  // A pile in the order of a hand: the server's F.order (the deck as bots_sdk.engine.sort_hand orders it), so
  // the page never sorts cards by a rule of its own.
  const inHandOrder = (a, b) => F.order.indexOf(a) - F.order.indexOf(b);

  function drawMoves(i) {
    const list = ui.moves;
    const old = list.querySelector("li.is-current");
    if (old) old.classList.remove("is-current");
    const item = list.children[i];
    if (!item) return;
    item.classList.add("is-current");
    // the list scrolls by itself (position: relative, so offsetTop is within it); the page never jumps
    const top = item.offsetTop;
    if (top < list.scrollTop + 24 || top + item.offsetHeight > list.scrollTop + list.clientHeight - 24) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // Team games: who attacks and defends, and for which out partner ("Seat 2 (x) plays for seat 0 and attacks").
  function drawRoles(i, s) {
    if (!ui.roles) return;
    if (i === LAST && lastOutcome) {
      ui.roles.textContent = lostTeam
        ? fmt(_("Team %(letter)s (seats %(seats)s, %(name)s) lost."), { letter: lostTeam.letter, seats: lostTeam.label, name: lostTeam.name })
        : _("Draw.");
      return;
    }
    const role = (seat, position, verb) => fmt(
      seat === position ? _("%(who)s %(verb)s") : _("%(who)s plays for seat %(position)s and %(verb)s"),
      { who: who(seat), position, verb });
    ui.roles.textContent = `${role(s.attacker, s.attacker_position, _("attacks"))} · ` +
      role(s.defender, s.defender_position, s.take ? _("takes") : _("defends"));
  }

  function render(animate) {
    const i = cur;
    const s = steps[i];
    const prev = i > 0 ? steps[i - 1] : null;
    for (let k = 0; k < N; k++) drawSeat(k, s, prev, animate);
    drawTable(s, animate);
    drawDeck(s);
    drawDiscard(i, s);
    drawRoles(i, s);
    ui.caption.textContent = s.caption;
    const meta = [fmt(_("bout %(bout)s"), { bout: s.bout })];
    if (s.seat !== null) {
      meta.push(s.forced ? fmt(_("seat %(seat)s: forced"), { seat: s.seat })
        : s.ms !== null ? fmt(_("seat %(seat)s: %(ms)s ms"), { seat: s.seat, ms: s.ms }) : fmt(_("seat %(seat)s"), { seat: s.seat }));
    }
    if (s.next !== null) meta.push(fmt(_("next: seat %(seat)s"), { seat: s.next }));
    if (i === LAST && F.error) meta.push(_("the replay stops here"));
    ui.meta.textContent = meta.join(" · ");
    ui.counter.textContent = fmt(_("step %(step)s / %(last)s · decision %(decision)s / %(decisions)s"),
      { step: i, last: LAST, decision: DECIDED[i], decisions: DECIDED[LAST] });
    ui.slider.value = String(i);
    ui.slider.style.setProperty("--fill", `${LAST ? (100 * i) / LAST : 100}%`);
    ui.first.disabled = ui.back.disabled = i === 0;
    ui.forward.disabled = ui.last.disabled = i === LAST;
    ui.felt.classList.toggle("is-final", i === LAST);
    drawMoves(i);
    // The analysis (web/analysis.js) marks the best move of a flagged step on the table.
    root.dispatchEvent(new CustomEvent("replay:step", { detail: { step: i } }));
  }

  // ------------------------------------------------------------------ navigation

  function writeHash() {
    const hash = `#step=${cur}&view=${view}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function go(i, animate = false) {
    const next = Math.max(0, Math.min(LAST, i | 0));
    const changed = next !== cur;
    cur = next;
    render(animate && changed);
    writeHash();
  }

  function setView(v) {
    const value = v === "all" ? "all" : Number(v);
    if (value !== "all" && !(Number.isInteger(value) && value >= 0 && value < N)) return;
    view = value;
    ui.view.value = String(value);
    buildSeats();
    render(false);
    writeHash();
  }

  function delay(i) {
    const speed = Number(ui.speed.value) || 1;
    const s = steps[i];
    let ms = BASE_MS / speed;
    if (s && s.forced && !s.bout_end) ms *= 0.45;
    if (s && s.bout_end) ms *= 1.5;
    return ms;
  }

  function setPlaying(on) {
    if (timer) clearTimeout(timer);
    timer = null;
    root.classList.toggle("is-playing", on);
    ui.play.setAttribute("aria-pressed", String(on));
    ui.play.setAttribute("aria-label", on ? _("pause") : _("play"));
    if (on) {
      if (cur >= LAST) go(0);
      const tick = () => {
        if (cur >= LAST) return setPlaying(false);
        go(cur + 1, true);
        if (cur >= LAST) return setPlaying(false);
        timer = setTimeout(tick, delay(cur + 1));
      };
      timer = setTimeout(tick, Math.min(450, delay(cur + 1)));
    }
  }

  const playing = () => timer !== null;
  const stop = () => playing() && setPlaying(false);

  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const v = params.get("view");
    const s = params.get("step");
    if (v !== null && (v === "all" || /^\d$/.test(v)) && (v === "all" || Number(v) < N) && String(view) !== v) {
      view = v === "all" ? "all" : Number(v);
      ui.view.value = String(view);
      buildSeats();
    }
    if (s !== null && /^\d+$/.test(s)) cur = Math.min(LAST, Number(s));
  }

  // ------------------------------------------------------------------ wiring

  root.addEventListener("replay:go", (event) => { stop(); go(event.detail.step); });
  ui.first.addEventListener("click", () => { stop(); go(0); });
  ui.back.addEventListener("click", () => { stop(); go(cur - 1); });
  ui.forward.addEventListener("click", () => { stop(); go(cur + 1, true); });
  ui.last.addEventListener("click", () => { stop(); go(LAST); });
  ui.play.addEventListener("click", () => setPlaying(!playing()));
  ui.slider.addEventListener("input", () => { stop(); go(Number(ui.slider.value)); });
  ui.view.addEventListener("change", () => setView(ui.view.value));
  ui.speed.addEventListener("change", () => { if (playing()) setPlaying(true); });
  ui.moves.addEventListener("click", (event) => {
    const item = event.target.closest("li[data-step]");
    if (!item) return;
    event.preventDefault();
    stop();
    go(Number(item.dataset.step));
  });
  ui.discard.addEventListener("click", (event) => {
    if (!event.target.closest(".rp-discard-pile")) return;
    ui.discard.classList.toggle("is-open");
    drawDiscard(cur, steps[cur]);
  });
  window.addEventListener("hashchange", () => { readHash(); render(false); });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target;
    const tag = target && target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    if (tag === "INPUT" && target.type !== "range") return;
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
    const key = event.key;
    let handled = true;
    if (key === "ArrowRight") { if (tag === "INPUT") return; stop(); go(cur + 1, true); }
    else if (key === "ArrowLeft") { if (tag === "INPUT") return; stop(); go(cur - 1); }
    else if (key === "Home") { stop(); go(0); }
    else if (key === "End") { stop(); go(LAST); }
    else if (key === " " || key === "Spacebar") setPlaying(!playing());
    else if (key === "a" || key === "A") setView("all");
    else if (/^[0-5]$/.test(key) && Number(key) < N) setView(Number(key));
    else handled = false;
    if (handled) event.preventDefault();
  });

  buildSeats();
  readHash();
  ui.view.value = String(view);
  render(false);
  root.classList.add("is-ready");
})();
