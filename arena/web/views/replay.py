"""The replay viewer: a stored game, its frames computed by the engine, drawn by replay.js."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from arena.matches.replay import replay_frames
from arena.matches.selectors import game_get


def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(pk)
    return render(request, "web/replay.html", {"game": game, "frames": replay_frames(game.record)})


def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(pk)
    response = JsonResponse(game.record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response
