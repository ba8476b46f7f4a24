"""The replay viewer's frames: a ``durak-game/1`` record re-executed by the engine, one state per step.

``replay_frames(record)`` is pure (engine only, no database): the page embeds
what it returns as JSON and ``web/replay.js`` draws it. Step 0 is the deal; then
one step per decision, forced moves included (exactly the steps of ``durak replay
--trace``), each with the full true state after it and a human caption.

Frames schema (cards are 2-character texts such as ``"TS"``; a hand, a known set and a table pair
are their cards run together, ``"7S9SJH"``, which keeps a 6-seat game small; seats are ints)::

    {"format": "durak-frames/1",
     "preset": "classic", "players": 2, "rules": {...the record's rules...},
     "dealer": 1, "deck_size": 36, "hand_size": 6, "trump": "D", "trump_card": "6D",
     "order": "6S7S...ASJH...6D...AD",   # the deck in hand order (sort_hand): how the viewer sorts a pile
     "seats": [{"seat": 0, "bot": "gentle", "version": "1", "name": "gentle"}, ...],
     "teams": null,               # or, with option teams, one per team (see below)
     "result": {"durak": 1, "draw": false, "reason": "normal", "out_order": [0],
                "offender": null, "detail": "", "losers": null},   # the record's stored result
     "complete": true,            # every action replayed and the result matches
     "error": null,               # or why the replay stopped early / differs
     "bouts": 17,
     "steps": [{
        "seat": 0, "action": "attack 6S",   # null for step 0 (the deal)
        "forced": false, "ms": 2,           # ms: null when not recorded (and for forced steps)
        "label": "leads 6♠",               # short, for the move list
        "caption": "Seat 0 (gentle) leads 6♠",
        "hl": ["6S"],                       # the card(s) of this step, to highlight
        "hands": ["7S9SJH", ...],           # every true hand, as a player holds it (sort_hand: trumps last)
        "known": ["", "9H", ...],           # per seat: the cards of that hand every seat knows
        "table": ["6S9S", "7S"],            # attack card, then its cover if beaten
        "stock": 12, "trump_card": "6D", "trump_by": null,   # who drew the turned-up card
        "discard": 4,                       # cards in the discard pile
        "attacker": 0, "defender": 1, "take": false, "bout": 1,
        "out": [2],                         # seats out (safe), in the order they went out
        "next": 1,                          # who acts next (null at the end)
        "bout_end": null,                   # or {"bout", "taken", "by", "cards", "draws": [[seat, n]], "out"}
        "forfeit": null,                    # last step of a forfeit: {"seat", "reason", "detail"} as recorded,
                                            # and "reason_text", "detail_text" in the reader's language
     }, ...]}

A team game (option ``teams``, docs/rules.md section 7) adds what the viewer needs to
show partnerships, and nothing else changes; an individual game's frames have
none of these keys but ``"teams": null`` and ``result.losers``::

    "teams": [{"team": 0, "letter": "A", "seats": [0, 2], "label": "0+2", "name": "gentle",
               "lost": false}, ...],   # lost: the record's result.losers are this team's seats
    "seats": [{..., "team": 0}, ...],
    "steps": [{..., "attacker_position": 0, "defender_position": 1}, ...]

Turns are kept by positions: when a player is out, the next partner holding
cards plays their position, so ``attacker`` (who attacks) differs from
``attacker_position`` (whose turn it is) exactly while a partner stands in; the
caption says so ("Seat 2 (gentle) plays for seat 0 and attacks") when it starts.

Seat ``k``'s view at a step is what ``game.observation(k)`` shows (docs/rules.md
section 9): ``hands[k]``, the size of every other hand, and ``known[s]`` of every
other seat, nothing else of theirs (``seat_view`` builds it). ``known`` is the
observation's ``known_cards``, which is the same for every observer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from arena.matches.cards import pretty
from arena.matches.fault_words import fault_text, why_illegal_text
from bots_sdk.engine import Action, ActionKind, Card, DurakError, Game, GameRecord, Rules, Watcher, sort_hand
from bots_sdk.engine.cards import mask_to_cards
from bots_sdk.engine.outcome import Reason

FORMAT: Final = "durak-frames/1"
TEAM_LETTERS: Final = "ABCDEF"
"""A team's letter on the pages: colour alone would fail colour-blind readers, so every badge says it too."""


def team_label(seats: Sequence[int]) -> str:
    """A team named by its seats, as ``durak play`` prints it: ``(0, 2)`` -> ``"0+2"``."""
    return "+".join(map(str, seats))


def split_cards(text: str) -> list[str]:
    """A frame's card string as a list: ``"7S9SJH"`` -> ``["7S", "9S", "JH"]``."""
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def seat_view(frames: Mapping[str, Any], step: int, seat: int) -> dict[str, Any]:
    """What ``seat`` knows of the hands at ``step``: its own hand, and per other seat the count and known cards.

    Exactly the hand part of ``game.observation(seat)``: ``hand``, ``hand_sizes`` and ``known_cards``.
    """
    state = frames["steps"][step]
    hands: list[str] = state["hands"]
    return {
        "seat": seat,
        "hand": split_cards(hands[seat]),
        "sizes": [len(h) // 2 for h in hands],
        "known": [split_cards(hands[s] if s == seat else state["known"][s]) for s in range(len(hands))],
    }


# ---------------------------------------------------------------------- the engine, watched


Snapshot = tuple[int, dict[str, Any], dict[str, Any] | None]
"""``(events so far, the state, the end of a bout or None)``."""


class _Snapshots(Watcher):
    """Snapshots a game's state after every action and every end of a bout.

    The engine applies forced moves inside ``push``; watching its steps and its
    ends of bouts gives the state after each of them. Forced passes go straight
    to the history and change nothing visible.
    """

    def __init__(self) -> None:
        self.snaps: list[Snapshot] = []
        self.out_at_start: set[int] = set()
        """Seats out when the bout started: under ``early_out`` players go out during it."""
        self.ending: dict[str, Any] = {}
        """The bout being ended, from ``before_bout_end``; ``events`` counts the history before its draws."""

    def take(self, game: Game, event: dict[str, Any] | None) -> None:
        self.snaps.append((game.event_count, _state(game), event))

    def before_step(self, game: Game, seat: int, action: Action, forced: bool) -> None:
        if not self.snaps:
            self.take(game, None)  # the deal, before a forced move made during it

    def after_step(self, game: Game) -> None:
        self.take(game, None)

    def before_bout_end(self, game: Game) -> None:
        self.ending = {
            "bout": game.bout, "taken": game.take_declared, "by": game.defender,
            "cards": [str(c) for pair in game.table() for c in pair if c is not None],
            "events": game.event_count,
        }

    def after_bout_end(self, game: Game, over: bool) -> None:
        ending = self.ending
        drawn = [e for e in game.events(ending.pop("events")) if e.kind == "draw"]
        ending.update(
            draws=[[e.seat, e.count] for e in drawn],
            out=[s for s in game.out_order if s not in self.out_at_start],
            turn_up=any(e.turn_up for e in drawn),
        )
        self.take(game, ending)
        self.out_at_start = set(game.out_order)


def _state(game: Game) -> dict[str, Any]:
    trump = game.trump
    n = game.players
    state: dict[str, Any] = {
        "hands": ["".join(map(str, sort_hand(mask_to_cards(game.hand_mask(s)), trump))) for s in range(n)],
        "known": ["".join(map(str, sort_hand(mask_to_cards(game.known_mask(s)), trump))) for s in range(n)],
        "table": [str(a) if c is None else f"{a}{c}" for a, c in game.table()],
        "stock": game.stock_size,
        "trump_card": str(game.trump_card),
        "trump_by": game.trump_drawn_by,
        "discard": game.discard_mask().bit_count(),
        "attacker": game.attacker,
        "defender": game.defender,
        "take": game.take_declared,
        "bout": game.bout,
        "out": list(game.out_order),
    }
    if game.rules.teams is not None:
        state["attacker_position"] = game.attacker_position
        state["defender_position"] = game.defender_position
    return state


# ---------------------------------------------------------------------- reading a record, leniently


def _seats(record: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    raw = record.get("seats")
    items = raw if isinstance(raw, list) else []
    seats = []
    for s in range(players):
        item = items[s] if s < len(items) and isinstance(items[s], Mapping) else {}
        bot = item.get("bot")
        version = item.get("version", "")
        bot_text = bot if isinstance(bot, str) and bot else _("seat %(seat)s") % {"seat": s}
        seats.append({
            "seat": s, "bot": bot_text, "version": str(version) if isinstance(version, str | int) else "",
            "name": bot_text,
        })
    return seats


def _teams(
    layout: Sequence[Sequence[int]], seats: list[dict[str, Any]], losers: list[int] | None
) -> list[dict[str, Any]]:
    """The frames' ``teams`` (module docstring); also marks each seat with its team.

    A team's ``name`` is its seats' bot names without repeats: in the arena one
    version plays a whole team, so it reads as that one bot.
    """
    teams = []
    for index, members in enumerate(layout):
        names = list(dict.fromkeys(seats[s]["name"] for s in members))
        for s in members:
            seats[s]["team"] = index
        teams.append({
            "team": index, "letter": TEAM_LETTERS[index], "seats": list(members), "label": team_label(members),
            "name": " / ".join(names), "lost": losers is not None and sorted(losers) == sorted(members),
        })
    return teams


def _team_text(team: Mapping[str, Any]) -> str:
    return _("team %(letter)s (seats %(seats)s, %(name)s)") % {
        "letter": team["letter"], "seats": team["label"], "name": team["name"]}


def _result(record: Mapping[str, Any]) -> dict[str, Any]:
    raw = record.get("result")
    data: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}

    def seat(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    out_order = data.get("out_order")
    losers = data.get("losers")
    detail = data.get("detail")
    reason = data.get("reason")
    return {
        "durak": seat(data.get("durak")),
        "draw": data.get("draw") is True,
        "reason": reason if isinstance(reason, str) else "",
        "out_order": [s for s in out_order if seat(s) is not None] if isinstance(out_order, list) else [],
        "offender": seat(data.get("offender")),
        "detail": detail if isinstance(detail, str) else "",
        "losers": [s for s in losers if seat(s) is not None] if isinstance(losers, list) else None,
    }


def _salvage(record: Mapping[str, Any]) -> tuple[Rules, int, list[Card], list[tuple[int, Action, int | None]], str]:
    """Rules, deal and the actions of a record that failed strict reading, up to the first bad action.

    Raises ``DurakError`` (or ``TypeError``/``ValueError``) when not even the deal can be read.
    """
    rules = Rules.from_dict(record["rules"])
    dealer = record.get("dealer", rules.players - 1)
    deck = [Card.parse(text) for text in record["deck"]]
    Game.from_deck(rules, deck, dealer)
    actions: list[tuple[int, Action, int | None]] = []
    raw = record.get("actions")
    items = raw if isinstance(raw, list) else []
    for i, item in enumerate(items):
        try:
            seat = item["seat"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise TypeError(f"actions[{i}].seat: {seat!r} is not a seat")
            action = Action.parse(item["action"])
        except (DurakError, TypeError, KeyError, ValueError) as error:
            return rules, dealer, deck, actions, f"actions[{i}]: {error}"
        ms = item.get("ms")
        actions.append((seat, action, int(ms) if isinstance(ms, int | float) and not isinstance(ms, bool) else None))
    return rules, dealer, deck, actions, ""


# ---------------------------------------------------------------------- captions


def _who(seats: list[dict[str, Any]], seat: int) -> str:
    return _("Seat %(seat)s (%(name)s)") % {"seat": seat, "name": seats[seat]["name"]}


def _describe(action: Action, seat: int, forced: bool, before: dict[str, Any], after: dict[str, Any],
              seats: list[dict[str, Any]]) -> tuple[str, str, list[str]]:
    """The move list label, the caption's first sentence and the cards to highlight.

    Built in the reader's language (the request's active one): the catalogs word each move as Durak players do.
    """
    who = _who(seats, seat)
    kind = action.kind
    card = str(action.card) if action.card is not None else ""
    if kind is ActionKind.ATTACK:
        if not before["table"]:
            label = _("leads %(card)s") % {"card": pretty(card)}
        else:
            label = _("throws in %(card)s") % {"card": pretty(card)}
        caption = (_("%(who)s %(move)s (the only card)") if forced else _("%(who)s %(move)s")) % {
            "who": who, "move": label}
        return label, caption, [card]
    if kind is ActionKind.DEFEND:
        target = str(action.target)
        label = _("beats %(target)s with %(card)s") % {"target": pretty(target), "card": pretty(card)}
        return label, _("%(who)s %(move)s") % {"who": who, "move": label}, [card, target]
    if kind is ActionKind.TAKE:
        if forced:
            return _("takes (forced)"), _("%(who)s cannot beat the table and will take") % {"who": who}, []
        return _("will take"), _("%(who)s gives up and will take") % {"who": who}, []
    if kind is ActionKind.PASS:
        if forced:
            return _("passes"), _("%(who)s has nothing to add") % {"who": who}, []
        return _("passes"), _("%(who)s passes") % {"who": who}, []
    if kind is ActionKind.TRANSFER:
        label = _("transfers with %(card)s") % {"card": pretty(card)}
        caption = _("%(who)s %(move)s to %(defender)s") % {
            "who": who, "move": label, "defender": _who(seats, after["defender"])}
        return label, caption, [card]
    if kind is ActionKind.EXCHANGE:
        old, new = before["trump_card"], after["trump_card"]
        label = _("exchanges %(new)s for %(old)s") % {"new": pretty(new), "old": pretty(old)}
        return label, _("%(who)s %(move)s, the turned-up trump") % {"who": who, "move": label}, [old, new]
    return str(action), f"{who}: {action}", []


def _bout_sentence(event: dict[str, Any], seats: list[dict[str, Any]], trump_card: str) -> str:
    count = len(event["cards"])
    values = {"bout": event["bout"], "count": count}
    if event["taken"]:
        text = ngettext("Bout %(bout)s: %(who)s takes %(count)s card.", "Bout %(bout)s: %(who)s takes %(count)s cards.",
                        count) % {**values, "who": _who(seats, event["by"])}
    else:
        text = ngettext("Bout %(bout)s: %(count)s card to the discard.",
                        "Bout %(bout)s: %(count)s cards to the discard.", count) % values
    draws = [_("seat %(seat)s draws %(count)s") % {"seat": s, "count": n} for s, n in event["draws"]]
    if draws:
        joined = ", ".join(draws)
        text += " " + joined[0].upper() + joined[1:]
        text += (" " + _("(the last, with the trump %(card)s).") % {"card": pretty(trump_card)}
                 if event["turn_up"] else ".")
    for s in event["out"]:
        text += " " + _("%(who)s is out.") % {"who": _who(seats, s)}
    return text


def _stand_in_sentence(before: Mapping[str, Any], after: Mapping[str, Any], seats: list[dict[str, Any]]) -> str:
    """Who starts, at this step, to play the position of an out partner (team games only; else empty).

    Said once, when it begins (a new bout or a transfer), not on every step it lasts: the seat panels
    show it throughout.
    """
    if "attacker_position" not in after:
        return ""
    sentences = []
    for role, verb in (("attacker", _("attacks")), ("defender", _("defends"))):
        actor, position = after[role], after[f"{role}_position"]
        if actor != position and (before[role], before[f"{role}_position"]) != (actor, position):
            sentences.append(_("%(who)s plays for seat %(position)s and %(verb)s.") % {
                "who": _who(seats, actor), "position": position, "verb": verb})
    return " ".join(sentences)


def _loser_sentence(durak: int, seats: list[dict[str, Any]], teams: list[dict[str, Any]], last: bool = False) -> str:
    """Who lost: the durak, or in a team game their whole team (``last``: because it held the last cards)."""
    if not teams:
        return _("%(who)s is the durak.") % {"who": _who(seats, durak)}
    text = _team_text(teams[seats[durak]["team"]])
    text = f"{text[0].upper()}{text[1:]}"
    return (_("%(team)s holds the last cards and loses.") if last else _("%(team)s loses.")) % {"team": text}


def _end_sentence(outcome: dict[str, Any], seats: list[dict[str, Any]], teams: list[dict[str, Any]]) -> str:
    reason = outcome["reason"]
    if outcome["durak"] is not None and not Reason(reason).is_forfeit:
        return _loser_sentence(outcome["durak"], seats, teams, last=True)
    if reason == Reason.PICKUP_LIMIT:
        return _("Draw: too many takes in a row with an empty stock.")
    if reason == Reason.MAX_BOUTS:
        return _("Draw: the bout limit was reached.")
    if reason == Reason.NORMAL:
        return _("Draw: the last players went out together.")
    return ""


# ---------------------------------------------------------------------- the frames


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """Re-execute ``record`` with the engine and return the viewer's frames (see the module docstring).

    Never raises for a bad record: the steps that replayed come back with ``error`` saying what went wrong.
    """
    frames: dict[str, Any] = {
        "format": FORMAT, "preset": "", "players": 0, "rules": {}, "dealer": None, "deck_size": 0,
        "hand_size": 0, "trump": "", "trump_card": "", "order": "", "seats": [], "teams": None, "result": _result({}),
        "complete": False,
        "error": None, "bouts": 0, "steps": [],
    }
    if not isinstance(record, Mapping):
        frames["error"] = _("the record is not a JSON object but %(type)s") % {"type": type(record).__name__}
        return frames
    frames["result"] = _result(record)
    error = ""
    try:
        parsed = GameRecord.from_dict(record)
        rules, dealer, deck = parsed.rules, parsed.dealer, list(parsed.deck)
        actions = [(a.seat, a.action, a.ms) for a in parsed.actions]
    except Exception as strict_error:  # RecordError, or anything odd in a hand-made record
        error = _("malformed record: %(error)s") % {"error": strict_error}
        try:
            rules, dealer, deck, actions, _salvaged_error = _salvage(record)
        except (DurakError, TypeError, ValueError, KeyError, AttributeError):
            frames["error"] = error
            seats_raw = record.get("seats")
            if isinstance(seats_raw, list):
                frames["seats"] = _seats(record, len(seats_raw))
            return frames
    players = rules.players
    seats = _seats(record, players)
    teams = _teams(rules.teams, seats, frames["result"]["losers"]) if rules.teams is not None else []
    frames.update(
        preset=rules.preset_name, players=players, rules=rules.to_dict(), dealer=dealer, deck_size=rules.deck,
        hand_size=rules.hand_size, seats=seats, teams=teams or None,
    )
    try:
        steps, game, replay_error = _replay(rules, dealer, deck, actions, seats)
    except Exception as crash:  # an engine bug must not take the page down
        frames["error"] = _("the replay failed: %(type)s: %(error)s") % {"type": type(crash).__name__, "error": crash}
        return frames
    frames["trump"] = game.trump_card.suit.letter if steps else ""
    frames["order"] = "".join(map(str, sort_hand(deck, game.trump))) if steps else ""
    frames["trump_card"] = steps[0]["trump_card"] if steps else ""
    frames["steps"] = steps
    frames["bouts"] = game.bout
    error = error or replay_error
    stored = frames["result"]
    if not error:
        error = _finish(game, steps, stored, seats, teams)
    frames["complete"] = not error
    frames["error"] = error or None
    return frames


def _replay(rules: Rules, dealer: int, deck: list[Card], actions: list[tuple[int, Action, int | None]],
            seats: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Game, str]:
    watcher = _Snapshots()
    game = Game.from_deck(rules, deck, dealer, watcher)
    if not watcher.snaps:
        watcher.take(game, None)
    snaps = watcher.snaps
    steps: list[dict[str, Any]] = []
    deal = dict(snaps[0][1])
    first = deal["attacker"]
    deal.update(
        seat=None, action=None, forced=False, ms=None, label=_("deal"), hl=[], bout_end=None, forfeit=None,
        caption=ngettext(
            "%(dealer)s deals %(count)s card each; the trump is %(trump)s. "
            "%(first)s attacks first, %(defender)s defends.",
            "%(dealer)s deals %(count)s cards each; the trump is %(trump)s. "
            "%(first)s attacks first, %(defender)s defends.",
            rules.hand_size,
        ) % {"dealer": _who(seats, dealer), "count": rules.hand_size, "trump": pretty(deal["trump_card"]),
             "first": _who(seats, first), "defender": _who(seats, deal["defender"])},
    )
    steps.append(deal)
    seen = 0  # history entries turned into steps
    used = 1  # snapshots used
    previous = deal

    def collect(ms: int | None) -> None:
        nonlocal seen, used, previous
        events = game.events(seen)
        total = seen + len(events)
        acted = [i for i, e in enumerate(events) if e.action is not None]
        for j, index in enumerate(acted):
            limit = seen + acted[j + 1] if j + 1 < len(acted) else total
            state: dict[str, Any] = previous
            event = None
            while used < len(snaps) and snaps[used][0] <= limit:
                state = snaps[used][1]
                event = snaps[used][2] or event
                used += 1
            seat, action, forced = events[index].seat, events[index].action, events[index].forced
            assert action is not None
            label, caption, hl = _describe(action, seat, forced, previous, state, seats)
            step = dict(state)
            if event is not None:
                caption += ". " + _bout_sentence(event, seats, state["trump_card"])
                if event["taken"]:
                    hl = list(event["cards"])
            else:
                caption += "."
            if not (game.is_over() and j == len(acted) - 1):  # once it is over, nobody plays for anyone
                stand_in = _stand_in_sentence(previous, state, seats)
                caption += f" {stand_in}" if stand_in else ""
            step.update(
                seat=seat, action=str(action), forced=forced, ms=None if forced else ms, label=label,
                caption=caption, hl=hl, bout_end=event, forfeit=None,
            )
            steps.append(step)
            previous = state
        seen = total

    collect(None)
    error = ""
    for i, (seat, action, ms) in enumerate(actions):
        if game.is_over():
            error = _("action %(i)s (%(action)s, seat %(seat)s) comes after the end of the game") % {
                "i": i, "action": action, "seat": seat}
            break
        why = game.why_illegal(action, seat)
        if why:
            error = _("action %(i)s of the record (%(action)s, seat %(seat)s) is illegal at step %(step)s: %(why)s") % {
                "i": i, "action": action, "seat": seat, "step": len(steps), "why": why_illegal_text(why)}
            break
        game.push(action)
        collect(ms)
    for j, step in enumerate(steps):
        step["next"] = steps[j + 1]["seat"] if j + 1 < len(steps) else game.to_act
    return steps, game, error


def _finish(game: Game, steps: list[dict[str, Any]], stored: dict[str, Any], seats: list[dict[str, Any]],
            teams: list[dict[str, Any]]) -> str:
    """Annotate the last step with the end of the game; return an error if it differs from the stored result."""
    last = steps[-1]
    if game.outcome is not None:
        replayed = game.outcome.to_dict()
        sentence = _end_sentence(replayed, seats, teams)
        if sentence:
            last["caption"] += " " + sentence
        same = all(replayed.get(k) == stored.get(k) for k in ("durak", "draw", "reason", "out_order", "losers"))
        if not same:
            return (
                _("the stored result (%(stored)s) differs from the replay (%(replayed)s)")
                % {"stored": _result_text(stored), "replayed": _result_text(replayed)}
            )
        return ""
    reason = stored["reason"]
    try:
        forfeit = Reason(reason).is_forfeit
    except ValueError:
        forfeit = False
    if not forfeit:
        return _("the record stops before the game ends (seat %(seat)s is to act at step %(step)s)") % {
            "seat": game.to_act, "step": len(steps)}
    offender = stored["offender"]
    # reason and detail as recorded; their words in the reader's language for the viewer
    last["forfeit"] = {"seat": offender, "reason": reason, "detail": stored["detail"],
                       "reason_text": reason_text(reason), "detail_text": fault_text(stored["detail"])}
    if offender is not None and 0 <= offender < len(seats):
        values = {"who": _who(seats, offender), "reason": reason_text(reason), "detail": fault_text(stored["detail"])}
        text = (_("%(who)s forfeits (%(reason)s: %(detail)s).") if stored["detail"]
                else _("%(who)s forfeits (%(reason)s).")) % values
        last["caption"] += f" {text} {_loser_sentence(offender, seats, teams)}"
    if offender != game.to_act:
        return _("the stored offender is seat %(offender)s, but seat %(seat)s was to act") % {
            "offender": offender, "seat": game.to_act}
    return ""


def reason_text(reason: str) -> str:
    """A game's end reason in the reader's words (the record keeps the code: ``timeout``, ``pickup_limit``...)."""
    words = {"timeout": pgettext("end reason", "timeout"), "crash": pgettext("end reason", "crash"),
             "illegal": pgettext("end reason", "illegal"), "protocol": pgettext("end reason", "protocol"),
             "normal": pgettext("end reason", "normal"), "pickup_limit": pgettext("end reason", "pickup_limit"),
             "max_bouts": pgettext("end reason", "max_bouts")}
    return words.get(reason, reason)


def _result_text(result: Mapping[str, Any]) -> str:
    if result.get("durak") is None:
        return f"draw, {result.get('reason')}"
    text = f"seat {result.get('durak')} durak, {result.get('reason')}, out {result.get('out_order')}"
    return text if result.get("losers") is None else f"{text}, losers {result.get('losers')}"


__all__ = ["FORMAT", "TEAM_LETTERS", "pretty", "reason_text", "replay_frames", "seat_view", "split_cards", "team_label"]
