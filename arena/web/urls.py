from django.urls import path

from arena.web.views import bots, home, ladders, matches, replay, submit

urlpatterns = [
    path("", home.home, name="home"),
    path("ladders/", ladders.ladder_index, name="ladders"),
    path("ladders/<slug:slug>/", ladders.ladder_detail, name="ladder"),
    path("bots/", bots.bot_list_view, name="bots"),
    path("bots/<str:name>/", bots.bot_detail, name="bot"),
    path("bots/<str:name>/edit/", bots.bot_edit, name="bot_edit"),
    path("bots/<str:name>/challenge/", bots.bot_challenge, name="bot_challenge"),
    path("submit/", submit.submit, name="submit"),
    path("versions/<int:pk>/", submit.version_detail, name="version"),
    path("matches/", matches.match_list, name="matches"),
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("games/<int:pk>/", replay.game_replay, name="game"),
    path("games/<int:pk>/record.json", replay.game_record, name="game_record"),
]
