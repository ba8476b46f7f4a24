"""Engine speed: random legal play through the public API, on one core.

    python tests/bench/engine_speed.py                      # 2, 4 and 6 players, classic
    python tests/bench/engine_speed.py --players 2 --seconds 10 --json
    DURAK_PURE_PYTHON=1 python tests/bench/engine_speed.py   # the pure-Python fallback of the native core

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
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from bots_sdk.engine import PLAYER_COUNTS, Game, Rules
from bots_sdk.native import engine_build


def random_play(
    rules: Rules, seconds: float, checked: bool = False, rng: random.Random | None = None
) -> dict[str, float]:
    """Random play for ``seconds``; pass ``rng`` to go on with its games rather than replay seed 1's."""
    rng = rng or random.Random(1)
    choice = rng.choice
    games = decisions = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        game = Game.new(rules, rng)
        step = game.apply if checked else game.push
        while not game.is_over():
            step(choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


def choice_us(samples: int = 200_000) -> float:
    """What ``random.choice`` over a typical legal list costs, to take it out of the step figure."""
    rng = random.Random(2)
    legal = Game.new(Rules.preset("classic", players=2), 1).legal_actions()
    started = time.perf_counter()
    for _ in range(samples):
        rng.choice(legal)
    return (time.perf_counter() - started) / samples * 1e6


def new_game_us(rules: Rules, samples: int = 3000) -> float:
    rng = random.Random(3)
    started = time.perf_counter()
    for _ in range(samples):
        Game.new(rules, rng)
    return (time.perf_counter() - started) / samples * 1e6


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
    started = time.perf_counter()
    for _ in range(repeats):
        for game in games:
            game.clone()
    return (time.perf_counter() - started) / (positions * repeats) * 1e6


def bare_games_per_s(seconds: float) -> float:
    """The yardstick: two-player Durak in bare bitmasks, random choices, fewer rules."""
    rng = random.Random(1)
    deck0 = [s * 16 + r for s in range(4) for r in range(6, 15)]
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
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
    return games / (time.perf_counter() - started)


def paired_ratios(preset: str, sizes: list[int], seconds: float) -> tuple[float, dict[int, tuple[float, float]]]:
    """Engine and prototype in alternating half-second slices: the ratio survives a noisy machine.

    Returns the prototype's games/s and, per table size, the engine's games/s and its ratio to
    the prototype (medians over the slices). Every slice plays new games: replaying the same
    ones would flatter the engine's memos of legal actions."""
    bares: list[float] = []
    slices: dict[int, list[tuple[float, float]]] = {players: [] for players in sizes}
    rngs = {players: random.Random(players) for players in sizes}
    for _ in range(max(2, int(seconds))):
        for players in sizes:
            engine = random_play(Rules.preset(preset, players=players), 0.5, rng=rngs[players])["games_per_s"]
            bare = bare_games_per_s(0.5)
            bares.append(bare)
            slices[players].append((engine, engine / bare))
    return statistics.median(bares), {
        players: (statistics.median(e for e, _ in pairs), statistics.median(r for _, r in pairs))
        for players, pairs in slices.items()
    }


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
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.players = 0.2, [2]
    sizes = args.players or [n for n in (2, 4, 6) if n in PLAYER_COUNTS[args.preset]]
    rows = []
    for players in sizes:
        print(f"measuring {args.preset} with {players} players for {args.seconds:.0f} s ...", file=sys.stderr)
        rows.append(measure(players, args.seconds, args.preset))
    print("engine and prototype in alternating slices ...", file=sys.stderr)
    bare, paired = paired_ratios(args.preset, sizes, args.seconds)
    header = ["players", "games_per_s", "decisions_per_s", "decisions_per_game", "step_us", "apply_us",
              "new_game_us", "clone_us"]
    print(f"engine build: {engine_build()} (DURAK_PURE_PYTHON=1 runs the pure-Python fallback)")
    print(" ".join(f"{h:>18}" for h in header))
    for row in rows:
        print(" ".join(f"{row[h]:>18}" for h in header))
    print(f"\nbare two-player bitmask prototype: {bare:,.0f} games/s; the engine in the slices between:")
    for players, (engine, ratio) in paired.items():
        print(f"  {players} players: {engine:,.0f} games/s = {ratio:.2f} x prototype")
    if args.json:
        figures: dict[str, object] = dict(rows[0]) if len(rows) == 1 else {"rows": rows}
        figures["engine"] = engine_build()
        figures["bare_games_per_s"] = round(bare, 1)
        figures["paired"] = {
            str(players): {"games_per_s": round(engine, 1), "ratio_to_bare": round(ratio, 3)}
            for players, (engine, ratio) in paired.items()
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
