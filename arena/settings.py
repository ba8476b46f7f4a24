"""Settings of the arena site, all from the environment (one file, strict parsing).

The embedded defaults make a laptop run work with nothing configured: SQLite
under ``var/``, the Redis broker on localhost, bots played in bubblewrap.
Production sets ``DATABASE_URL`` (PostgreSQL), ``CELERY_BROKER_URL``,
``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``. A value that does not parse
stops the start with the variable's name (django-environ raises
``ImproperlyConfigured``), rather than running on a silent fallback.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import django_stubs_ext
import environ
from django.core.exceptions import ImproperlyConfigured

from arena.datadir import data_dir
from arena.tables.conf import DEFAULTS as TABLE_DEFAULTS
from worker.broker import FILESYSTEM, transport_options
from worker.sandboxes import SANDBOXES

django_stubs_ext.monkeypatch()  # generic admin/queryset classes (``ModelAdmin[Bot]``) at run time, as mypy sees them

# The rating fit's small dense solves run 5-8x slower with a multithreaded BLAS on a busy host; Celery already
# parallelises by process. Set before numpy is first imported (settings load first in every arena process).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = data_dir()

env = environ.Env()

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# ARENA_PRODUCTION=true (compose sets it): no embedded default may stand in for a real setting.
PRODUCTION = env.bool("ARENA_PRODUCTION", default=False)
if PRODUCTION:
    _missing = [name for name in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL")
                if not env.str(name, default="")]
    if _missing:
        raise ImproperlyConfigured(f"ARENA_PRODUCTION is true but {', '.join(_missing)} not set (docker/env.example)")
    if DEBUG:
        raise ImproperlyConfigured("ARENA_PRODUCTION is true: DJANGO_DEBUG must be false")
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="durak-arena-development-only-secret-key-never-in-production")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_celery_beat",
    "ninja",  # serves the OpenAPI docs' assets itself, so /api/docs works offline
    "arena.accounts",
    "arena.bots",
    "arena.matches",
    "arena.ratings",
    "arena.tournaments",
    "arena.matchmaking",
    "arena.sprt",
    "arena.stats",
    "arena.tables",
    "arena.analysis",
    "arena.ops",
    "arena.web",
    "arena.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "arena.middleware.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "arena.accounts.middleware.LanguagePreferenceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "arena.urls"
WSGI_APPLICATION = "arena.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "arena.web.context.site",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'arena.sqlite3'}")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # Workers, beat and the web process share one file: wait for a lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# The site speaks its players' languages: the browser's Accept-Language picks one, the switcher on every page
# (Django's set_language view) sets a cookie, and a signed-in user's choice is kept on the account
# (arena.accounts.middleware). Catalogs: arena/locale, compiled by `compilemessages` at setup.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "arena" / "locale"]
FORMAT_MODULE_PATH = ["arena.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG

# Security headers; HTTPS-only flags follow ARENA_HTTPS so a plain-HTTP laptop run still logs in.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
_HTTPS = env.bool("ARENA_HTTPS", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = _HTTPS
SECURE_HSTS_SECONDS = 31536000 if _HTTPS else 0

# Uploads: a bot archive larger than this is refused before it is read (the request body limit is a little
# larger so the form's other fields fit; DATA_UPLOAD_MAX_MEMORY_SIZE does not count file parts).
ARENA_MAX_UPLOAD_BYTES = env.int("ARENA_MAX_UPLOAD_BYTES", default=5 * 1000 * 1000)
FILE_UPLOAD_MAX_MEMORY_SIZE = ARENA_MAX_UPLOAD_BYTES + 64 * 1024

# Datasets (GET /api/dataset, docs/datasets.md): games per gzip member, the unit a broken download resumes from.
ARENA_DATASET_BATCH = env.int("ARENA_DATASET_BATCH", default=200)

# Quotas (arena/ops/throttle.py; django-ratelimit's "count/period" syntax, s m h d): uploads and challenges per
# author; new tables, analysis requests and dataset downloads per visitor; sign-ups and login attempts per address.
# An analysis request puts a match's games before all other analyses, on a worker of one process; a download reads
# every game it holds.
ARENA_RATE_UPLOADS = env.str("ARENA_RATE_UPLOADS", default="20/h")
ARENA_RATE_CHALLENGES = env.str("ARENA_RATE_CHALLENGES", default="60/h")
ARENA_RATE_TABLES = env.str("ARENA_RATE_TABLES", default="30/h")
ARENA_RATE_ANALYSES = env.str("ARENA_RATE_ANALYSES", default="10/h")
ARENA_RATE_DATASETS = env.str("ARENA_RATE_DATASETS", default="20/h")
ARENA_RATE_SIGNUPS = env.str("ARENA_RATE_SIGNUPS", default="5/h")
ARENA_RATE_LOGINS = env.str("ARENA_RATE_LOGINS", default="20/h")
for _name in ("UPLOADS", "CHALLENGES", "TABLES", "ANALYSES", "DATASETS", "SIGNUPS", "LOGINS"):
    if not re.fullmatch(r"\d+/\d*[smhd]", globals()[f"ARENA_RATE_{_name}"]):
        raise ImproperlyConfigured(f"ARENA_RATE_{_name}={globals()[f'ARENA_RATE_{_name}']!r}: use COUNT/PERIOD, "
                                   "e.g. 20/h (periods s, m, h, d)")

# A build step's memory cgroup in MiB (worker/builds/sandboxed.py): the compiler or pip and every process it starts,
# together; past it the step is stopped and the build fails saying so.
ARENA_BUILD_MEMORY_MB = env.int("ARENA_BUILD_MEMORY_MB", default=2048)

# Where a worker keeps built bots (worker/build.py), and the sandbox it plays them in.
ARENA_BOT_STORE = Path(env.str("ARENA_BOT_STORE", default=str(VAR_DIR / "bots")))
ARENA_SANDBOX = env.str("ARENA_SANDBOX", default="bwrap")
if ARENA_SANDBOX not in SANDBOXES:
    raise ImproperlyConfigured(f"ARENA_SANDBOX={ARENA_SANDBOX!r}: use one of {', '.join(SANDBOXES)}")

# Admission: a new version plays this many duplicate deals against `random` under the arena's clock.
ARENA_ADMISSION_DEALS = env.int("ARENA_ADMISSION_DEALS", default=4)
ARENA_ADMISSION_PRESET = env.str("ARENA_ADMISSION_PRESET", default="classic")
# The arena's clock for every rated and challenge match (seconds): per move, per-game bank, start.
ARENA_MOVE_S = env.float("ARENA_MOVE_S", default=1.0)
ARENA_BANK_S = env.float("ARENA_BANK_S", default=10.0)
ARENA_START_S = env.float("ARENA_START_S", default=10.0)
ARENA_CHALLENGE_DEALS = env.int("ARENA_CHALLENGE_DEALS", default=5)
# `durak-arena`'s first round robin of the reference bots: duplicate deals per pairing (arena/ops/first_run.py).
ARENA_FIRST_RUN_DEALS = env.int("ARENA_FIRST_RUN_DEALS", default=2)
# Of the referee worker processes (`durak-arena --workers`), how many may play
# ladder and other non-tournament matches; the rest consume only the `tournament` queue, so a tournament's
# matches never wait behind the ladder's. Default: all but one. (Compose: WORKER_CONCURRENCY and
# TOURNAMENT_CONCURRENCY size the two services.)
ARENA_LADDER_WORKERS = env.int("ARENA_LADDER_WORKERS", default=0) or None
# Tables: a person's clock per move and per-game bank (s), the pause before a bot's move so a person can follow
# it, and the reference bot behind the hint button; the defaults are arena/tables/conf.py's.
ARENA_TABLE_MOVE_S = env.float("ARENA_TABLE_MOVE_S", default=TABLE_DEFAULTS["ARENA_TABLE_MOVE_S"])
ARENA_TABLE_BANK_S = env.float("ARENA_TABLE_BANK_S", default=TABLE_DEFAULTS["ARENA_TABLE_BANK_S"])
ARENA_TABLE_PACE_S = env.float("ARENA_TABLE_PACE_S", default=TABLE_DEFAULTS["ARENA_TABLE_PACE_S"])
ARENA_TABLE_HINT_BOT = env.str("ARENA_TABLE_HINT_BOT", default=TABLE_DEFAULTS["ARENA_TABLE_HINT_BOT"])
# Recovery (arena/matches/deadlines.py, arena/ops/reaper.py): a claimed match's deadline counts this many
# decisions a seat and this margin; a match (build) the workers could not finish is tried this many times, then
# fails; the reaper looks for overdue work this often (minutes).
ARENA_DEADLINE_MOVES_PER_SEAT = env.int("ARENA_DEADLINE_MOVES_PER_SEAT", default=40)
ARENA_DEADLINE_MARGIN_S = env.float("ARENA_DEADLINE_MARGIN_S", default=120.0)
ARENA_BUILD_TIME_LIMIT_S = env.float("ARENA_BUILD_TIME_LIMIT_S", default=900.0)
ARENA_TASK_ATTEMPTS = env.int("ARENA_TASK_ATTEMPTS", default=3)
ARENA_REAPER_EVERY_MINUTES = env.int("ARENA_REAPER_EVERY_MINUTES", default=1)
# Called with a match id once the match is stored or has failed: the apps that wait on matches move on (a new
# version's admission is decided, a tournament advances, a strength test counts the games).
ARENA_MATCH_DONE_HOOKS = [
    "arena.bots.admission.admission_match_done",
    "arena.tournaments.services.tournament_match_done",
    "arena.sprt.services.sprt_match_done",
    "arena.analysis.services.analysis_match_done",
]
# Analysis (arena/analysis/, queue `analysis`): every stored game is analysed after its match unless switched off;
# the sampled deals per estimated decision; a running analysis is taken again after this long (its worker died).
ARENA_ANALYSIS = env.bool("ARENA_ANALYSIS", default=True)
ARENA_ANALYSIS_SAMPLES = env.int("ARENA_ANALYSIS_SAMPLES", default=32)
ARENA_ANALYSIS_STALE_S = env.float("ARENA_ANALYSIS_STALE_S", default=1800.0)
ARENA_ANALYSIS_ATTEMPTS = env.int("ARENA_ANALYSIS_ATTEMPTS", default=3)

# Celery (worker/celery.py reads these through config_from_object with the CELERY_ namespace).
# Without CELERY_BROKER_URL the broker is a folder under var/ (kombu's filesystem transport): a laptop
# arena needs no Redis. Production sets the Redis URL.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=FILESYSTEM)
CELERY_BROKER_TRANSPORT_OPTIONS = transport_options(CELERY_BROKER_URL, VAR_DIR / "broker")
CELERY_RESULT_BACKEND = None  # results live in our own tables
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# The cache holds the quotas' counters, which every web process must share: Redis when the broker is Redis,
# else (a laptop arena on the folder broker) the process's memory.
def cache_config(broker_url: str) -> dict[str, str]:
    if broker_url.startswith(("redis://", "rediss://")):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": broker_url,
                "KEY_PREFIX": "arena-cache"}
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}


CACHES = {"default": cache_config(CELERY_BROKER_URL)}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers and beat log through LOGGING below, in the same format

# ARENA_LOG_FORMAT=json: one JSON object a line (time, level, logger, message) for log collectors; the
# default is a plain line for people.
_LOG_FORMAT = env.str("ARENA_LOG_FORMAT", default="text")
if _LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"ARENA_LOG_FORMAT={_LOG_FORMAT!r}: use 'text' or 'json'")
_LOG_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": _LOG_FIELDS},
        "json": {"()": "pythonjsonlogger.json.JsonFormatter", "format": _LOG_FIELDS,
                 "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": _LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env.str("ARENA_LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
