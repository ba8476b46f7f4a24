from django.contrib import admin

from arena.matchmaking.models import LadderSlot, VersionPlay


@admin.register(LadderSlot)
class LadderSlotAdmin(admin.ModelAdmin[LadderSlot]):
    list_display = ("version", "ladder", "matches", "last_scheduled")
    list_filter = ("ladder",)
    raw_id_fields = ("version",)


@admin.register(VersionPlay)
class VersionPlayAdmin(admin.ModelAdmin[VersionPlay]):
    list_display = ("version", "last_played")
    raw_id_fields = ("version",)
