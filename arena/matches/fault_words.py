"""A game's fault detail in the reader's language, recognised from the English the referee wrote.

The detail of a forfeit (``Game.detail``, a record's ``result.detail``) stays English where it is stored: bots,
``durak replay`` and other readers of ``durak-game/1`` records rely on it, and the SDK and the workers have no
Django to translate with. A page translates it when it shows it: each shape the SDK, the sandbox and the referee
write (``bots_sdk/remote.py``, ``bots_sdk/local.py``, ``worker/sandbox/base.py``, ``worker/referee/``) and each
reason the engine gives for an illegal action (``Game.why_illegal``) is matched here and worded again; what a
bot itself said (an exception's message, a gRPC status's details) is quoted as it came. A detail of no known
shape is shown as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from arena.matches.cards import pretty
from arena.recognised import Shape, decimal, shapes, worded

_NUMBER = r"\d+(?:\.\d+)?"
_CARD = r"[2-9TJQKA][SHDC]"


FAULTS = shapes([
    (rf"no answer within (?P<seconds>{_NUMBER}) s", _("no answer within %(seconds)s s")),
    (rf"not SERVING within (?P<seconds>{_NUMBER}) s \((?P<last>.*)\)",
     _("not ready to play (SERVING) within %(seconds)s s (%(last)s)")),
    (r"the bot exited", _("the bot's process exited")),
    (rf"the bot did not listen within (?P<seconds>{_NUMBER}) s", _("the bot did not listen within %(seconds)s s")),
    (r"bot unreachable \((?P<code>\w+)\): (?P<said>.*)", _("the bot could not be reached (%(code)s): %(said)s")),
    (r"bot error: (?P<said>.*)", _("the bot failed: %(said)s")),
    (r"bot answered (?P<code>[A-Z_]+): (?P<said>.*)", _("the bot answered with the status %(code)s: %(said)s")),
    (r"the bot ended the stream instead of answering (?P<due>'\w+')",
     _("the bot ended the stream instead of answering %(due)s")),
    (r"the bot answered (?P<sent>'\w+'|None) where (?P<due>'\w+') was due",
     _("the bot answered %(sent)s where %(due)s was due")),
    (r"empty answer: ActResponse\.action is not set", _("an empty answer: ActResponse.action is not set")),
    (r"malformed action: (?P<said>.*)", _("a malformed action: %(said)s")),
    (r"choose_action returned (?P<value>.*), not an Action", _("choose_action returned %(value)s, not an action")),
    (r"could not start: (?P<said>.*)", _("could not start: %(said)s")),
    (r"(?P<socket>\S+): (?P<why>.*): refusing to connect", _("%(socket)s: %(why)s: the referee will not connect")),
    (rf"(?P<name>.+) made no move within (?P<seconds>{_NUMBER}) s \(left the table\?\)",
     _("%(name)s made no move within %(seconds)s s (left the table?)")),
])
"""How a bot broke the contract (timeout, crash, protocol), as the SDK, the sandbox and the referee word it."""

ILLEGAL = shapes([
    (r"the game is over", _("the game is over")),
    (r"seat (?P<seat>\d+) is not to act \(seat (?P<other>\d+) is\)",
     _("seat %(seat)s is not to act (seat %(other)s is)")),
    (r"not a legal action for seat (?P<seat>\d+) now", _("not a legal action for seat %(seat)s now")),
    (r"the main attacker must lead a card; passing is not allowed before the lead",
     _("the main attacker must lead a card; passing is not allowed before the lead")),
    (rf"seat (?P<seat>\d+) does not hold (?P<card>{_CARD})", _("seat %(seat)s does not hold %(card)s")),
    (r"no (?P<rank>\w+) is on the table: a throw-in must match a rank on the table",
     _("no %(rank)s is on the table: a throw-in must match a rank on the table")),
    (rf"(?P<card>{_CARD}) is not an unbeaten attack card on the table",
     _("%(card)s is not an unbeaten attack card on the table")),
    (rf"(?P<card>{_CARD}) does not beat (?P<target>{_CARD}) \(trump is (?P<trump>\w+)\)",
     _("%(card)s does not beat %(target)s (trump is %(trump)s)")),
    (r"L1: bout 1 already has (?P<count>\d+) attack cards \(first-bout limit (?P<limit>\d+)\)",
     _("the first bout already has %(count)s attack cards (its limit is %(limit)s)")),
    (r"L1: the bout already has (?P<count>\d+) attack cards \(limit (?P<limit>\d+)\)",
     _("the bout already has %(count)s attack cards (the limit is %(limit)s)")),
    (r"L2: the bout already has (?P<count>\d+) attack cards, the defender started it with (?P<held>\d+)",
     _("the bout already has %(count)s attack cards; the defender started it with %(held)s")),
    (r"L3: (?P<count>\d+) unbeaten cards, defender holds (?P<held>\d+)",
     _("%(count)s unbeaten cards, but the defender holds %(held)s")),
    (r"transfers are not allowed under these rules \(option transfer is off\)",
     _("transfers are not allowed under these rules (option transfer is off)")),
    (r"a transfer is only allowed before any attack card of the bout is beaten",
     _("a transfer is only allowed before any attack card of the bout is beaten")),
    (rf"(?P<card>{_CARD}) does not match the rank of every attack card on the table",
     _("%(card)s does not match the rank of every attack card on the table")),
    (r"nobody else is left to defend: a transfer needs another player to pass the attack to",
     _("nobody else is left to defend: a transfer needs another player to pass the attack to")),
    (r"the next player \(seat (?P<seat>\d+)\) holds (?P<held>\d+) cards, a transfer needs at least (?P<count>\d+)",
     _("the next player (seat %(seat)s) holds %(held)s cards, a transfer needs at least %(count)s")),
    (r"the table would hold (?P<count>\d+) attack cards, more than the bout allows",
     _("the table would hold %(count)s attack cards, more than the bout allows")),
    (r"the trump exchange is not allowed under these rules \(option trump_exchange is off\)",
     _("the trump exchange is not allowed under these rules (option trump_exchange is off)")),
    (rf"the turned-up card is already (?P<card>{_CARD})", _("the turned-up card is already %(card)s")),
    (r"the turned-up card has been drawn", _("the turned-up card has been drawn")),
    (rf"(?P<card>{_CARD}) has been on the table, it can no longer be exchanged",
     _("%(card)s has been on the table, it can no longer be exchanged")),
])
"""Why the engine refused an action (``Game.why_illegal``)."""

_ACTION = re.compile(rf"(?P<kind>attack|defend|transfer|take|pass|exchange)(?: (?P<card>{_CARD}))?"
                     rf"(?: (?P<target>{_CARD}))?: (?P<why>.*)", re.S)
_CRASH = re.compile(r"(?P<type>[A-Z]\w*(?:Error|Exception|Exit|Interrupt)): (?P<said>.*)", re.S)
_PREFIX = re.compile(r"(?P<name>[\w.@+-]+): (?P<rest>.*)", re.S)
SUITS = {"spades": pgettext_lazy("suit", "spades"), "hearts": pgettext_lazy("suit", "hearts"),
         "diamonds": pgettext_lazy("suit", "diamonds"), "clubs": pgettext_lazy("suit", "clubs")}
ACTIONS = {"attack": _("playing %(card)s"), "defend": _("beating %(target)s with %(card)s"),
           "transfer": _("transferring with %(card)s"), "take": _("taking the cards"), "pass": _("passing"),
           "exchange": _("exchanging the trump card")}
"""An action as the reader names it (the record writes ``defend 6S 9S``: the attack card, then its cover)."""


PARAMETERS: Mapping[str, Callable[[str], str]] = {
    "trump": lambda name: str(SUITS.get(name, name)),
    "rank": lambda letter: "10" if letter == "T" else letter,
    "card": pretty, "target": pretty,
    "seconds": decimal,
}
"""Parameters written for people: the trump suit's name, cards and ranks as the pages draw them, numbers with
the reader's decimal mark."""


def _word(known: list[Shape], text: str) -> str | None:
    return worded(known, text, PARAMETERS)


def why_illegal_text(why: str) -> str:
    """What ``Game.why_illegal`` said, in the reader's words (as said when of no known shape)."""
    return _word(ILLEGAL, why) or why


def illegal_text(detail: str) -> str | None:
    """``attack 6S: seat 0 does not hold 6S`` in the reader's words; None when it is not of that shape."""
    found = _ACTION.fullmatch(detail)
    if found is None:
        return None
    kind, card, target = found["kind"], found["card"], found["target"]
    if (card is None) != (kind in ("take", "pass", "exchange")) or (target is None) != (kind != "defend"):
        return None
    if card is None:
        action = str(ACTIONS[kind])
    elif target is None:
        action = str(ACTIONS[kind] % {"card": pretty(card)})
    else:  # the record writes "defend <attack card> <cover>": the cover beats the attack card
        action = str(ACTIONS[kind] % {"card": pretty(target), "target": pretty(card)})
    return str(_("%(action)s is not allowed: %(why)s") % {"action": action, "why": why_illegal_text(found["why"])})


def fault_text(detail: str) -> str:
    """A stored fault detail in the reader's language, the bot's own words kept; unknown shapes as stored.

    The referee puts the bot's name in front (``gentle: no answer within 1.0 s``); the local runner does not.
    """
    if not detail:
        return ""
    worded = _word(FAULTS, detail) or illegal_text(detail)
    if worded is not None:
        return worded
    crash = _CRASH.fullmatch(detail)
    if crash is not None:
        return str(_("the bot raised %(type)s: %(said)s") % crash.groupdict())
    named = _PREFIX.fullmatch(detail)
    if named is not None:
        rest = _word(FAULTS, named["rest"]) or illegal_text(named["rest"])
        if rest is not None:
            return f"{named['name']}: {rest}"
    return detail

