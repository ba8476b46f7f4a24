"""The analysis of a stored game (``bots_sdk.analysis.review``): its verdicts and, per seat, what they cost."""

from __future__ import annotations

from django.db import models

from arena.bots.models import BotVersion
from arena.matches.models import Game


class GameAnalysis(models.Model):
    """One game's analysis, from queued to done (or failed, with the reason)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    class Priority(models.IntegerChoices):
        """Which waiting analysis a worker takes first: a person waiting on the page, then rated ladder games."""

        REQUESTED = 0, "requested"
        RATED = 1, "rated"
        OTHER = 2, "other"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    priority = models.PositiveSmallIntegerField(choices=Priority.choices, default=Priority.OTHER)
    decisions = models.PositiveIntegerField(default=0, help_text="Decisions to rate (the record's actions).")
    done = models.PositiveIntegerField(default=0, help_text="Decisions rated so far: the progress.")
    reviews = models.JSONField(default=list, help_text="One verdict a decision (Review.to_dict()).")
    exact_from = models.PositiveIntegerField(null=True, blank=True, help_text="First step with an exact value.")
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker took it since it was queued; past ARENA_ANALYSIS_ATTEMPTS it fails.")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "priority", "created"])]
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"

    @property
    def flagged_seats(self) -> list[AnalysedSeat]:
        """The seats with a mistake or an inaccuracy, by seat."""
        return [s for s in self.seats.all() if s.mistakes or s.inaccuracies]


class AnalysedSeat(models.Model):
    """What one seat's decisions gave away in an analysed game: a bot page lists its costliest games."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="analysed_seats")
    mistakes = models.PositiveIntegerField(default=0)
    inaccuracies = models.PositiveIntegerField(default=0)
    cost = models.FloatField(default=0.0, help_text="The sum of what its flagged decisions gave away (points).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["analysis", "seat"], name="analysed_seat_once")]
        indexes = [models.Index(fields=["version", "-cost"])]
