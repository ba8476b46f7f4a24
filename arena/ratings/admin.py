from django.contrib import admin

from arena.ratings.models import Ladder, Rating, RatingPoint


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin[Ladder]):
    list_display = ("__str__", "fitted", "fit_games")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("version", "ladder", "rating", "se", "games", "provisional", "updated")
    list_filter = ("ladder", "provisional")
    raw_id_fields = ("version",)


@admin.register(RatingPoint)
class RatingPointAdmin(admin.ModelAdmin[RatingPoint]):
    list_display = ("version", "ladder", "at", "rating", "se", "games", "source")
    list_filter = ("ladder", "source")
    raw_id_fields = ("version",)
