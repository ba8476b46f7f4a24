"""The site's URLs: pages (arena.web), the REST API (arena.api), accounts and the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from arena.api.api import api
from arena.ops.views import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health, name="health"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin, the API docs).
    path("favicon.ico", RedirectView.as_view(url=f"{settings.STATIC_URL}web/favicon.svg", permanent=True)),
    path("api/", api.urls),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("arena.accounts.urls")),
    path("tournaments/", include("arena.tournaments.urls")),
    path("matchmaking/", include("arena.matchmaking.urls")),
    path("sprt/", include("arena.sprt.urls")),
    path("stats/", include("arena.stats.urls")),
    path("tables/", include("arena.tables.urls")),
    path("", include("arena.analysis.urls")),
    path("", include("arena.web.urls")),
]
