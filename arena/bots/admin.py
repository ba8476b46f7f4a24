from django.contrib import admin

from arena.bots.models import Bot, BotVersion, VersionArchive


class VersionInline(admin.TabularInline[BotVersion, Bot]):
    model = BotVersion
    extra = 0
    fields = ("number", "label", "status", "created", "admitted")
    readonly_fields = ("number", "label", "created", "admitted")
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ("name", "owner", "created")
    search_fields = ("name", "owner__username")
    inlines = [VersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin[BotVersion]):
    """A version's code is immutable: the admin changes its status (e.g. retire it), never its archive."""

    list_display = ("__str__", "label", "language", "status", "created", "admitted")
    list_filter = ("status", "language")
    search_fields = ("bot__name", "label")
    readonly_fields = ("bot", "number", "label", "language", "reference", "archive_name", "archive_sha256", "created",
                       "admitted")


@admin.register(VersionArchive)
class VersionArchiveAdmin(admin.ModelAdmin[VersionArchive]):
    """Uploads are evidence: visible (size, version) but never edited."""

    list_display = ("__str__", "version")
    readonly_fields = ("version",)
    exclude = ("data",)

    def has_change_permission(self, request: object, obj: VersionArchive | None = None) -> bool:
        return False
