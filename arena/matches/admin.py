from django.contrib import admin

from arena.matches.models import Game, GameSeat, Match, MatchEntry, PairTally
from arena.notices import shown_field


class EntryInline(admin.TabularInline[MatchEntry, Match]):
    model = MatchEntry
    extra = 0
    readonly_fields = ("index", "version", "games", "duraks", "faults")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ("pk", "kind", "status", "preset", "players", "deals", "rated", "created", "finished", "attempts",
                    "reaped")
    list_filter = ("status", "kind", "preset", "players", "rated")
    inlines = [EntryInline]
    readonly_fields = ("created", "started", "finished", "task_id", "worker", "deadline", "attempts", "reaped",
                       "public_error_shown")
    public_error_shown = staticmethod(shown_field("public_error", "public error as the page shows it"))


@admin.register(MatchEntry)
class MatchEntryAdmin(admin.ModelAdmin[MatchEntry]):
    list_display = ("match", "index", "version", "games", "duraks", "faults")
    raw_id_fields = ("match", "version")


class SeatInline(admin.TabularInline[GameSeat, Game]):
    model = GameSeat
    extra = 0
    readonly_fields = (
        "seat", "version", "durak", "out_position", "offender", "decisions", "ms_mean", "ms_p95", "ms_max",
    )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("pk", "match", "number", "preset", "players", "rated", "reason", "draw", "bouts", "finished")
    list_filter = ("reason", "preset", "players", "rated", "draw")
    raw_id_fields = ("match",)
    inlines = [SeatInline]


@admin.register(GameSeat)
class GameSeatAdmin(admin.ModelAdmin[GameSeat]):
    list_display = ("game", "seat", "version", "durak", "offender", "decisions", "ms_mean", "ms_max")
    raw_id_fields = ("game", "version")


@admin.register(PairTally)
class PairTallyAdmin(admin.ModelAdmin[PairTally]):
    list_display = ("version", "opponent", "games", "duraks", "opponent_duraks", "draws")
    raw_id_fields = ("version", "opponent")
