"""Settings for the test run: the arena's own settings on the real PostgreSQL, with a private bot store.

pytest-django creates (and drops) the database ``test_durak_arena`` from this
URL; ``DATABASE_URL`` in the environment overrides it (and ``ARENA_TEST_BROKER_URL``
the Redis database), so two runs on one machine keep apart.
"""

import os
import tempfile

os.environ.setdefault("DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/durak_arena")
if "ARENA_VAR_DIR" not in os.environ:
    os.environ["ARENA_VAR_DIR"] = tempfile.mkdtemp(prefix="durak-arena-test-")
    os.chmod(os.environ["ARENA_VAR_DIR"], 0o755)  # the sandbox's uids read built bots below it
os.environ.setdefault("ARENA_ADMISSION_DEALS", "2")

from arena.settings import *  # noqa: F403
from worker.broker import transport_options

# Pages find static files through the finders (no collectstatic before a test run).
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
WHITENOISE_USE_FINDERS = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# The arena tests' own Redis database; ARENA_TEST_BROKER_URL gives a parallel run another one.
CELERY_BROKER_URL = os.environ.get("ARENA_TEST_BROKER_URL", "redis://127.0.0.1:6379/14")
CELERY_BROKER_TRANSPORT_OPTIONS = transport_options(CELERY_BROKER_URL)
CACHES = {"default": cache_config(CELERY_BROKER_URL)}  # noqa: F405  (the quotas' counters, in that Redis)
# Quotas high enough that no test trips one by signing up or uploading often; tests/arena/test_quotas.py lowers
# each to see it refuse.
ARENA_RATE_UPLOADS = ARENA_RATE_CHALLENGES = ARENA_RATE_TABLES = ARENA_RATE_SIGNUPS = ARENA_RATE_LOGINS = "10000/m"
ARENA_RATE_ANALYSES = ARENA_RATE_DATASETS = "10000/m"
# Analysing every stored game would slow every match test; the analysis tests switch it on.
ARENA_ANALYSIS = False
ARENA_ANALYSIS_SAMPLES = 4
