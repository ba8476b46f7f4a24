"""The matchmaker's own bookkeeping: what it scheduled for each version, and when each version last played.

Both tables are denormalised on purpose. A scheduling pass runs every minute
and must not aggregate the whole match history (it grows without bound); these
rows hold one line per version (and ladder), so a pass reads a few hundred
rows whatever the arena's age. ``LadderSlot`` is written by the pass itself when
it creates a match; ``VersionPlay`` is caught up by the pass from the rated
matches finished since its newest row (the ``match_finished`` index makes that a
short range scan), so it also sees admission and other rated matches.
"""

from __future__ import annotations

from django.db import models

from arena.bots.models import BotVersion
from arena.ratings.models import Ladder


class LadderSlot(models.Model):
    """Ladder matches the matchmaker created with this version on this ladder (a version that has none is new
    to the ladder and is seeded first)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="matchmaking_slots")
    matches = models.PositiveIntegerField(default=0)
    last_scheduled = models.DateTimeField()

    class Meta:
        ordering = ["ladder", "version"]
        constraints = [models.UniqueConstraint(fields=["ladder", "version"], name="unique_ladder_slot")]

    def __str__(self) -> str:
        return f"{self.version_id} on {self.ladder_id}: {self.matches} matches"


class VersionPlay(models.Model):
    """When the version last finished a rated match of any kind (admission included)."""

    version = models.OneToOneField(BotVersion, on_delete=models.CASCADE, primary_key=True,
                                   related_name="matchmaking_play")
    last_played = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-last_played"]

    def __str__(self) -> str:
        return f"{self.version_id} last played {self.last_played:%Y-%m-%d %H:%M}"
