from django.apps import AppConfig


class SprtConfig(AppConfig):
    name = "arena.sprt"
    label = "sprt"
    verbose_name = "Strength tests (SPRT)"
