"""WSGI entry point (gunicorn ``arena.wsgi``); a production site with an unsafe configuration does not serve."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
application = get_wsgi_application()

from arena.ops.production import refuse_unsafe_start  # noqa: E402  (needs the apps loaded above)

refuse_unsafe_start()  # gunicorn runs no system checks: a worker that raises here never boots
