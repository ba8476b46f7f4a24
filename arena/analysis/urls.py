from django.urls import path

from arena.analysis import views

urlpatterns = [
    path("matches/<int:pk>/analyse", views.match_analyse, name="match_analyse"),
    path("games/<int:pk>/analysis.json", views.game_analysis, name="game_analysis"),
]
