from django.contrib import admin

from arena.analysis.models import AnalysedSeat, GameAnalysis


class AnalysedSeatInline(admin.TabularInline[AnalysedSeat, GameAnalysis]):
    model = AnalysedSeat
    extra = 0
    raw_id_fields = ("version",)


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin[GameAnalysis]):
    list_display = ("game", "status", "priority", "done", "decisions", "created", "finished")
    list_filter = ("status", "priority")
    raw_id_fields = ("game",)
    exclude = ("reviews",)
    inlines = [AnalysedSeatInline]
