"""Tables: rooms where people sit with bots for one unrated game, reachable by a link.

The game's whole state is its deal (``preset``, ``players``, ``seed``) plus the
decisions so far (``actions``): the engine is deterministic, so the page rebuilds
any seat's view from them, and a worker that takes over a stalled table resumes
from them. ``version`` grows with every change a page must see, so a poll that
finds it unchanged costs one indexed read. A person's seat is theirs by a token
kept in their browser's session (or by their account), which is how the same
browser gets its seat back after a reload.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from arena.bots.models import BotVersion
from arena.matches.models import Match


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        QUEUED = "queued", _("starting")
        RUNNING = "running", _("playing")
        DONE = "done", _("finished")
        FAILED = "failed", _("failed")

    key = models.CharField(max_length=16, unique=True, help_text="The table's link: /tables/KEY/.")
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, help_text="The deal is Game.new(rules, seed).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    move_s = models.FloatField(help_text="A person's time per decision (s).")
    bank_s = models.FloatField(help_text="A person's time bank for the game (s).")
    version = models.PositiveIntegerField(default=0, help_text="Grows with every change the page must show.")
    actions = models.JSONField(default=list, blank=True, help_text="The decisions so far: [seat, action, ms].")
    result = models.JSONField(null=True, blank=True, help_text="The outcome, once the game is over.")
    turn_deadline = models.DateTimeField(null=True, blank=True, help_text="When the person to act runs out of time.")
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="table",
        help_text="The stored game (an unrated match of kind 'table'), once finished.",
    )
    task_id = models.CharField(max_length=64, blank=True, help_text="The Celery task that holds the game.")
    worker = models.CharField(max_length=255, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True, help_text="When its worker (or the queue) was last heard.")
    kicked = models.DateTimeField(null=True, blank=True, help_text="When the table was last handed to a worker again.")
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the running game is overdue: its time limit (the reaper fails it)."
    )
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "-created"], name="table_status_created")]

    def __str__(self) -> str:
        return f"table {self.key} ({self.preset} {self.players}p, {self.status})"

    @property
    def is_live(self) -> bool:
        """Not over yet: the page keeps polling."""
        return self.status in (self.Status.OPEN, self.Status.QUEUED, self.Status.RUNNING)


class TableSeat(models.Model):
    """One seat: a person (claimed by a browser's token or an account) or a bot version."""

    class Kind(models.TextChoices):
        HUMAN = "human", _("person")
        BOT = "bot", _("bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    version = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="table_seats"
    )
    name = models.CharField(max_length=64, blank=True, help_text="A person's name at the table.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    token = models.CharField(max_length=64, blank=True, db_index=True, help_text="The claiming browser's secret.")
    claimed = models.DateTimeField(null=True, blank=True)
    pending_action = models.CharField(max_length=32, blank=True, help_text="The person's move, checked by the engine.")
    pending_for = models.IntegerField(null=True, blank=True, help_text="The decision number the move is for.")
    hints = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="unique_table_seat"),
            models.CheckConstraint(
                condition=models.Q(kind="human", version__isnull=True) | models.Q(kind="bot", version__isnull=False),
                name="table_seat_kind_version",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.seat}: {self.label}"

    @property
    def is_human(self) -> bool:
        return self.kind == self.Kind.HUMAN

    @property
    def is_open(self) -> bool:
        """A person's seat nobody has taken yet."""
        return self.is_human and not self.token and self.user_id is None

    @property
    def label(self) -> str:
        """How the table names the seat's player."""
        if self.version is not None:
            return self.version.bot.name
        return self.name or (pgettext("table seat", "open seat") if self.is_open else pgettext("table seat", "guest"))
