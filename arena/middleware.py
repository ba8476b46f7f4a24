"""A request larger than the upload limit is refused before Django reads its body.

Django streams big multipart files to temporary files without a size cap, so
without this a single request could fill the disk before the view sees it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

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
            upload_limit = settings.ARENA_MAX_UPLOAD_BYTES
            message = f"request body of {length:,} bytes is over the {upload_limit:,}-byte upload limit"
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
