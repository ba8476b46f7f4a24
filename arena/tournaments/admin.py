"""Admin for every tournaments model. Saving a tournament or a series upserts its beat task (by name)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from arena.notices import shown_field
from arena.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSeat,
    TournamentSeries,
    TournamentTable,
)
from arena.tournaments.services import (
    TournamentError,
    series_schedule_upsert,
    series_spawn,
    tournament_advance,
    tournament_cancel,
    tournament_schedule_upsert,
    tournament_withdraw,
)


class EntryInline(admin.TabularInline[TournamentEntry, Tournament]):
    model = TournamentEntry
    extra = 0
    fields = ("version", "seed", "seed_rating", "seed_from", "withdrawn", "withdrawn_why", "byes", "bye_points",
              "eliminated_round")
    readonly_fields = ("seed_rating", "seed_from", "withdrawn", "withdrawn_why", "byes", "bye_points",
                       "eliminated_round")
    seed_from = staticmethod(shown_field("seed_note", "seed note"))
    withdrawn_why = staticmethod(shown_field("withdrawn_reason", "withdrawn reason"))
    raw_id_fields = ("version",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    """Set the status to "scheduled" to have beat start it at ``starts_at``; withdraw entrants from the entries'
    admin (its action), so their tables are skipped properly."""

    list_display = ("name", "format", "preset", "players", "status", "starts_at", "current_round", "rated")
    list_filter = ("status", "format", "preset", "players", "rated")
    search_fields = ("name",)
    inlines = [EntryInline]
    readonly_fields = ("seed", "started", "finished", "current_round", "created", "updated", "error_shown",
                       "notes_shown")
    raw_id_fields = ("created_by", "series")
    error_shown = staticmethod(shown_field("error", "error as the page shows it"))
    notes_shown = staticmethod(shown_field("notes", "notes as the page shows them"))
    actions = ["advance_now", "cancel"]

    def save_related(self, request: HttpRequest, form: ModelForm[Tournament], formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        tournament_schedule_upsert(form.instance)

    @admin.action(description="Advance now (start if due, open the next round if the current one is over)")
    def advance_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self.message_user(request, f"{tournament}: {tournament_advance(tournament.pk)}")

    @admin.action(description="Cancel (no further rounds)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                tournament_cancel(tournament=tournament, reason="cancelled in the admin")
            except TournamentError as error:
                self.message_user(request, str(error), messages.WARNING)


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin[TournamentEntry]):
    list_display = ("__str__", "tournament", "seed", "withdrawn", "byes", "bye_points", "eliminated_round")
    list_filter = ("withdrawn",)
    search_fields = ("tournament__name", "version__bot__name")
    raw_id_fields = ("tournament", "version")
    actions = ["withdraw"]

    @admin.action(description="Withdraw (remaining tables are skipped; played games count)")
    def withdraw(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        for entry in queryset:
            try:
                tournament_withdraw(entry=entry, reason="withdrawn in the admin")
            except TournamentError as error:
                self.message_user(request, str(error), messages.WARNING)


class TableInline(admin.TabularInline[TournamentTable, TournamentRound]):
    model = TournamentTable
    fk_name = "round"
    extra = 0
    fields = ("number", "status", "match", "deals", "advance", "tiebreak_of", "notes_shown")
    readonly_fields = fields
    notes_shown = staticmethod(shown_field("notes", "notes"))
    show_change_link = True


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin[TournamentRound]):
    list_display = ("__str__", "status", "started", "finished")
    list_filter = ("status",)
    raw_id_fields = ("tournament",)
    filter_horizontal = ("byes",)
    inlines = [TableInline]


class SeatInline(admin.TabularInline[TournamentSeat, TournamentTable]):
    model = TournamentSeat
    extra = 0
    fields = ("position", "entry", "place", "advanced")
    readonly_fields = fields


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin[TournamentTable]):
    list_display = ("__str__", "status", "match", "deals", "advance")
    list_filter = ("status",)
    raw_id_fields = ("round", "match", "tiebreak_of")
    inlines = [SeatInline]


@admin.register(TournamentSeat)
class TournamentSeatAdmin(admin.ModelAdmin[TournamentSeat]):
    list_display = ("__str__", "position", "place", "advanced")
    raw_id_fields = ("table", "entry")


@admin.register(TournamentSeries)
class TournamentSeriesAdmin(admin.ModelAdmin[TournamentSeries]):
    """A recurring tournament; its crontab fields become a beat task named after the series."""

    list_display = ("name", "format", "preset", "players", "crontab_text", "enabled", "last_spawned")
    list_filter = ("enabled", "format")
    filter_horizontal = ("bots",)
    readonly_fields = ("created", "updated", "last_spawned", "notes")
    raw_id_fields = ("created_by",)
    actions = ["spawn_now"]

    def save_related(self, request: HttpRequest, form: ModelForm[TournamentSeries], formsets: Any,
                     change: bool) -> None:
        super().save_related(request, form, formsets, change)
        series_schedule_upsert(form.instance)

    @admin.action(description="Spawn a tournament now")
    def spawn_now(self, request: HttpRequest, queryset: QuerySet[TournamentSeries]) -> None:
        for series in queryset:
            tournament = series_spawn(series.pk)
            series.refresh_from_db()
            self.message_user(request, f"{series}: {tournament or series.notes}")
