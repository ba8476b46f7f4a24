from django.urls import path

from arena.tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:pk>/", views.tournament_detail, name="tournament"),
    path("<int:pk>/live.json", views.tournament_live_json, name="tournament_live"),
    path("<int:pk>/cancel/", views.tournament_cancel_view, name="tournament_cancel"),
    path("<int:pk>/entries/<int:entry_pk>/withdraw/", views.tournament_withdraw_view, name="tournament_withdraw"),
]
