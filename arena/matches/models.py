"""Matches, their games and each seat's part in a game.

A ``Match`` is claimed by exactly one worker (conditional update on ``status``
and ``task_id``) and its games are stored in one transaction with the match's
end, so a page never shows half a match. ``Game`` copies the match's preset,
table size and ratedness so the rating fit and the statistics read one table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from arena.bots.models import BotVersion


class Match(models.Model):
    class Kind(models.TextChoices):
        ADMISSION = "admission", _("admission")
        LADDER = "ladder", _("ladder")
        CHALLENGE = "challenge", _("challenge")
        TOURNAMENT = "tournament", _("tournament")
        SPRT = "sprt", _("strength test")
        TABLE = "table", _("table (people and bots)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")
        """Never played: its tournament or strength test ended, or its entrant withdrew, while it was queued."""

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    deals = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    rated = models.BooleanField(default=False)
    move_s = models.FloatField()
    bank_s = models.FloatField()
    start_s = models.FloatField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True, help_text="The Celery task that holds the claim.")
    worker = models.CharField(max_length=255, blank=True)
    error = models.TextField(blank=True, help_text="Why it failed, in full (exception, traceback): for staff only.")
    public_error = models.CharField(
        max_length=500, blank=True, help_text="Why it failed in words for authors and public pages: no host details."
    )
    author_error = models.TextField(
        blank=True, help_text="Why it failed for the authors of its bots only (a build's output); never on a page: "
                              "the admission passes it to its version's author."
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the running match is overdue (set at each claim; the reaper reads it)."
    )
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Claims so far (workers that took it).")
    reaped = models.PositiveSmallIntegerField(default=0, help_text="Times the reaper took it back from a worker.")

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "created"], name="match_status_created"),
            models.Index(fields=["-finished"], name="match_finished"),
            models.Index(fields=["status", "deadline"], name="match_status_deadline"),
        ]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk} ({self.kind}, {self.preset} {self.players}p)"


def _person_at(match: Match, seat: int) -> str:
    """Who sat in ``seat`` of a browser table's stored match: their account, the name they gave, or "guest"."""
    table = getattr(match, "table", None)  # arena.tables' Table, once the table's game is stored
    person = table.seats.filter(seat=seat).select_related("user").first() if table is not None else None
    if person is None:
        return pgettext("table seat", "guest")
    return person.user.get_username() if person.user is not None else person.name or pgettext("table seat", "guest")


class MatchEntry(models.Model):
    """A bot version of a match, in spec order; rotations move entries over the seats."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    index = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="match_entries")
    games = models.PositiveIntegerField(default=0)
    duraks = models.PositiveIntegerField(default=0)
    faults = models.PositiveIntegerField(default=0, help_text="Games lost by timeout, crash, illegal or protocol.")

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="unique_match_entry")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.index}: {self.version}"

    @property
    def person(self) -> str | None:
        """For a person's seat at a browser table, their name (or "guest"); None for a bot."""
        return _person_at(self.match, self.index) if self.version.is_person else None


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(help_text="Order within the match, from 0.")
    deal = models.PositiveIntegerField()
    rotation = models.PositiveSmallIntegerField()
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    durak_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    draw = models.BooleanField(default=False)
    reason = models.CharField(max_length=16)
    offender_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.TextField(blank=True)
    decisions = models.PositiveIntegerField(default=0)
    bouts = models.PositiveIntegerField(default=0)
    first_attacker = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat of the first attack.")
    record = models.JSONField(help_text="The durak-game/1 record.")
    finished = models.DateTimeField()

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_game_number")]
        indexes = [models.Index(fields=["preset", "players", "rated"], name="game_ladder")]

    def __str__(self) -> str:
        return f"game {self.pk} (match {self.match_id} #{self.number})"


class GameSeat(models.Model):
    """One seat of one game: who sat there, how it went, and how fast it answered."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="game_seats")
    durak = models.BooleanField(default=False)
    out_position = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = first out.")
    start_trumps = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Trumps in the dealt hand.")
    offender = models.BooleanField(default=False)
    decisions = models.PositiveIntegerField(default=0)
    ms_mean = models.FloatField(null=True, blank=True)
    ms_p95 = models.FloatField(null=True, blank=True)
    ms_max = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat")]
        indexes = [models.Index(fields=["version", "game"], name="seat_version_game")]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat}: {self.version_id}"

    @property
    def person(self) -> str | None:
        """For a person's seat at a browser table, their name (or "guest"); None for a bot."""
        return _person_at(self.game.match, self.seat) if self.version.is_person else None

    @property
    def name(self) -> str:
        """The seat as a page names it: the bot, or the person."""
        return self.person or self.version.bot.name


class PairTally(models.Model):
    """Games two versions shared, kept up to date as matches are stored (one row per ordered pair).

    The bot page's "results per opponent" reads these few rows instead of joining
    every seat of every game the bot ever played, which grows without bound.
    """

    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="pair_tallies")
    opponent = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    duraks = models.PositiveIntegerField(default=0, help_text="Games of the pair in which ``version`` was durak.")
    opponent_duraks = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["version", "opponent"], name="unique_pair_tally")]

    def __str__(self) -> str:
        return f"{self.version_id} vs {self.opponent_id}: {self.games}"
