"""Writes of the bots app: submitting versions, admission, the reference bots.

A submission is checked as far as the web process can check it without running
anything (size, archive safety, ``bot.toml``), so an author hears about a broken
archive at once and nothing is stored for it. Everything that needs the sandbox
(installing requirements, the admission match) happens on a worker.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from arena.bots.build_words import build_text
from arena.bots.models import Bot, BotVersion, VersionArchive
from arena.jobs import enqueue_on_commit
from arena.notices import as_param, notice
from bots_sdk.botdir import load_spec
from bots_sdk.bots import REFERENCE_BOTS
from worker.builds import MB, BuildError, BuildLimits
from worker.builds.archive import unpack

ARENA_USER = "arena"
"""The account that owns the reference bots."""


class SubmissionError(Exception):
    """An upload the arena cannot take; ``status`` is the HTTP status the API answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def upload_limit_text() -> str:
    """The upload limit as the submit form and every refusal state it (decimal megabytes: ``5 MB``)."""
    return f"{settings.ARENA_MAX_UPLOAD_BYTES / MB:g} MB"


def _check_archive(name: str, data: bytes) -> tuple[str, str, str]:
    """Unpack into a scratch folder with the worker's own rules; the manifest's name, version and language."""
    limits = BuildLimits(archive_bytes=settings.ARENA_MAX_UPLOAD_BYTES)
    with tempfile.TemporaryDirectory(prefix="durak-upload-") as scratch:
        archive = Path(scratch) / (Path(name).name or "upload")
        archive.write_bytes(data)
        try:
            src = unpack(archive, Path(scratch) / "src", limits)
        except BuildError as error:
            raise SubmissionError(build_text(str(error))) from None
        spec = load_spec(str(src), built=False)
    return spec.name, spec.version, spec.language


def version_submit(*, owner: User, filename: str, data: bytes, description: str | None = None) -> BotVersion:
    """Store an uploaded bot as the next version of its bot (created on first upload) and queue its admission.

    Raises ``SubmissionError`` (nothing stored) for an oversized or broken archive, a bad ``bot.toml``, or a
    bot name that belongs to another author."""
    limit = settings.ARENA_MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise SubmissionError(_("%(file)s: too large (%(size)s MB; the limit is %(limit)s)") % {
            "file": filename, "size": number_format(round(len(data) / MB, 1), 1), "limit": upload_limit_text()}, 413)
    if not data:
        raise SubmissionError(_("%(file)s: the upload is empty") % {"file": filename})
    name, label, language = _check_archive(filename, data)
    with transaction.atomic():
        bot, created = Bot.objects.select_for_update().get_or_create(name=name, defaults={"owner": owner})
        if not created and bot.owner_id != owner.pk:
            raise SubmissionError(_("bot.toml: name: '%(name)s' belongs to another author; choose another name")
                                  % {"name": name}, 403)
        if description is not None:
            bot.description = description.strip()[:2000]
            bot.save(update_fields=["description"])
        number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        version = BotVersion.objects.create(
            bot=bot, number=number, label=label[:64], language=language,
            archive_name=Path(filename).name[:255], archive_sha256=hashlib.sha256(data).hexdigest(),
        )
        VersionArchive.objects.create(version=version, data=data)
        enqueue_on_commit("arena.bots.tasks.admit_version", version.pk)
    return version


def bot_update(*, bot: Bot, user: User, description: str) -> Bot:
    """Change a bot's description; only its owner may."""
    if bot.owner_id != user.pk:
        raise PermissionError(f"{bot.name} belongs to another author")
    bot.description = description.strip()[:2000]
    bot.save(update_fields=["description"])
    return bot


def version_start_building(version_id: int) -> bool:
    """Claim a pending version for building, counting the attempt and setting its deadline
    (``deadlines.build_budget``); False if another worker got there first."""
    from arena.matches.deadlines import build_budget

    return BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.PENDING).update(
        status=BotVersion.Status.BUILDING, build_deadline=timezone.now() + build_budget(),
        build_attempts=F("build_attempts") + 1,
    ) == 1


def version_build_release(*, version_id: int, error: str) -> bool:
    """Give a build back to the queue (the worker could not build it, another may): True if it is pending and
    enqueued again, False if it has had its ``ARENA_TASK_ATTEMPTS`` and is rejected with ``error``."""
    building = BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.BUILDING)
    if building.filter(build_attempts__lt=settings.ARENA_TASK_ATTEMPTS).update(
        status=BotVersion.Status.PENDING, build_deadline=None
    ):
        return True
    building.update(status=BotVersion.Status.REJECTED, build_deadline=None,
                    error=notice("version.build_gave_up", count=settings.ARENA_TASK_ATTEMPTS,
                                 error=as_param(error[:9000])).stored())
    return False


def version_reject(*, version: BotVersion, error: str) -> None:
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.REJECTED, error=error[:10000])


def version_admit(*, version: BotVersion) -> None:
    """The version passed admission: it enters the ladders, and the bot's earlier active versions retire."""
    with transaction.atomic():
        BotVersion.objects.filter(bot=version.bot_id, status=BotVersion.Status.ACTIVE).exclude(pk=version.pk).update(
            status=BotVersion.Status.RETIRED
        )
        BotVersion.objects.filter(pk=version.pk).update(
            status=BotVersion.Status.ACTIVE, admitted=timezone.now(), error=""
        )


def reference_versions_ensure() -> dict[str, BotVersion]:
    """The reference bots (random, gentle, strong) as active versions owned by the arena account."""
    user, _ = get_user_model().objects.get_or_create(username=ARENA_USER, defaults={"is_active": False})
    versions: dict[str, BotVersion] = {}
    for name in sorted(REFERENCE_BOTS):
        bot, _ = Bot.objects.get_or_create(
            name=name, defaults={"owner": user, "description": notice("bot.reference", name=name).stored()}
        )
        version, _ = BotVersion.objects.get_or_create(
            bot=bot, number=1,
            defaults={"label": "1", "language": "reference", "reference": name,
                      "status": BotVersion.Status.ACTIVE, "admitted": timezone.now()},
        )
        versions[name] = version
    return versions
