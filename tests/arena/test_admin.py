"""Staff can see every model in the admin (list and change pages render)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_arena_model_has_an_admin_whose_pages_render(admitted: BotVersion) -> None:
    staff = User.objects.create_superuser("staff", password="staff-password-123")
    client = Client()
    client.force_login(staff)
    for app in ("accounts", "bots", "matches", "ratings"):
        for model in apps.get_app_config(app).get_models():
            assert model in admin.site._registry, f"{model.__name__} has no admin"
            meta = model._meta
            listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
            assert listing.status_code == 200, meta.label
            row = model._default_manager.first()
            if row is not None:
                page = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk]))
                assert page.status_code == 200, meta.label
