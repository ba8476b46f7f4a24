"""What a table page shows, worked out by the engine alone (no database): one seat's view as JSON.

The page must show a person exactly what their seat may know (``game.observation``,
docs/rules.md section 9: their hand, the table, counts and the cards everyone saw go
into other hands), which moves are legal with words for each, and, for a card that
fits nothing, the engine's own reason (``why_illegal``). A spectator sees the
public part only. The hint is a reference bot's choice from the same observation.

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=2), seed=3)
>>> view = table_view(game, game.to_act, ["ann", "random"])
>>> view["my_turn"], len(view["hand"]), view["legal"][0]["label"].startswith("lead ")
(True, 6, True)
>>> len(table_view(game, None, ["ann", "random"])["hand"])
0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from arena.matches.replay import pretty, replay_frames
from bots_sdk.bots import make_bot
from bots_sdk.engine import Action, ActionKind, Card, Game, Observation, Rules, sort_hand

LOG_LINES = 6
"""Captions of the latest moves the page lists."""


def rebuild(preset: str, players: int, seed: str, actions: Sequence[Sequence[Any]]) -> Game:
    """The game after the saved decisions ``[seat, action, ms]`` (``ValueError`` if one does not replay)."""
    from worker.referee.table import Decision, replay_decisions

    return replay_decisions(Rules.preset(preset, players=players), seed, [Decision.from_list(a) for a in actions])


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]




def action_label(action: Action, observation: Observation) -> str:
    """A move in words: ``lead 7♥``, ``beat 7♠ with 9♠``, ``take the cards``..."""
    card = pretty(str(action.card)) if action.card is not None else ""
    kind = action.kind
    if kind is ActionKind.ATTACK:
        return (_("lead %(card)s") if not observation.table else _("throw in %(card)s")) % {"card": card}
    if kind is ActionKind.DEFEND:
        return _("beat %(target)s with %(card)s") % {"target": pretty(str(action.target)), "card": card}
    if kind is ActionKind.TRANSFER:
        return _("transfer with %(card)s") % {"card": card}
    if kind is ActionKind.TAKE:
        return _("take the cards")
    if kind is ActionKind.PASS:
        return _("pass (nothing to add)") if observation.table else _("pass")
    if kind is ActionKind.EXCHANGE:
        return _("exchange for the trump %(card)s") % {"card": pretty(str(observation.trump_card))}
    return str(action)


def move_json(action: Action, observation: Observation) -> dict[str, Any]:
    return {
        "action": str(action), "kind": action.kind.name.lower(), "label": action_label(action, observation),
        "card": str(action.card) if action.card is not None else None,
        "target": str(action.target) if action.target is not None else None,
    }


def _role(observation: Observation, seat: int) -> str:
    if observation.out[seat]:
        return "out"
    if seat == observation.defender:
        return "takes" if observation.take_declared else "defends"
    if seat == observation.attacker:
        return "attacks"
    return "may throw in" if seat in observation.eligible_attackers and observation.table else ""


ROLE_WORDS = {"out": pgettext_lazy("seat role", "out"), "takes": pgettext_lazy("seat role", "takes"),
              "defends": pgettext_lazy("seat role", "defends"), "attacks": pgettext_lazy("seat role", "attacks"),
              "may throw in": pgettext_lazy("seat role", "may throw in")}
"""A seat's role (``_role``, which the page also gets as a code) in the reader's words."""


def headline(observation: Observation, me: int | None, names: Sequence[str]) -> str:
    """Whose turn it is, and for the person to act what they may do, in one sentence."""
    to_act = observation.to_act
    if to_act is None:
        return _("The game is over.")
    if to_act != me:
        role = ROLE_WORDS.get(_role(observation, to_act), "")
        values = {"name": names[to_act], "seat": to_act, "role": role}
        return (_("Waiting for %(name)s (seat %(seat)s), who %(role)s…") if role
                else _("Waiting for %(name)s (seat %(seat)s)…")) % values
    legal = observation.legal_actions
    kinds = {action.kind for action in legal}
    if me == observation.defender:
        options = [_("beat the cards") if ActionKind.DEFEND in kinds else ""]
        options += [_("transfer") if ActionKind.TRANSFER in kinds else "",
                    _("take") if ActionKind.TAKE in kinds else ""]
        return _("Your turn to defend: %(options)s.") % {"options": _(" or ").join(o for o in options if o)}
    if not observation.table:
        return _("Your lead: click a highlighted card.")
    if ActionKind.ATTACK in kinds:
        return _("Your turn: throw in a highlighted card, or pass.")
    return _("Your turn: pass.")


def table_view(game: Game, me: int | None, names: Sequence[str]) -> dict[str, Any]:
    """The board as seat ``me`` sees it (``None``: a spectator, who sees no hand)."""
    observation = game.observation(me if me is not None else 0)
    n = game.players
    mine = me is not None and observation.to_act == me
    teams = game.rules.teams or ()
    team_of = {seat: "ABC"[t] for t, team in enumerate(teams) for seat in team}
    return {
        "me": me,
        "seats": [
            {
                "seat": s, "name": names[s], "count": observation.hand_sizes[s], "out": observation.out[s],
                "known": [] if s == me else _cards(sort_hand(observation.known_cards[s], observation.trump)),
                "role": _role(observation, s),
                "to_act": observation.to_act == s, "team": team_of.get(s),
                "partner": me is not None and s in game.partners(me),
            }
            for s in range(n)
        ],
        "hand": _cards(sort_hand(observation.hand, observation.trump)) if me is not None else [],
        "trump": observation.trump.letter, "trump_card": str(observation.trump_card),
        "trump_drawn_by": observation.trump_drawn_by, "stock": observation.stock_size,
        "discard": len(observation.discard),
        "table": [[str(p.attack), str(p.cover) if p.cover is not None else None] for p in observation.table],
        "take": observation.take_declared, "bout": observation.bout, "attacker": observation.attacker,
        "defender": observation.defender, "to_act": observation.to_act, "my_turn": mine,
        "legal": [move_json(a, observation) for a in sorted(observation.legal_actions)] if mine else [],
        "headline": headline(observation, me, names),
    }


def intended(game: Game, seat: int, card: Card) -> Action:
    """What a click on ``card`` means when no legal move uses it: a defence of the first unbeaten card for the
    defender, an attack for anyone else; the engine then says why it is not allowed."""
    unbeaten = [attack for attack, cover in game.table() if cover is None]
    if seat == game.defender and unbeaten and not game.take_declared:
        return Action.defend(unbeaten[0], card)
    return Action.attack(card)


def hint(game: Game, seat: int, bot: str) -> Action:
    """The reference bot ``bot``'s move for ``seat`` now (the seat must be the one to act)."""
    advisor = make_bot(bot)
    advisor.start_game(seat, game.rules)
    return advisor.choose_action(game.observation(seat))


def captions(game: Game, names: Sequence[str], result: Mapping[str, Any] | None) -> list[str]:
    """The replay viewer's captions of the latest moves (forced ones too), the newest last."""
    record = {
        "format": "durak-game/1", "rules": game.rules.to_dict(), "dealer": game.dealer,
        "deck": _cards(game.deck), "seats": [{"bot": name, "version": ""} for name in names],
        "actions": [{"seat": seat, "action": str(action)} for seat, action in game.decisions()],
        "result": dict(result) if result else {},
    }
    steps = replay_frames(record)["steps"]
    return [step["caption"] for step in steps[-LOG_LINES:]]
