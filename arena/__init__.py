"""The arena site (Django). Importing it loads the Celery app, so ``.delay()`` from the site uses its broker."""

from worker.celery import app as celery_app

__all__ = ["celery_app"]
