"""The health endpoint for load balancers and compose: 200 when the database and the broker answer."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from arena.ops.checks import check_broker, check_database


def health(request: HttpRequest) -> JsonResponse:
    problems = {"database": check_database(), "broker": check_broker(timeout_s=1)}
    body = {name: problem or "ok" for name, problem in problems.items()}
    return JsonResponse(body, status=503 if any(problems.values()) else 200)
