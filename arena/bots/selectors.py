"""Reads of the bots app: bots and their versions."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from arena.bots.models import PERSON_LANGUAGE, Bot, BotVersion


def bot_get(name: str) -> Bot:
    return get_object_or_404(Bot.objects.select_related("owner"), name=name)


def bot_list() -> QuerySet[Bot]:
    """Every bot, not the stand-in for people at browser tables."""
    return Bot.objects.exclude(versions__language=PERSON_LANGUAGE).select_related("owner").prefetch_related("versions")


def bot_versions(bot: Bot) -> list[BotVersion]:
    return list(bot.versions.order_by("-number"))


def active_versions() -> QuerySet[BotVersion]:
    return BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot")


def version_get(pk: int) -> BotVersion:
    return get_object_or_404(BotVersion.objects.select_related("bot__owner"), pk=pk)
