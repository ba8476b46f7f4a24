from django.urls import path

from arena.stats.views import stats_view

urlpatterns = [
    path("", stats_view, name="stats"),
]
