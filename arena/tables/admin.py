"""Admin for tables: the table with its seats inline (read-only: the pages and the table's worker write them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from arena.tables.models import Table, TableSeat


class TableSeatInline(admin.TabularInline[TableSeat, Table]):
    model = TableSeat
    extra = 0
    can_delete = False
    fields = readonly_fields = ("seat", "kind", "version", "name", "user", "claimed", "pending_action",
                                "pending_for", "hints")

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["key", "preset", "players", "status", "created_by", "created", "finished", "match"]
    list_filter = ["status", "preset", "players"]
    search_fields = ["key", "created_by__username"]
    raw_id_fields = ["created_by", "match"]
    readonly_fields = ["version", "actions", "result", "turn_deadline", "task_id", "worker", "heartbeat", "kicked",
                       "created", "started", "finished"]
    inlines = [TableSeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Tables open from the site (``table_create`` checks the seats and queues the game)."""
        return False
