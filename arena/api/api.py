"""The REST API (django-ninja): what ``durak submit`` and authors' scripts use.

Reads are public; writes need ``Authorization: Bearer <token>`` with a personal
token from the account page. Every error answers ``{"detail": "..."}`` with a
status that says what kind of error it is (400 bad upload, 401 no or bad
token, 403 not yours, 404 unknown, 413 too large, 429 over a quota: ``Retry-After`` says when to try again).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import File, Form, NinjaAPI, Status, UploadedFile
from ninja.errors import HttpError, ValidationError
from ninja.security import HttpBearer

from arena.accounts.models import ApiToken
from arena.accounts.services import token_authenticate
from arena.api.schemas import (
    AboutOut,
    BotDetailOut,
    BotOut,
    ChallengeIn,
    EntryOut,
    ErrorOut,
    GameOut,
    LadderOut,
    LimitsOut,
    MatchOut,
    StandingOut,
    VersionOut,
)
from arena.api.validation import worded_errors
from arena.bots.models import Bot, BotVersion
from arena.bots.selectors import active_versions, bot_get, bot_list, bot_versions, version_get
from arena.bots.services import SubmissionError, upload_limit_text, version_submit
from arena.matches.dataset import FORMAT as DATASET_FORMAT
from arena.matches.dataset import gzip_lines
from arena.matches.models import Match
from arena.matches.selectors import dataset_games, match_games, match_get
from arena.matches.services import MatchError, challenge_create
from arena.notices import shown
from arena.ops.redact import error_for
from arena.ops.throttle import refusal
from arena.ratings.selectors import ladder_get, ladder_list, ladder_standings, version_ratings
from bots_sdk import __version__
from bots_sdk.engine.record import FORMAT as RECORD_FORMAT


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        return token_authenticate(token)


api = NinjaAPI(
    title="Durak Arena API", version="1", description=__doc__ or "", urls_namespace="api",
)


def _user(request: HttpRequest) -> User:
    auth = request.auth  # type: ignore[attr-defined]
    assert isinstance(auth, ApiToken)
    return auth.user


def _version_out(version: BotVersion, viewer: User | None) -> dict[str, Any]:
    return {
        "id": version.pk, "bot": version.bot.name, "number": version.number, "label": version.label,
        "language": version.language, "status": version.status,
        "error": error_for(shown(version.error), viewer, [version.bot.owner_id]),
        "created": version.created, "admitted": version.admitted, "url": reverse("version", args=[version.pk]),
    }


def _bot_out(bot: Bot) -> dict[str, Any]:
    return {"name": bot.name, "author": bot.owner.username, "language": bot.language,
            "description": shown(bot.description), "url": reverse("bot", args=[bot.name])}


@api.post("/versions", auth=TokenAuth(),
          response={201: VersionOut, 400: ErrorOut, 403: ErrorOut, 413: ErrorOut, 429: ErrorOut},
          summary="Upload a bot (zip or tar.gz with bot.toml) as a new version")
def upload_version(
    request: HttpRequest, archive: File[UploadedFile], description: Form[str | None] = None
) -> Status[dict[str, Any]] | HttpResponse:
    user = _user(request)
    if (refused := refusal("upload", request)) is not None:
        return refused
    try:
        version = version_submit(owner=user, filename=archive.name or "upload", data=archive.read(),
                                 description=description)
    except SubmissionError as error:
        return Status(error.status, {"detail": error.message})
    return Status(201, _version_out(version, user))


@api.get("/limits", response=LimitsOut, summary="The arena's limits for uploads (what `durak submit` checks)")
def get_limits(request: HttpRequest) -> dict[str, Any]:
    return {"upload_bytes": settings.ARENA_MAX_UPLOAD_BYTES, "upload_limit": upload_limit_text()}


@api.get("/versions/{version_id}", response=VersionOut, auth=[TokenAuth(), lambda request: True],
         summary="A version's status (the error too, for its owner)")
def get_version(request: HttpRequest, version_id: int) -> dict[str, Any]:
    return _version_out(version_get(version_id), _viewer(request))


@api.get("/about", response=AboutOut, summary="Which arena this is: its release and its record format")
def about(request: HttpRequest) -> dict[str, str]:
    return {"name": "Durak Arena", "version": __version__, "record_format": RECORD_FORMAT}


@api.get("/bots", response=list[BotOut], summary="Every bot")
def list_bots(request: HttpRequest) -> list[dict[str, Any]]:
    return [_bot_out(bot) for bot in bot_list()]


@api.get("/bots/{name}", response=BotDetailOut, summary="A bot, its versions and its ratings")
def get_bot(request: HttpRequest, name: str) -> dict[str, Any]:
    bot = bot_get(name)
    versions = bot_versions(bot)
    ratings = version_ratings([v.pk for v in versions if v.status == BotVersion.Status.ACTIVE])
    return {
        **_bot_out(bot),
        "versions": [_version_out(v, None) for v in versions],
        "ratings": [{"ladder": r.ladder.slug, "rating": r.rating, "low": r.low, "high": r.high, "games": r.games,
                     "provisional": r.provisional} for r in ratings],
    }


@api.get("/ladders", response=list[LadderOut], summary="Every ladder with its standings")
def list_ladders(request: HttpRequest) -> list[dict[str, Any]]:
    return [_ladder_out(ladder.slug) for ladder in ladder_list()]


@api.get("/ladders/{slug}", response=LadderOut,
         summary="One ladder (e.g. classic-2); ?language=typescript keeps that language's bots, at their ranks")
def get_ladder(request: HttpRequest, slug: str, language: str | None = None) -> dict[str, Any]:
    return _ladder_out(slug, language)


def _ladder_out(slug: str, language: str | None = None) -> dict[str, Any]:
    ladder = ladder_get(slug)
    return {
        "slug": ladder.slug, "preset": ladder.preset, "players": ladder.players,
        "standings": [
            StandingOut(rank=s.rank, bot=s.rating.version.bot.name, version=s.rating.version.number,
                        language=s.rating.version.language, author=s.rating.version.bot.owner.username,
                        rating=s.rating.rating, low=s.rating.low, high=s.rating.high, games=s.rating.games,
                        provisional=s.rating.provisional)
            for s in ladder_standings(ladder, language=language)
        ],
    }


@api.post("/challenges", auth=TokenAuth(),
          response={201: MatchOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
          summary="An unrated match of your bot against active bots")
def create_challenge(request: HttpRequest, body: ChallengeIn) -> Status[dict[str, Any]] | HttpResponse:
    user = _user(request)
    if (refused := refusal("challenge", request)) is not None:
        return refused
    active = {v.bot.name: v for v in active_versions().filter(bot__name__in=[body.bot, *body.opponents])}
    missing = [name for name in [body.bot, *body.opponents] if name not in active]
    if missing:
        return Status(404, {"detail": _("no active version of %(bots)s") % {"bots": ", ".join(missing)}})
    try:
        match = challenge_create(user=user, version=active[body.bot],
                                 opponents=[active[name] for name in body.opponents], preset=body.preset)
    except MatchError as error:
        status = 403 if "belongs to another author" in str(error) else 400
        return Status(status, {"detail": str(error)})
    return Status(201, _match_out(match_get(match.pk), user))


@api.get("/matches/{match_id}", response=MatchOut, auth=[TokenAuth(), lambda request: True],
         summary="A match, its bots and its games (why it failed, for its bots' authors)")
def get_match(request: HttpRequest, match_id: int) -> dict[str, Any]:
    return _match_out(match_get(match_id), _viewer(request))


def _viewer(request: HttpRequest) -> User | None:
    auth = request.auth  # type: ignore[attr-defined]
    return auth.user if isinstance(auth, ApiToken) else None


def _match_out(match: Match, viewer: User | None) -> dict[str, Any]:
    entries = list(match.entries.all())
    return {
        "id": match.pk, "kind": match.kind, "status": match.status, "preset": match.preset, "players": match.players,
        "deals": match.deals, "rated": match.rated, "created": match.created, "finished": match.finished,
        "error": error_for(match.error, viewer, [e.version.bot.owner_id for e in entries]) or shown(match.public_error)
        or (_("the match could not be played") if match.status == Match.Status.FAILED else ""),
        "entries": [EntryOut(bot=e.version.bot.name, version=e.version.number, games=e.games, duraks=e.duraks,
                             faults=e.faults) for e in entries],
        "games": [GameOut(id=g.pk, number=g.number, durak_seat=g.durak_seat,
                          losers=g.record.get("result", {}).get("losers"), draw=g.draw, reason=g.reason,
                          offender_seat=g.offender_seat, detail=g.detail,
                          seats=[s.version.bot.name for s in g.seats.all()], url=reverse("game", args=[g.pk]),
                          record_url=reverse("game_record", args=[g.pk])) for g in match_games(match)],
        "url": reverse("match", args=[match.pk]),
    }


@api.get("/dataset", response={200: None, 400: ErrorOut, 404: ErrorOut, 429: ErrorOut},
         auth=[TokenAuth(), lambda request: True],
         summary="Game records as gzipped JSON lines, by ladder, bot and time (resume with `after`)")
def get_dataset(request: HttpRequest, ladder: str | None = None, bot: str | None = None,
                since: datetime | None = None, until: datetime | None = None, after: int = 0,
                limit: int | None = None) -> HttpResponse | StreamingHttpResponse:
    """Every finished game that matches, oldest first, one JSON object a line (docs/datasets.md). Each line
    carries the game's ``id``: after a broken download, ask again with ``after`` set to the last id held.
    ``X-Games`` says how many games the answer holds, for a progress bar. Each call counts against
    ``ARENA_RATE_DATASETS``, per token's author (or signed-in user), else per address."""
    if (refused := refusal("dataset", request)) is not None:
        return refused
    if after < 0 or (limit is not None and limit < 1):
        return api.create_response(request, {"detail": _("after must be 0 or more and limit 1 or more")}, status=400)
    since, until = (moment if moment is None or timezone.is_aware(moment) else timezone.make_aware(moment, UTC)
                    for moment in (since, until))  # a time without a zone (2026-01-31) is UTC, as docs say
    if since is not None and until is not None and since >= until:
        return api.create_response(request, {"detail": _("since must be before until")}, status=400)
    found = ladder_get(ladder) if ladder else None
    games = dataset_games(preset=found.preset if found else None, players=found.players if found else None,
                          bot=bot_get(bot) if bot else None, since=since, until=until, after=after)
    count = games.count() if limit is None else min(games.count(), limit)
    response = StreamingHttpResponse(gzip_lines(games, settings.ARENA_DATASET_BATCH, limit),
                                     content_type="application/gzip")
    name = "-".join(part for part in ("durak", ladder, bot) if part)
    response["Content-Disposition"] = f'attachment; filename="{name}.jsonl.gz"'
    response["X-Games"] = str(count)
    response["X-Dataset-Format"] = DATASET_FORMAT
    return response
NINJA_DETAILS = {
    "Unauthorized": gettext_lazy("Unauthorized: send Authorization: Bearer <token> with a valid API token"),
    "Forbidden": gettext_lazy("Forbidden"),
    "Too many requests.": gettext_lazy("Too many requests."),
    "Cannot parse request body": gettext_lazy("Cannot parse the request body"),
    "CSRF check Failed": gettext_lazy("The CSRF check failed"),
}
"""django-ninja's own ``detail`` messages, which it writes in English, in the words of the catalogs."""
_NO_MATCH = re.compile(r"No (?P<model>\w+) matches the given query\.")
_NOT_FOUND = {"Bot": gettext_lazy("no bot of that name"), "BotVersion": gettext_lazy("no bot version of that number"),
              "Match": gettext_lazy("no match of that number"), "Game": gettext_lazy("no game of that number")}
"""What ``get_object_or_404`` (English, naming the model) did not find, in the reader's words."""


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    """django-ninja's errors (no or a bad token, too many requests, a body that does not parse) in the language the
    client asked for (``Accept-Language``)."""
    detail = NINJA_DETAILS.get(error.message)
    return api.create_response(request, {"detail": str(detail) if detail else error.message},
                               status=error.status_code)


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    """A request whose fields do not validate: pydantic's errors, each ``msg`` in the client's language."""
    return api.create_response(request, {"detail": worded_errors(error.errors)}, status=422)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> Any:
    found = _NO_MATCH.fullmatch(str(error))
    detail = _NOT_FOUND.get(found["model"]) if found else None
    return api.create_response(request, {"detail": str(detail or error) or _("not found")}, status=404)
