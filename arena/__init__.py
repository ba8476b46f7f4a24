"""The arena site (Django). Importing it loads the Celery app, so ``.delay()`` from the site uses its broker.

The settings module is set first: whoever imports the arena (``manage.py``,
gunicorn, the ``durak-arena`` launcher, a Celery worker) wants the arena's
settings unless it named others, and the Celery app reads them as it is made.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

from worker.celery import app as celery_app

__all__ = ["celery_app"]
