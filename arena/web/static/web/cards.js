// Playing-card DOM shared by the replay viewer (web/replay.js) and the table (tables/table.js), drawn with
// web/cards.css. Loaded before either page script; everything lives on window.DurakCards. Vanilla ES2020.
// A card is its two-letter code, rank then suit ("TS" is the ten of spades, "QH" the queen of hearts).
(() => {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  const RED = { H: true, D: true };
  // Spoken names in the reader's language (Django's JavaScript catalog); the suit as it follows the rank.
  const SUIT_NAME = {
    S: window.pgettext("card suit", "spades"), H: window.pgettext("card suit", "hearts"),
    D: window.pgettext("card suit", "diamonds"), C: window.pgettext("card suit", "clubs"),
  };
  const RANK_NAME = {
    T: "10", J: window.pgettext("card rank", "jack"), Q: window.pgettext("card rank", "queen"),
    K: window.pgettext("card rank", "king"), A: window.pgettext("card rank", "ace"),
  };
  const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

  const isRed = (suit) => !!RED[suit];
  const rankText = (r) => (r === "T" ? "10" : r);
  const pretty = (code) => rankText(code[0]) + SYMBOL[code[1]];

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // An <svg><use href=…></svg> suit icon; `sprite` is what goes before the suit letter in the href
  // ("#rp-suit-" for a sprite inlined in the page, "/static/tables/suits.svg#" for a sprite file).
  function suitIcon(suit, cls, sprite) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", `${sprite}${suit}`);
    svg.appendChild(use);
    return svg;
  }

  // A card face. Options: sprite (as for suitIcon), classes (more class names), suitClass (add "rp-S" etc.),
  // role ("img" or none), rankNames ("queen of hearts" rather than "Q of hearts" in the aria-label).
  function face(code, options = {}) {
    const { sprite, classes = [], suitClass = false, role = null, rankNames = false } = options;
    const rank = code[0];
    const suit = code[1];
    const names = ["rp-card", "rp-face", ...(suitClass ? [`rp-${suit}`] : []), isRed(suit) ? "rp-red" : "", ...classes];
    const card = el("div", names.join(" ").trim());
    card.dataset.card = code;
    if (role) card.setAttribute("role", role);
    const spoken = rankNames ? RANK_NAME[rank] || rank : rankText(rank);
    card.setAttribute("aria-label", window.interpolate(window.gettext("%(rank)s of %(suit)s"),
      { rank: spoken, suit: SUIT_NAME[suit] }, true));
    card.title = pretty(code);
    for (const corner of ["rp-tl", "rp-br"]) {
      const ix = el("span", `rp-ix ${corner}`);
      ix.append(el("b", "", rankText(rank)), suitIcon(suit, "rp-ix-pip", sprite));
      card.appendChild(ix);
    }
    if (rank === "J" || rank === "Q" || rank === "K") {
      const court = el("span", "rp-court");
      court.append(el("b", "", rank), suitIcon(suit, "rp-court-pip", sprite));
      card.appendChild(court);
    } else {
      card.appendChild(suitIcon(suit, rank === "A" ? "rp-pip rp-ace" : "rp-pip", sprite));
    }
    return card;
  }

  // A face-down card. Options: extra (more class names), role ("img" or none).
  function back(options = {}) {
    const { extra = "", role = null } = options;
    const card = el("div", `rp-card rp-back${extra ? ` ${extra}` : ""}`);
    card.dataset.card = "back";
    if (role) card.setAttribute("role", role);
    card.setAttribute("aria-label", "face-down card");
    return card;
  }

  window.DurakCards = Object.freeze({ SUIT_NAME, RANK_NAME, SYMBOL, isRed, rankText, pretty, el, suitIcon, face, back });
})();
