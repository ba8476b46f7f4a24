from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "arena.tables"
    label = "tables"
    verbose_name = "Tables (people play bots)"
