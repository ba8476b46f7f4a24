"""Ladders (one per preset and table size), each version's current rating, and its history.

``Rating`` holds what the pages show: the last batch fit moved by the per-game
K updates since. ``RatingPoint`` is the history drawn on the bot page; a point
is written per stored match (source ``game``: after its games' K updates) and per batch fit (``fit``).
"""

from __future__ import annotations

from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from arena.bots.models import BotVersion
from bots_sdk.engine import Rules
from bots_sdk.stats import Z95


class Ladder(models.Model):
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    fitted = models.DateTimeField(null=True, blank=True, help_text="When the last batch fit ran.")
    fit_games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["players", "preset"]
        constraints = [models.UniqueConstraint(fields=["preset", "players"], name="unique_ladder")]

    def __str__(self) -> str:
        return self.slug

    @property
    def slug(self) -> str:
        return f"{self.preset}-{self.players}"

    @property
    def title(self) -> str:
        from arena.matches.presets import preset_name

        teams = self.teams
        values = {"preset": capfirst(preset_name(self.preset)), "players": self.players}
        if teams:
            return _("%(preset)s, %(players)s players in %(teams)s teams of %(size)s") % {
                **values, "teams": len(teams), "size": len(teams[0])}
        return ngettext("%(preset)s, %(players)s player", "%(preset)s, %(players)s players", self.players) % values

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The seat layout of a team ladder (each team played by one version); None for individual play."""
        return Rules.preset(self.preset, self.players).teams

    @property
    def sides(self) -> int:
        """Versions at one table: the players, or on a team ladder the teams."""
        return Rules.preset(self.preset, self.players).sides


class Rating(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField()
    se = models.FloatField(help_text="Standard error of the rating (points); the interval is ±1.96 se.")
    games = models.PositiveIntegerField(default=0, help_text="Rated games with a durak.")
    duraks = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["ladder", "-rating"]
        constraints = [models.UniqueConstraint(fields=["ladder", "version"], name="unique_rating")]
        indexes = [models.Index(fields=["ladder", "provisional", "-rating"], name="rating_rank")]

    def __str__(self) -> str:
        return f"{self.version} on {self.ladder}: {self.rating:.0f} ± {Z95 * self.se:.0f}"

    @property
    def low(self) -> float:
        return self.rating - Z95 * self.se

    @property
    def high(self) -> float:
        return self.rating + Z95 * self.se


class RatingPoint(models.Model):
    class Source(models.TextChoices):
        GAME = "game", _("per-game update")
        FIT = "fit", _("batch fit")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="rating_points")
    at = models.DateTimeField()
    rating = models.FloatField()
    se = models.FloatField()
    games = models.PositiveIntegerField()
    source = models.CharField(max_length=8, choices=Source.choices)

    class Meta:
        ordering = ["at"]
        indexes = [models.Index(fields=["version", "ladder", "at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.version} {self.at:%Y-%m-%d %H:%M}: {self.rating:.0f}"
