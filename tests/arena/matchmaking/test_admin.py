"""Staff see the matchmaker's bookkeeping in the admin."""

from __future__ import annotations

import random

from django.contrib.auth.models import User
from django.test import Client

from arena.matches.models import Match
from arena.matchmaking.models import LadderSlot, VersionPlay
from arena.matchmaking.services import matchmaking_pass, plays_catch_up
from tests.arena.matchmaking.conftest import ArenaMaker, finish


def test_the_admin_pages_of_both_tables_render(arena: ArenaMaker) -> None:
    arena.random_arena(random.Random(1), authors=4, bots=6)
    finish(matchmaking_pass(rng=random.Random(2)))
    Match.objects.filter(kind=Match.Kind.LADDER).update(rated=True)
    plays_catch_up()
    client = Client()
    client.force_login(User.objects.create_superuser("staff", password="staff-password-123"))
    for model in (LadderSlot, VersionPlay):
        name = model._meta.model_name
        assert client.get(f"/admin/matchmaking/{name}/").status_code == 200
        row = model._default_manager.first()
        assert row is not None
        assert client.get(f"/admin/matchmaking/{name}/{row.pk}/change/").status_code == 200
