"""A signed-in user's language: the account's preference wins over the browser's Accept-Language and the cookie.

Runs after ``LocaleMiddleware`` (which picked the language from the cookie or Accept-Language) and after
authentication. The preference is read from the database once per session (at the first request after
login) and kept in the session, so a page costs no extra query; the switcher (``language_set``) updates both.
The language cookie is set to match, so the pages a user sees after logging out stay in their language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from arena.accounts.models import LanguagePreference

SESSION_KEY = "arena_language"
"""The account's language in the session: a code, or "" when the account has none."""


def preference_get(request: HttpRequest) -> str:
    """The signed-in user's chosen language ("" for none or an anonymous visitor), cached in the session."""
    user = request.user
    if not user.is_authenticated:
        return ""
    if SESSION_KEY not in request.session:
        choice = LanguagePreference.objects.filter(user=user).values_list("language", flat=True).first()
        request.session[SESSION_KEY] = choice or ""
    return str(request.session[SESSION_KEY])


def preference_set(request: HttpRequest, language: str) -> None:
    """Remember ``language`` on the signed-in user's account (and in their session)."""
    if request.user.is_authenticated:
        LanguagePreference.objects.update_or_create(user=request.user, defaults={"language": language})
        request.session[SESSION_KEY] = language


class LanguagePreferenceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = preference_get(request)
        if language and translation.check_for_language(language):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                                samesite=settings.LANGUAGE_COOKIE_SAMESITE, secure=settings.LANGUAGE_COOKIE_SECURE)
        return response
