"""The tournaments' beat tasks: thin layers over the services (they run on the default queue, not the referees').

Every one is idempotent: beat may fire a one-off twice after a restart, and the
minute task overlaps the match-done hook by design.
"""

from __future__ import annotations

from celery import shared_task

from arena.tournaments.services import series_spawn, tournament_advance, tournaments_advance_due


@shared_task(name="arena.tournaments.start_tournament")
def start_tournament(tournament_id: int) -> str:
    """Beat's one-off at ``starts_at`` (and the creation form's "start now"): start, then open the first round."""
    return tournament_advance(tournament_id)


@shared_task(name="arena.tournaments.advance_tournaments")
def advance_tournaments() -> dict[str, str]:
    """Every minute: start due tournaments and advance running ones whose round is over (a lost hook's repair)."""
    return {str(pk): outcome for pk, outcome in tournaments_advance_due().items()}


@shared_task(name="arena.tournaments.spawn_tournament")
def spawn_tournament(series_id: int) -> int | None:
    """A series' crontab: its next tournament (the id), or None when skipped (the series' notes say why)."""
    tournament = series_spawn(series_id)
    return tournament.pk if tournament is not None else None
