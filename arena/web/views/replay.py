"""The replay viewer: a stored game, its frames computed by the engine, drawn by replay.js."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from arena.analysis.selectors import analysis_for_game
from arena.matches.replay import replay_frames
from arena.matches.selectors import game_get
from arena.web.views.matches import game_sides, team_layout


def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(pk)
    frames = replay_frames(game.record)
    # The record's own teams when it replays; the preset's when it is too broken to say.
    teams = frames["teams"]
    layout = tuple(tuple(team["seats"]) for team in teams) if teams else team_layout(game.preset, game.players)
    return render(request, "web/replay.html", {
        "game": game, "frames": frames, "sides": game_sides(game, layout), "analysis": analysis_for_game(game),
    })


def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(pk)
    response = JsonResponse(game.record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response
