from django.urls import path

from arena.matchmaking import views

urlpatterns = [
    path("", views.activity, name="matchmaking"),
]
