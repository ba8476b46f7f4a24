"""Writes of the tournaments app."""


def tournament_match_done(match_id: int) -> None:
    """Called after a match is stored or has failed (ARENA_MATCH_DONE_HOOKS)."""
