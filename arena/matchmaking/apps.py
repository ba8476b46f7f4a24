from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "arena.matchmaking"
    label = "matchmaking"
    verbose_name = "Ladder matchmaking"
