"""Tournaments: their entrants, rounds, tables (one match each), and recurring series.

A tournament plays its tables as ordinary ``Match`` rows of kind
``tournament``, so the referee, the storage, the ratings (when rated) and the
match pages need nothing of their own; the standings are read from the stored
games. Rounds are created as the tournament advances (a round robin plans all of
them at the start, Swiss and knockout one at a time), and the unique
constraints below are what stop a second advance from scheduling twice: one
round per number, one table per number, one table per match, one seat per entry.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_celery_beat import validators as cron

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match
from arena.notices import parsed
from arena.tournaments.formats import MAX_DEALS, MAX_ROUNDS, MAX_TABLE, MIN_TABLE, settings_error
from bots_sdk.engine import PRESETS, Rules


def new_seed() -> str:
    """The tournament's seed: every match seed derives from it, so a schedule can be replayed exactly."""
    return secrets.token_hex(8)


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("round robin")
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("knockout")


class TournamentSettings(models.Model):
    """What a tournament plays; shared by a tournament and the series that spawns tournaments."""

    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ROUND_ROBIN)
    preset = models.CharField(max_length=16, choices=[(p, p) for p in PRESETS], default="classic")
    players = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(MIN_TABLE), MaxValueValidator(MAX_TABLE)], help_text="Table size."
    )
    deals = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS)],
        help_text="Deals per table; each is played in every seat rotation (a duplicate set).",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
        help_text="Swiss only: how many rounds.",
    )
    rated = models.BooleanField(default=False, help_text="Its games count on the ladder of this preset and size.")

    class Meta:
        abstract = True

    def clean(self) -> None:
        problem = settings_error(self.format, self.preset, self.players, self.deals, self.rounds)
        if problem:
            raise ValidationError(problem)


class TournamentSeries(TournamentSettings):
    """A recurring tournament: on its crontab, beat spawns a tournament of the series' bots' active versions."""

    name = models.CharField(max_length=100, unique=True)
    bots = models.ManyToManyField(
        Bot, blank=True, related_name="+", help_text="Whose active versions enter; none chosen: every active bot."
    )
    minute = models.CharField(max_length=64, default="0", validators=[cron.minute_validator])
    hour = models.CharField(max_length=64, default="3", validators=[cron.hour_validator])
    day_of_week = models.CharField(max_length=64, default="*", validators=[cron.day_of_week_validator])
    day_of_month = models.CharField(max_length=64, default="*", validators=[cron.day_of_month_validator])
    month_of_year = models.CharField(max_length=64, default="*", validators=[cron.month_of_year_validator])
    enabled = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    last_spawned = models.DateTimeField(null=True, blank=True)
    notes = models.TextField(blank=True, help_text="Why the last spawn was skipped, if it was.")

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "tournament series"

    def __str__(self) -> str:
        return self.name

    @property
    def crontab_text(self) -> str:
        return f"{self.minute} {self.hour} {self.day_of_month} {self.month_of_year} {self.day_of_week}"


class Tournament(TournamentSettings):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(max_length=100)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True)
    seed = models.CharField(max_length=32, default=new_seed, help_text="Every match seed derives from it.")
    series = models.ForeignKey(
        TournamentSeries, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    starts_at = models.DateTimeField(help_text="Beat starts it then (a one-off clocked task).")
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True, help_text="Why it was cancelled or stopped early.")
    notes = models.TextField(blank=True, help_text="What happened on the way: failed matches, withdrawals, seeds.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(players__gte=MIN_TABLE, players__lte=MAX_TABLE),
                                   name="tournament_table_size"),
            models.CheckConstraint(condition=models.Q(deals__gte=1), name="tournament_deals"),
            models.CheckConstraint(condition=~models.Q(format="swiss") | models.Q(rounds__gte=1),
                                   name="tournament_swiss_rounds"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def live(self) -> bool:
        return self.status in (self.Status.SCHEDULED, self.Status.RUNNING)

    @property
    def sides(self) -> int:
        """Entrants at one table: ``players``, or under a team preset one a team (each plays its whole team)."""
        return Rules.preset(self.preset, self.players).sides


class TournamentEntry(models.Model):
    """A bot version in a tournament; ``seed`` 1 is the top seed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="tournament_entries")
    seed = models.PositiveSmallIntegerField()
    seed_rating = models.FloatField(null=True, blank=True, help_text="The rating it was seeded by.")
    seed_note = models.CharField(max_length=200, blank=True, help_text="Where the seed came from.")
    withdrawn = models.BooleanField(default=False)
    withdrawn_reason = models.CharField(max_length=500, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_round = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The round it was in then.")
    byes = models.PositiveSmallIntegerField(default=0, help_text="Swiss rounds it sat out.")
    bye_points = models.PositiveIntegerField(default=0, help_text="Swiss: an average table's points per bye.")
    eliminated_round = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Knockout: out in round.")

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="unique_tournament_version"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="unique_tournament_seed"),
        ]

    def __str__(self) -> str:
        return f"#{self.seed} {self.version}"

    @property
    def seeded_by_staff(self) -> bool:
        """Whether staff set this seed (``seed_note`` says so, as a notice or, written before notices, in English)."""
        note = parsed(self.seed_note)
        return note.code == "seed.staff" if note is not None else self.seed_note == "set by staff"


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tournament_rounds")
    number = models.PositiveSmallIntegerField(help_text="From 1.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)
    byes = models.ManyToManyField(TournamentEntry, blank=True, related_name="bye_rounds",
                                  help_text="Entrants who sit this round out (Swiss) or go on without playing "
                                            "(knockout).")
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_tournament_round")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class TournamentTable(models.Model):
    """One table of a round: its entrants (``seats``) and the one match it plays."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        PLAYING = "playing", _("playing")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped (an entrant withdrew)")
        CANCELLED = "cancelled", _("cancelled (with the tournament)")

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="From 1, within the round.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    deals = models.PositiveSmallIntegerField()
    advance = models.PositiveSmallIntegerField(default=1, help_text="Knockout: how many of the table go on.")
    tiebreak_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="tiebreaks",
        help_text="Knockout: the table whose tie this extra deal breaks.",
    )
    notes = models.TextField(blank=True)
    out_positions = models.JSONField(
        default=dict, blank=True,
        help_text="Per game (pk): each seat's out position, seats out in the same bout sharing it (from a replay "
                  "of the record when the table was done; a game missing here keeps the record's order).",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_round_table")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class TournamentSeat(models.Model):
    """An entrant at a table; ``position`` is its place in the match spec (the referee rotates the seats)."""

    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(TournamentEntry, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Knockout: its rank at the table.")
    advanced = models.BooleanField(default=False, help_text="Knockout: went on to the next round.")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "entry"], name="unique_table_entry"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_table_position"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.entry}"
