"""Engine speed: random legal play through the public API, on one core.

    python tests/bench/engine_speed.py                      # 2, 4 and 6 players, classic
    python tests/bench/engine_speed.py --players 2 --seconds 10 --json
    DURAK_PURE_PYTHON=1 python tests/bench/engine_speed.py   # the pure-Python fallback of the native core
    python tests/bench/engine_speed.py --players 2 --players 4 --peer ../durak   # against the Python peer

Figures (docs/development.md, Benchmarks): ``games_per_s`` and ``decisions_per_s`` of
``Game.new`` + ``legal_actions()`` + ``random.choice`` + ``push`` until the end;
``step_us``, the time of ``legal_actions()`` plus ``push()`` alone per decision
(the choice subtracted); ``apply_us``, the same with the checked ``apply``;
``clone_us`` at mid-game positions. Machines differ by two times and more, so the
run also times ``bare_games_per_s``: a bare bitmask prototype of two-player
Durak with fewer rules (no history, no roles, no limits but six cards), the yard
stick the issue's figures were set against; compare the ratio, not the raw rate.
The prototype and the engine run in alternating half-second slices, and the
ratio per table size is the median over them: 5,000 games/s at 2 players and
2,000 at 4 against the prototype's 10,000 are ratios of 0.5 and 0.2.
Every time is this process's CPU time (``time.process_time``), not the wall clock's: on a shared
machine another process's work would otherwise land in whichever slice it overlapped.

``--peer DIR`` times the fastest Python peer the issue measured in the same slices:
jorisperrenet/durak (MIT), a clone of https://github.com/jorisperrenet/durak in DIR, imported from
DIR/python_version and never copied here. Its games are whole games of its ``Random`` players, the
deck shuffled by the program (``computer_shuffle``), nothing printed; it draws from the module
``random``, seeded here. ``x_peer`` per table size is the median over the slices of the engine's
rate over the peer's in the neighbouring slice: the issue asks for 10 at 2 and at 4 players.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bots_sdk.engine import PLAYER_COUNTS, Game, Rules
from bots_sdk.native import engine_build

clock = time.process_time
"""Seconds of CPU time of this process: the play of one core, whatever else the machine runs."""


def random_play(
    rules: Rules, seconds: float, checked: bool = False, rng: random.Random | None = None
) -> dict[str, float]:
    """Random play for ``seconds``; pass ``rng`` to go on with its games rather than replay seed 1's."""
    rng = rng or random.Random(1)
    choice = rng.choice
    games = decisions = 0
    started = clock()
    deadline = started + seconds
    while clock() < deadline:
        game = Game.new(rules, rng)
        step = game.apply if checked else game.push
        while not game.is_over():
            step(choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = clock() - started
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


def choice_us(samples: int = 200_000) -> float:
    """What ``random.choice`` over a typical legal list costs, to take it out of the step figure."""
    rng = random.Random(2)
    legal = Game.new(Rules.preset("classic", players=2), 1).legal_actions()
    started = clock()
    for _ in range(samples):
        rng.choice(legal)
    return (clock() - started) / samples * 1e6


def new_game_us(rules: Rules, samples: int = 3000) -> float:
    rng = random.Random(3)
    started = clock()
    for _ in range(samples):
        Game.new(rules, rng)
    return (clock() - started) / samples * 1e6


def clone_us(rules: Rules, positions: int = 200, repeats: int = 200) -> float:
    rng = random.Random(4)
    games = []
    for i in range(positions):
        game = Game.new(rules, i)
        for _ in range(rng.randrange(5, 40)):
            if game.is_over():
                break
            game.push(rng.choice(game.legal_actions()))
        games.append(game)
    started = clock()
    for _ in range(repeats):
        for game in games:
            game.clone()
    return (clock() - started) / (positions * repeats) * 1e6


def bare_games_per_s(seconds: float) -> float:
    """The yardstick: two-player Durak in bare bitmasks, random choices, fewer rules."""
    rng = random.Random(1)
    deck0 = [s * 16 + r for s in range(4) for r in range(6, 15)]
    games = 0
    started = clock()
    while clock() - started < seconds:
        deck = deck0[:]
        rng.shuffle(deck)
        trump = deck[12] >> 4
        trumps = 0xFFFF << (trump * 16)
        hands = [0, 0]
        for i in range(12):
            hands[i & 1] |= 1 << deck[i]
        stock = [*deck[13:], deck[12]]
        drawn = 0
        attacker = 0
        while True:
            defender = 1 - attacker
            table = ranks = count = 0
            taken = False
            while True:
                options = hands[attacker] if count == 0 else (hands[attacker] & ranks if count < 6 else 0)
                cards = []
                while options:
                    low = options & -options
                    cards.append(low.bit_length() - 1)
                    options ^= low
                if count:
                    cards.append(-1)
                if not cards:
                    break
                card = cards[rng.randrange(len(cards))]
                if card < 0:
                    break
                hands[attacker] ^= 1 << card
                table |= 1 << card
                ranks |= (1 << (card & 15)) * 0x0001_0001_0001_0001
                count += 1
                if taken:
                    continue
                suit = card >> 4
                higher = (0xFFFF << (suit * 16)) & ~((2 << card) - 1)
                beaters = hands[defender] & (higher | (trumps if suit != trump else 0))
                cards = []
                while beaters:
                    low = beaters & -beaters
                    cards.append(low.bit_length() - 1)
                    beaters ^= low
                cards.append(-1)
                cover = cards[rng.randrange(len(cards))]
                if cover < 0:
                    taken = True
                    continue
                hands[defender] ^= 1 << cover
                table |= 1 << cover
                ranks |= (1 << (cover & 15)) * 0x0001_0001_0001_0001
            if taken:
                hands[defender] |= table
            for seat in (attacker, defender):
                while hands[seat].bit_count() < 6 and drawn < len(stock):
                    hands[seat] |= 1 << stock[drawn]
                    drawn += 1
            if drawn >= len(stock) and (not hands[0] or not hands[1]):
                break
            attacker = attacker if taken else defender
        games += 1
    return games / (clock() - started)


PeerPlay = Callable[[int, float], float]
"""The peer's random play: table size and seconds -> its games per second."""


def load_peer(clone: Path) -> PeerPlay:
    """jorisperrenet/durak's Python version from its clone: ``GameTree`` played by its ``Random`` players.

    Its modules import each other by bare names (``from tools import Card``), so its folder goes on
    ``sys.path``; nothing of ours shares those names. Its players choose with the module ``random``,
    which nothing else here uses: seeded once, the run's peer games are reproducible."""
    folder = clone / "python_version"
    if not (folder / "main.py").is_file():
        sys.exit(f"--peer {clone}: no python_version/main.py there "
                 "(git clone https://github.com/jorisperrenet/durak DIR)")
    sys.path.insert(0, str(folder))
    peer_main = importlib.import_module("main")
    peer_players = importlib.import_module("players")
    random.seed(1)

    def play(players: int, seconds: float) -> float:
        names = [f"seat{i}" for i in range(players)]
        games = 0
        started = clock()
        deadline = started + seconds
        while clock() < deadline:
            # ``main_attacker`` is a name; ``print_info=False`` with ``computer_shuffle`` prints nothing.
            game = peer_main.GameTree([peer_players.Random(name) for name in names], True, names[0],
                                      print_info=False)
            while not game.is_end_state:
                game.next()
            games += 1
        return games / (clock() - started)

    return play


class Paired:
    """One table size's slices: the engine's games/s and, beside each, the prototype's and the peer's."""

    def __init__(self) -> None:
        self.engine: list[float] = []
        self.bare: list[float] = []
        self.peer: list[float] = []

    def figures(self) -> dict[str, float | None]:
        median = statistics.median
        measured = bool(self.peer)
        return {
            "games_per_s": round(median(self.engine), 1),
            "ratio_to_bare": round(median(e / b for e, b in zip(self.engine, self.bare)), 3),
            "peer_games_per_s": round(median(self.peer), 1) if measured else None,
            "x_peer": round(median(e / p for e, p in zip(self.engine, self.peer)), 2) if measured else None,
        }


def paired_ratios(preset: str, sizes: list[int], seconds: float, peer: PeerPlay | None) -> dict[int, Paired]:
    """Engine, prototype and peer in alternating half-second slices: the ratios survive a noisy machine.

    The ratios are medians over the slices of the engine's rate over the neighbouring slice's.
    Every slice plays new games: replaying the same ones would flatter the engine's memos of
    legal actions."""
    slices = {players: Paired() for players in sizes}
    rngs = {players: random.Random(players) for players in sizes}
    for _ in range(max(2, int(seconds))):
        for players in sizes:
            paired = slices[players]
            paired.engine.append(
                random_play(Rules.preset(preset, players=players), 0.5, rng=rngs[players])["games_per_s"]
            )
            paired.bare.append(bare_games_per_s(0.5))
            if peer is not None:
                paired.peer.append(peer(players, 0.5))
    return slices


def measure(players: int, seconds: float, preset: str) -> dict[str, float]:
    rules = Rules.preset(preset, players=players)
    play = random_play(rules, seconds)
    checked = random_play(rules, seconds / 2, checked=True)
    choice = choice_us()
    per_game_setup = new_game_us(rules)
    overhead = choice + per_game_setup / play["decisions_per_game"]
    return {
        "players": players,
        "games_per_s": round(play["games_per_s"], 1),
        "decisions_per_s": round(play["decisions_per_s"]),
        "decisions_per_game": round(play["decisions_per_game"], 1),
        "step_us": round(1e6 / play["decisions_per_s"] - overhead, 2),
        "apply_us": round(1e6 / checked["decisions_per_s"] - overhead, 2),
        "new_game_us": round(per_game_setup, 1),
        "clone_us": round(clone_us(rules), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, action="append", help="table size (repeatable; default 2, 4, 6)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of play per table size")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    parser.add_argument("--peer", type=Path, metavar="DIR",
                        help="a clone of github.com/jorisperrenet/durak: time its random play in the slices too")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.players = 0.2, [2]
    peer = load_peer(args.peer) if args.peer else None
    sizes = args.players or [n for n in (2, 4, 6) if n in PLAYER_COUNTS[args.preset]]
    rows = []
    for players in sizes:
        print(f"measuring {args.preset} with {players} players for {args.seconds:.0f} s ...", file=sys.stderr)
        rows.append(measure(players, args.seconds, args.preset))
    print("engine, prototype and peer in alternating slices ...", file=sys.stderr)
    slices = paired_ratios(args.preset, sizes, args.seconds, peer)
    bare = statistics.median(b for size in slices.values() for b in size.bare)
    paired = {players: size.figures() for players, size in slices.items()}
    header = ["players", "games_per_s", "decisions_per_s", "decisions_per_game", "step_us", "apply_us",
              "new_game_us", "clone_us"]
    print(f"engine build: {engine_build()} (DURAK_PURE_PYTHON=1 runs the pure-Python fallback)")
    print(" ".join(f"{h:>18}" for h in header))
    for row in rows:
        print(" ".join(f"{row[h]:>18}" for h in header))
    print(f"\nbare two-player bitmask prototype: {bare:,.0f} games/s; in the slices between:")
    print(f"{'players':>8} {'games_per_s':>12} {'ratio_to_bare':>14} {'peer_games_per_s':>17} {'x_peer':>7}")
    for players, figures_of in paired.items():
        print(" ".join(f"{'-' if value is None else value:>{width}}" for value, width in
                       zip([players, *figures_of.values()], (8, 12, 14, 17, 7))))
    if peer is None:
        print("the peer (jorisperrenet/durak) was not measured: --peer DIR with a clone of it")
    if args.json:
        figures: dict[str, object] = dict(rows[0]) if len(rows) == 1 else {"rows": rows}
        figures["engine"] = engine_build()
        figures["bare_games_per_s"] = round(bare, 1)
        figures["peer"] = "jorisperrenet/durak" if peer is not None else None
        figures["paired"] = {str(players): figures_of for players, figures_of in paired.items()}
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
