"""A request larger than the upload limit is refused before Django reads its body.

Django streams big multipart files to temporary files without a size cap, so
without this a single request could fill the disk before the view sees it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from arena.bots.services import upload_limit_text
from worker.builds import MB

REQUEST_SLACK_BYTES = 256 * 1024
"""Room for the multipart framing and the form's other fields around the archive."""


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.ARENA_MAX_UPLOAD_BYTES + REQUEST_SLACK_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            message = (f"The upload is too large ({length / MB:.1f} MB): the limit is {upload_limit_text()} "
                       "for a bot archive.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=413)
            # The site's own page (as an anonymous visitor sees it: this runs before the session is read).
            return render(request, "web/refused.html", {"title": "Upload too large", "message": message},
                          status=413)
        return self.get_response(request)
