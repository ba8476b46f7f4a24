"""Strength tests: "is version B stronger than A?", decided by a sequential probability ratio test.

A test plays B against A in unrated duplicate pairs (one 2-player match of one
deal: the same deck twice, seats swapped) until the GSPRT of ``arena.ratings.sprt``
decides (docs/ratings.md section 9, fishtest's method). The counts are kept on the test row
itself, updated under ``select_for_update`` as each pair's match ends, so the
page reads one row; ``StrengthTestPair`` ties each match to its test and records
whether it was counted, which makes the match-done hook idempotent.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from arena.bots.models import BotVersion
from arena.matches.models import Match

PENTANOMIAL_LABELS = ("0", "¼", "½", "¾", "1")
"""B's score over a pair, for each pentanomial bin (bin i = B's points over the two games in half-points)."""


class StrengthTest(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        ACCEPTED_H1 = "accepted_h1", _("B is stronger")
        ACCEPTED_H0 = "accepted_h0", _("B is not stronger")
        STOPPED = "stopped", _("stopped without a decision")
        FAILED = "failed", _("failed")

    class Model(models.TextChoices):
        PENTANOMIAL = "pentanomial", _("logistic Elo, pentanomial over pairs")
        TRINOMIAL = "trinomial", _("logistic Elo, trinomial over games (ignores the pairing)")

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="strength_tests")
    version_b = models.ForeignKey(
        BotVersion, on_delete=models.PROTECT, related_name="strength_tests_as_b", help_text="The candidate (B)."
    )
    version_a = models.ForeignKey(
        BotVersion, on_delete=models.PROTECT, related_name="strength_tests_as_a", help_text="The baseline (A)."
    )
    preset = models.CharField(max_length=16, default="classic")
    elo0 = models.FloatField(default=0.0, help_text="H0: B is this many Elo stronger than A (logistic Elo).")
    elo1 = models.FloatField(default=30.0, help_text="H1: B is this many Elo stronger than A (logistic Elo).")
    alpha = models.FloatField(default=0.05, help_text="The chance of accepting H1 when H0 holds.")
    beta = models.FloatField(default=0.05, help_text="The chance of accepting H0 when H1 holds.")
    model = models.CharField(max_length=16, choices=Model.choices, default=Model.PENTANOMIAL)
    max_pairs = models.PositiveIntegerField(default=2000, help_text="Stop undecided after this many counted pairs.")
    concurrency = models.PositiveSmallIntegerField(default=2, help_text="Pairs (matches) queued at a time.")

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING, db_index=True)
    note = models.CharField(max_length=500, blank=True, help_text="Why the test ended, when it did not decide.")

    # Pentanomial counts over pairs, from B's point of view: B's points over the two games, 0 to 1 by quarters.
    pairs_0 = models.PositiveIntegerField(default=0, help_text="Pairs B lost twice (score 0).")
    pairs_1 = models.PositiveIntegerField(default=0, help_text="Pairs B scored 1/4 (a loss and a draw).")
    pairs_2 = models.PositiveIntegerField(default=0, help_text="Pairs B scored 1/2 (a win and a loss, or 2 draws).")
    pairs_3 = models.PositiveIntegerField(default=0, help_text="Pairs B scored 3/4 (a win and a draw).")
    pairs_4 = models.PositiveIntegerField(default=0, help_text="Pairs B won twice (score 1).")
    # The same games one by one (B wins when A is the durak); the trinomial model and the page use them.
    game_wins = models.PositiveIntegerField(default=0)
    game_draws = models.PositiveIntegerField(default=0)
    game_losses = models.PositiveIntegerField(default=0)
    failed_matches = models.PositiveIntegerField(default=0)
    failures_in_row = models.PositiveSmallIntegerField(default=0)

    # The latest update of the statistics (null until a pair is counted).
    llr = models.FloatField(default=0.0)
    lower = models.FloatField(help_text="Accept H0 at or below this LLR: ln(β/(1-α)).")
    upper = models.FloatField(help_text="Accept H1 at or above this LLR: ln((1-β)/α).")
    elo = models.FloatField(null=True, blank=True)
    elo_low = models.FloatField(null=True, blank=True)
    elo_high = models.FloatField(null=True, blank=True)
    los = models.FloatField(null=True, blank=True, help_text="Likelihood of superiority: P(B is stronger).")
    estimate = models.CharField(
        max_length=16, blank=True,
        help_text="'sequential' (allows for the early stop) or 'fixed' (fallback when the sequential one degenerates).",
    )
    history = models.JSONField(default=list, blank=True, help_text="[pairs, llr] after every counted pair.")

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["author", "-created"], name="sprt_author_created")]
        constraints = [
            models.CheckConstraint(condition=models.Q(elo0__lt=models.F("elo1")), name="sprt_elo0_below_elo1")
        ]

    def __str__(self) -> str:
        return f"strength test {self.pk}: {self.version_b_id} vs {self.version_a_id}"

    @property
    def pentanomial(self) -> list[int]:
        """Counts of pairs scored 0, 1/4, 1/2, 3/4, 1 by B."""
        return [self.pairs_0, self.pairs_1, self.pairs_2, self.pairs_3, self.pairs_4]

    @property
    def trinomial(self) -> list[int]:
        """B's games lost, drawn and won."""
        return [self.game_losses, self.game_draws, self.game_wins]

    @property
    def pairs(self) -> int:
        """Pairs counted so far."""
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING


class StrengthTestPair(models.Model):
    """One duplicate pair of a test: its match, and whether (and how) it was counted."""

    class State(models.TextChoices):
        PLAYING = "playing", _("queued or playing")
        COUNTED = "counted", _("counted")
        FAILED = "failed", _("failed")
        LATE = "late", _("ended after the test (not counted)")
        CANCELLED = "cancelled", _("cancelled before it started (the test had ended)")

    test = models.ForeignKey(StrengthTest, on_delete=models.CASCADE, related_name="pairs_played")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="strength_test_pair")
    number = models.PositiveIntegerField(help_text="1, 2, 3... in the order the pairs were queued.")
    state = models.CharField(max_length=16, choices=State.choices, default=State.PLAYING)
    score = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="B's points over the pair in half-games (0-4): its pentanomial bin."
    )
    created = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["test", "number"]
        constraints = [models.UniqueConstraint(fields=["test", "number"], name="unique_sprt_pair_number")]
        indexes = [models.Index(fields=["test", "state"], name="sprt_pair_state")]

    def __str__(self) -> str:
        return f"test {self.test_id} pair {self.number} (match {self.match_id})"

    @property
    def score_label(self) -> str:
        return "" if self.score is None else PENTANOMIAL_LABELS[self.score]
