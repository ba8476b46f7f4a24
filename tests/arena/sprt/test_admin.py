"""Staff see strength tests and their pairs in the admin (list and change pages render)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.sprt.services import strength_test_start
from tests.arena.sprt.pairs import play_bins

pytestmark = pytest.mark.django_db


def test_every_sprt_model_has_an_admin_whose_pages_render(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    play_bins(strength_test_start(author=alice, version_b=b, version_a=a), [4, 2])
    staff = User.objects.create_superuser("staff", password="staff-password-123")
    client = Client()
    client.force_login(staff)
    for model in apps.get_app_config("sprt").get_models():
        assert model in admin.site._registry, f"{model.__name__} has no admin"
        meta = model._meta
        assert client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")).status_code == 200
        row = model._default_manager.first()
        assert row is not None
        page = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk]))
        assert page.status_code == 200, meta.label
