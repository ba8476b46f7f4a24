"""Bots and their immutable versions.

A version's archive is kept in the database, not on a web host's disk: any
worker host can build it (the build is cached by content hash in the worker's
store), so scaling out needs no shared file system. It lives in a table of its
own (``VersionArchive``) so that no page listing versions ever loads megabytes
of uploaded code by accident.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

PERSON_LANGUAGE = "human"
"""The language of the one version that stands for people in stored games (no upload can declare it)."""


class Bot(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bots")
    name = models.CharField(max_length=64, unique=True, help_text="From bot.toml: letters, digits, - and _.")
    description = models.TextField(blank=True, max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def language(self) -> str:
        """The language of its latest version (each version declares its own; a bot may change language).

        Reads ``versions`` through a prefetch when the query made one (``bot_list``)."""
        latest = max(self.versions.all(), key=lambda version: version.number, default=None)
        return latest.language if latest is not None else ""


class BotVersion(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a worker")
        BUILDING = "building", _("building")
        ADMISSION = "admission", _("playing its admission match")
        ACTIVE = "active", _("active")
        REJECTED = "rejected", _("rejected")
        RETIRED = "retired", _("retired")

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(help_text="1, 2, 3... per bot, in upload order.")
    label = models.CharField(max_length=64, help_text="The version text of bot.toml.")
    language = models.CharField(max_length=16)
    reference = models.CharField(
        max_length=32, blank=True, help_text="A built-in reference bot (random, gentle, strong): no archive."
    )
    archive_name = models.CharField(max_length=255, blank=True)
    archive_sha256 = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    error = models.TextField(blank=True, help_text="Why the build or the admission failed, for the author.")
    created = models.DateTimeField(auto_now_add=True)
    admitted = models.DateTimeField(null=True, blank=True)
    build_deadline = models.DateTimeField(
        null=True, blank=True, help_text="When a build still running is overdue (the reaper takes it back)."
    )
    build_attempts = models.PositiveSmallIntegerField(default=0, help_text="Workers that started building it.")

    class Meta:
        ordering = ["bot__name", "-number"]
        constraints = [models.UniqueConstraint(fields=["bot", "number"], name="unique_version_number")]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def is_person(self) -> bool:
        """The stand-in for people at a browser table (arena.tables): a seat, never a bot to list or link."""
        return self.language == PERSON_LANGUAGE

    @property
    def display(self) -> str:
        """How the site names the version: the bot, its number and (if different) its own label."""
        label = f" ({self.label})" if self.label and self.label != str(self.number) else ""
        return f"{self.bot.name} v{self.number}{label}"


class VersionArchive(models.Model):
    """The uploaded archive of a version, exactly as sent (immutable)."""

    version = models.OneToOneField(BotVersion, on_delete=models.CASCADE, primary_key=True, related_name="upload")
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"archive of {self.version_id} ({len(self.data):,} bytes)"
