"""API tokens: how ``durak submit`` and scripts act for an author.

Only a SHA-256 digest of a token is stored: a token is 32 random bytes, so a
fast hash is enough (no guessing to slow down), and a leaked database gives no
usable token. The short prefix lets an author tell their tokens apart.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, help_text="The token's first characters, to recognise it.")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token (hex).")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class LanguagePreference(models.Model):
    """The language a signed-in user chose with the switcher, so it follows them to another browser.

    Absent until they choose; until then the browser's Accept-Language (or the cookie) decides.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user} ({self.language})"
