"""Writes of the accounts app: API tokens."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import User
from django.utils import timezone

from arena.accounts.models import ApiToken

TOKEN_PREFIX = "durak_"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the stored row, and the token itself, which is shown once and never stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(
        user=user, name=name.strip()[:100] or "token", prefix=token[: len(TOKEN_PREFIX) + 6], digest=token_digest(token)
    )
    return row, token


def token_authenticate(token: str) -> ApiToken | None:
    """The active token row for ``token`` (its user loaded), or None; notes when it was last used."""
    row = ApiToken.objects.select_related("user").filter(digest=token_digest(token), user__is_active=True).first()
    if row is not None:
        ApiToken.objects.filter(pk=row.pk).update(last_used=timezone.now())
    return row


def token_revoke(*, user: User, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False if it is not theirs (or gone)."""
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    return deleted > 0
