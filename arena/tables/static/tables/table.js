// A table: draws one seat's view (embedded as #table-state, then polled from state.json with its version, so an
// unchanged table costs the server one read) on the replay viewer's felt and cards (web/cards.css), and sends the
// person's clicks. A card some legal move uses is highlighted and plays on a click (a card with several moves
// asks which); any other card is dimmed, and clicking it shows the engine's reason. Vanilla ES2020.
(() => {
  "use strict";
  // Words go through Django's JavaScript catalog (jsi18n, loaded by the base template).
  const _ = window.gettext;
  const fmt = (text, values) => window.interpolate(text, values, true);

  const root = document.getElementById("table");
  const initial = document.getElementById("table-state");
  if (!root || !initial) return;
  let S = JSON.parse(initial.textContent);
  const N = S.players;
  const POLL_MS = 400;
  const SPRITE = root.dataset.sprite;
  const CSRF = root.dataset.csrf;
  const $ = (id) => document.getElementById(id);
  const ui = {
    status: $("tb-status"), line: $("tb-line"), opponents: $("tb-opponents"), home: $("tb-home"),
    deck: $("tb-deck"), table: $("tb-table"), discard: $("tb-discard"), actions: $("tb-actions"),
    clock: $("tb-clock"), hint: $("hint-btn"), reason: $("tb-reason"), hintText: $("tb-hint"),
    result: $("tb-result"), resultText: $("tb-result-text"), replay: $("replay-link"), log: $("tb-log"),
    join: $("tb-join"), copy: $("copy-link"), share: $("share-link"),
  };
  const Cards = window.DurakCards;
  const { SYMBOL, isRed, el } = Cards;

  let selected = null;   // a card of the hand with several legal moves, waiting for the person's choice
  let hinted = null;     // the hint's move (its action text)
  let sending = false;
  let deadlineAt = null; // performance.now() at which the person's time runs out
  let timer = null;
  // The person's hand as last drawn: kept (the very same nodes) while nothing it shows has changed, so a poll
  // that only moves the bots never swaps the card under the cursor, and a click always lands on what was seen.
  let myHand = { key: "", node: null };

  // the suit sprite is the file suits.svg (data-sprite); a card is named by its index ("Q of hearts"), and a card
  // of the person's hand becomes a button (myCards)
  const suitIcon = (suit, cls) => Cards.suitIcon(suit, cls, `${SPRITE}#`);
  const cardFace = (code, classes) => Cards.face(code, { sprite: `${SPRITE}#`, classes });
  const cardBack = (extra) => Cards.back({ extra });

  const movesOf = (code) => S.legal.filter((m) => m.card === code);
  const isOver = () => S.status === "done" || S.status === "failed";
  const hintedCard = () => (S.legal.find((m) => m.action === hinted) || {}).card;

  // ------------------------------------------------------------------ drawing

  function seatOrder() {
    const me = S.me === null ? 0 : S.me;
    return Array.from({ length: N }, (_, i) => (me + i) % N);
  }

  function chip(box, text, kind) {
    box.append(el("span", `rp-chip rp-chip-${kind}`, text));
  }

  function drawSeat(seat, isHome) {
    const panel = el("section", `rp-seat${isHome ? " rp-seat-home" : ""}${seat.to_act ? " is-next" : ""}${seat.out ? " is-out" : ""}`);
    panel.dataset.seat = String(seat.seat);
    const head = el("div", "rp-seat-head");
    head.append(el("span", `rp-seat-no rp-s${seat.seat}`, String(seat.seat)));
    head.append(el("span", "rp-seat-name", seat.seat === S.me ? `${seat.name} (you)` : seat.name));
    const chips = el("span", "rp-chips");
    if (seat.out) chip(chips, _("out"), "safe");
    else if (S.status !== "running") { /* no roles once the game is over */ }
    else if (seat.role === "defends") chip(chips, _("defends"), "defend");
    else if (seat.role === "takes") chip(chips, _("takes"), "take");
    else if (seat.role === "attacks") chip(chips, _("attacks"), "attack");
    if (seat.to_act && S.status === "running") chip(chips, seat.seat === S.me ? _("your turn") : _("to act"), "next");
    if (seat.team) {
      chip(chips, fmt(seat.partner ? _("team %(letter)s, partner") : _("team %(letter)s"), { letter: seat.team }), "team");
    }
    const losers = S.result && S.result.losers;
    if (S.result && (losers ? losers.includes(seat.seat) : S.result.durak === seat.seat)) chip(chips, _("durak"), "durak");
    head.append(chips);
    const count = el("span", "rp-count", String(seat.count));
    count.dataset.unit = window.npgettext("in hand", "card", "cards", seat.count);
    count.title = _("cards in hand");
    head.append(count);
    panel.append(head, seat.seat === S.me ? drawMyHand(seat, isHome) : drawHand(seat, theirCards(seat)));
    return panel;
  }

  function drawHand(seat, cards) {
    const hand = el("div", "rp-hand");
    hand.classList.toggle("rp-many", seat.count > 8);
    for (const card of cards) {
      const slot = el("div", "rp-slot");
      slot.append(card);
      hand.append(slot);
    }
    if (!cards.length) hand.append(el("span", "rp-hand-empty", seat.out ? "safe" : "no cards"));
    return hand;
  }

  function drawMyHand(seat, isHome) {
    // the cards and their looks are all a redraw would change (a click reads the moves when it happens)
    const classes = S.hand.map(cardClasses);
    const key = JSON.stringify([S.hand, classes, seat.out, isHome]);
    if (key !== myHand.key || !myHand.node) {
      myHand = { key, node: drawHand(seat, myCards(classes)) };
      if (isHome) myHand.node.id = "tb-hand";
    }
    return myHand.node;
  }

  function theirCards(seat) {
    const cards = seat.known.map((code) => cardFace(code, ["rp-known"]));
    for (let i = seat.known.length; i < seat.count; i++) cards.push(cardBack());
    return cards;
  }

  function cardClasses(code) {
    const classes = [];
    if (S.my_turn) classes.push(movesOf(code).length ? "tb-playable" : "tb-dim");
    if (code === selected) classes.push("tb-selected");
    if (code === hintedCard()) classes.push("tb-hinted");
    return classes;
  }

  function myCards(classes) {
    return S.hand.map((code, i) => {
      const card = cardFace(code, classes[i]);
      card.tabIndex = 0;
      card.setAttribute("role", "button");
      card.addEventListener("click", () => onCard(code, card));
      card.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onCard(code, card); }
      });
      return card;
    });
  }

  function drawSeats() {
    ui.opponents.textContent = "";
    ui.home.textContent = "";
    seatOrder().forEach((k, i) => {
      const panel = drawSeat(S.seats[k], i === 0);
      (i === 0 ? ui.home : ui.opponents).append(panel);
    });
  }

  function drawTable() {
    ui.table.textContent = "";
    ui.table.classList.toggle("is-taking", !!S.take);
    const targets = new Map(selected ? movesOf(selected).filter((m) => m.target).map((m) => [m.target, m]) : []);
    for (const [attack, cover] of S.table) {
      const pair = el("div", `rp-pair${cover ? " is-beaten" : ""}`);
      const target = targets.get(attack);
      const card = cardFace(attack, ["rp-attack", target ? "tb-target" : ""]);
      if (target) card.addEventListener("click", () => send({ action: target.action }));
      pair.append(card);
      if (cover) pair.append(cardFace(cover, ["rp-cover"]));
      ui.table.append(pair);
    }
    if (!S.table.length) ui.table.append(el("div", "rp-table-note", S.status === "running" ? fmt(_("Bout %(bout)s"), { bout: S.bout }) : ""));
    else if (S.take) ui.table.append(el("div", "rp-take-flag", fmt(_("seat %(seat)s takes"), { seat: S.defender })));
  }

  function drawDeck() {
    ui.deck.textContent = "";
    const pile = el("div", "rp-stock");
    if (S.stock > 0 && S.trump_drawn_by === null) pile.append(cardFace(S.trump_card, ["rp-trump-card"]));
    for (let j = 0; j < Math.min(4, Math.ceil((S.stock - 1) / 4)); j++) {
      const back = cardBack("rp-stock-card");
      back.style.setProperty("--i", String(j));
      pile.append(back);
    }
    if (!S.stock) {
      const mark = el("div", `rp-trump-mark${isRed(S.trump) ? " rp-red" : ""}`);
      mark.append(suitIcon(S.trump, "rp-trump-pip"));
      pile.append(mark);
    }
    const trump = fmt(_("trump %(suit)s"), { suit: SYMBOL[S.trump] });
    const stock = S.stock ? fmt(window.ngettext("%(count)s in stock", "%(count)s in stock", S.stock), { count: S.stock })
      : _("stock empty");
    ui.deck.append(pile, el("div", "rp-pile-label", `${stock} · ${trump}`));
  }

  function drawDiscard() {
    ui.discard.textContent = "";
    const pile = el("div", "rp-discard-pile");
    for (let j = 0; j < Math.min(3, Math.ceil(S.discard / 6)); j++) {
      const back = cardBack("rp-discard-card");
      back.style.setProperty("--i", String(j));
      pile.append(back);
    }
    if (!S.discard) pile.append(el("span", "rp-discard-none"));
    ui.discard.append(pile, el("div", "rp-pile-label", S.discard
      ? fmt(window.ngettext("%(count)s discarded", "%(count)s discarded", S.discard), { count: S.discard }) : _("no discard")));
  }

  function moveButton(move, extra) {
    const button = el("button", `button tb-move ${extra}${move.action === hinted ? " tb-hinted" : ""}`, move.label);
    button.type = "button";
    button.dataset.action = move.action;
    button.id = `act-${move.action.replace(/ /g, "-")}`;
    button.addEventListener("click", () => send({ action: move.action }));
    return button;
  }

  function drawActions() {
    ui.actions.textContent = "";
    if (!S.my_turn) return;
    if (selected) {
      for (const move of movesOf(selected)) ui.actions.append(moveButton(move, "tb-choice"));
      const cancel = el("button", "button secondary tb-move", _("cancel"));
      cancel.type = "button";
      cancel.addEventListener("click", () => { selected = null; render(); });
      ui.actions.append(cancel);
      return;
    }
    for (const move of S.legal.filter((m) => !m.card)) ui.actions.append(moveButton(move, ""));
  }

  function drawEnd() {
    ui.result.hidden = !isOver();
    if (!isOver()) return;
    ui.resultText.textContent = S.line;
    if (S.replay_url) {
      ui.replay.href = S.replay_url;
      ui.replay.hidden = false;
    }
  }

  function drawLog() {
    ui.log.textContent = "";
    for (const line of S.log) ui.log.append(el("li", "", line));
  }

  function render() {
    ui.status.textContent = S.status_text;
    ui.status.className = `status status-${S.status}`;
    ui.line.textContent = S.line;
    ui.line.classList.toggle("is-mine", !!S.my_turn);
    if (ui.join && S.status !== "open") ui.join.hidden = true;
    drawSeats();
    drawTable();
    drawDeck();
    drawDiscard();
    drawActions();
    drawEnd();
    drawLog();
    if (ui.hint) {
      ui.hint.disabled = !S.my_turn || sending;
      ui.hint.hidden = isOver();  // no hint for a game that is over
    }
    if (isOver()) ui.hintText.hidden = true;
    tick();
  }

  // ------------------------------------------------------------------ talking to the server

  function showReason(text, card) {
    ui.reason.textContent = text;
    ui.reason.hidden = false;
    if (card) {  // the card stays the same node between polls: restart its shake
      card.classList.remove("tb-shake");
      void card.offsetWidth;
      card.classList.add("tb-shake");
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body || {}),
      headers: { "Content-Type": "application/json", "X-CSRFToken": CSRF, Accept: "application/json" },
    }).then((response) => response.json().catch(() => ({})).then((data) => ({ ok: response.ok, status: response.status, data })));
  }

  function onCard(code, node) {
    if (!node.isConnected || !S.hand.includes(code)) return;  // a card that a poll just replaced: not what was seen
    ui.reason.hidden = true;
    const moves = movesOf(code);
    if (moves.length === 1) return send({ action: moves[0].action }, node);
    if (moves.length > 1) {
      selected = selected === code ? null : code;
      return render();
    }
    return send({ card: code }, node);  // no legal move uses it: the engine says why
  }

  function send(body, node) {
    if (sending) return;
    sending = true;
    ui.reason.hidden = true;
    post(root.dataset.actUrl, body).then(({ ok, status, data }) => {
      sending = false;
      if (!ok) {
        showReason(data.error || fmt(_("The move was not sent (HTTP %(status)s)."), { status }), node);
        return;
      }
      selected = null;
      hinted = null;
      ui.hintText.hidden = true;
      S = { ...S, my_turn: false, legal: [], line: _("Your move is on its way…") };
      render();
      poll();
    }).catch(() => {
      sending = false;
      showReason(_("The move was not sent: the server did not answer. Try again."), node);
    });
  }

  function askHint() {
    ui.hint.disabled = true;
    post(root.dataset.hintUrl).then(({ ok, data }) => {
      if (!ok) {
        showReason(data.error || _("No hint now."));
      } else {
        hinted = data.action;
        ui.hintText.textContent = fmt(_("Hint (%(bot)s): %(move)s."), { bot: data.bot, move: data.label });
        ui.hintText.hidden = false;
      }
      render();
    });
  }

  function poll() {
    clearTimeout(timer);
    fetch(`${root.dataset.stateUrl}?v=${S.version}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((data) => { if (data && !data.same) update(data); })
      .catch(() => { /* a missed poll is retried at the next tick */ })
      .finally(() => { if (S.live) timer = setTimeout(poll, POLL_MS); });
  }

  function update(data) {
    const turnChanged = data.to_act !== S.to_act || data.decisions !== S.decisions;
    S = data;
    if (!S.my_turn) selected = null;
    if (!S.legal.some((m) => m.action === hinted)) {
      hinted = null;
      ui.hintText.hidden = true;
    }
    if (turnChanged) ui.reason.hidden = true;
    deadlineAt = S.deadline_s === null ? null : performance.now() + S.deadline_s * 1000;
    render();
  }

  function tick() {
    const show = S.my_turn && deadlineAt !== null;
    ui.clock.hidden = !show;
    if (!show) return;
    const left = Math.max(0, Math.round((deadlineAt - performance.now()) / 1000));
    ui.clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    ui.clock.classList.toggle("is-short", left <= 20);
  }

  if (ui.hint) ui.hint.addEventListener("click", askHint);
  if (ui.copy) {
    ui.copy.addEventListener("click", () => {
      ui.share.select();
      (navigator.clipboard ? navigator.clipboard.writeText(ui.share.value) : Promise.reject()).then(
        () => { ui.copy.textContent = _("Copied"); }, () => document.execCommand("copy"));
    });
  }
  setInterval(tick, 500);
  deadlineAt = S.deadline_s === null ? null : performance.now() + S.deadline_s * 1000;
  render();
  root.classList.add("is-ready");
  if (S.live) timer = setTimeout(poll, POLL_MS);
})();
