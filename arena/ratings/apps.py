from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "arena.ratings"
    label = "ratings"
    verbose_name = "Ladders and ratings"
