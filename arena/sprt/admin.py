"""Admin for strength tests: the test with its counts and statistics, its pairs inline (read-only: the hook writes)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from arena.sprt.models import StrengthTest, StrengthTestPair


class StrengthTestPairInline(admin.TabularInline[StrengthTestPair, StrengthTest]):
    model = StrengthTestPair
    extra = 0
    can_delete = False
    fields = readonly_fields = ("number", "match", "state", "score", "created", "ended")
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: StrengthTest | None = None) -> bool:
        return False


@admin.register(StrengthTest)
class StrengthTestAdmin(admin.ModelAdmin[StrengthTest]):
    list_display = ["id", "author", "version_b", "version_a", "status", "llr", "elo", "created", "finished"]
    list_filter = ["status", "model", "preset"]
    search_fields = ["author__username", "version_b__bot__name", "version_a__bot__name"]
    raw_id_fields = ["author", "version_b", "version_a"]
    readonly_fields = [
        "pairs_0", "pairs_1", "pairs_2", "pairs_3", "pairs_4", "game_wins", "game_draws", "game_losses",
        "failed_matches", "failures_in_row", "llr", "lower", "upper", "elo", "elo_low", "elo_high", "los",
        "estimate", "history", "created", "updated", "finished",
    ]
    inlines = [StrengthTestPairInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Tests start from the site (``strength_test_start`` validates and queues their pairs), never from here."""
        return False


@admin.register(StrengthTestPair)
class StrengthTestPairAdmin(admin.ModelAdmin[StrengthTestPair]):
    list_display = ["id", "test", "number", "match", "state", "score", "ended"]
    list_filter = ["state"]
    raw_id_fields = ["test", "match"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Pairs are queued by their test."""
        return False
