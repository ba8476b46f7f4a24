from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "arena.stats"
    label = "stats"
    verbose_name = "Statistics"
