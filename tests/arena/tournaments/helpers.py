"""Finishing tournament matches by hand: results through ``match_store_result`` and the match-done hook."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.matches.models import Match
from arena.matches.services import match_claim, match_fail, match_store_result
from arena.tournaments.models import Tournament, TournamentTable
from arena.tournaments.services import tournament_match_done
from worker.referee.match import GameResult


def results(match: Match, losers: Sequence[int | None], faults: Sequence[int] = (),
            outs: Sequence[Sequence[int]] = ()) -> list[GameResult]:
    """Game g of ``match`` (deal g // n, rotation g % n) is lost by spec index ``losers[g]`` (None: a draw);
    the games numbered in ``faults`` are lost by a timeout, recorded as the referee records a forfeit; ``outs[g]``
    lists the spec indices in the order they went out (the record's ``out_order``, in seats)."""
    n = match.players
    assert len(losers) == match.deals * n, f"{len(losers)} results for {match.deals * n} games"
    out: list[GameResult] = []
    for g, loser in enumerate(losers):
        deal, rotation = divmod(g, n)
        seats = tuple((s + rotation) % n for s in range(n))
        durak = None if loser is None else seats.index(loser)
        fault = loser is not None and g in faults
        reason = "timeout" if fault else "normal"
        record = {"format": "durak-game/1", "seats": [{"bot": f"b{i}", "version": "1"} for i in seats], "actions": [],
                  "result": {"durak": durak, "draw": loser is None, "reason": reason,
                             "out_order": [seats.index(i) for i in outs[g]] if outs else []}}
        out.append(GameResult(deal=deal, rotation=rotation, seats=seats, durak=durak, draw=loser is None,
                              reason=reason, offender=durak if fault else None,
                              detail="no answer within 1.0 s" if fault else "", record=record))
    return out


def finish(match: Match, losers: Sequence[int | None], faults: Sequence[int] = (),
           outs: Sequence[Sequence[int]] = ()) -> None:
    """Store ``match`` as played with these results, then call the hook as the match task does."""
    claimed = match_claim(match_id=match.pk, task_id=f"fake-{match.pk}", worker="test")
    assert claimed is not None, f"match {match.pk} could not be claimed"
    assert match_store_result(match=claimed, task_id=f"fake-{match.pk}",
                              results=results(match, losers, faults, outs))
    tournament_match_done(match.pk)


def fail(match: Match, error: str = "build: requirements did not install") -> None:
    claimed = match_claim(match_id=match.pk, task_id=f"fake-{match.pk}", worker="test")
    assert claimed is not None
    match_fail(match=claimed, task_id=f"fake-{match.pk}", error=error, public_error=error)
    tournament_match_done(match.pk)


def playing(tournament: Tournament) -> list[TournamentTable]:
    """The tables whose match waits to be played, in round and table order."""
    return list(
        TournamentTable.objects.filter(round__tournament=tournament, status=TournamentTable.Status.PLAYING)
        .select_related("match", "round").order_by("round__number", "number")
    )


def spec_versions(match: Match) -> list[int]:
    return list(match.entries.order_by("index").values_list("version_id", flat=True))


def by_strength(match: Match, strength: Mapping[int, int]) -> list[int | None]:
    """Results in strength order (``strength`` by version id, higher is stronger): the i-th weakest of k is durak
    in k-1-i games, the rest of the games go to the weakest; so with deals >= (k-1)/2 nobody ties."""
    versions = spec_versions(match)
    order = sorted(range(len(versions)), key=lambda i: strength[versions[i]])
    games = match.deals * match.players
    ranked = [i for rank, i in enumerate(order) for _ in range(len(order) - 1 - rank)][:games]
    losers: list[int | None] = [*ranked, *[order[0]] * (games - len(ranked))]
    return losers


def finish_by_strength(tournament: Tournament, strength: Mapping[int, int]) -> int:
    """Finish every playing table with ``by_strength`` results; how many tables it finished."""
    tables = playing(tournament)
    for table in tables:
        assert table.match is not None
        finish(table.match, by_strength(table.match, strength))
    return len(tables)


def run_to_end(tournament: Tournament, strength: Mapping[int, int], limit: int = 200) -> None:
    """Finish rounds (``finish_by_strength``) until nothing is left to play."""
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING or not finish_by_strength(tournament, strength):
            return
    raise AssertionError("the tournament did not end")
