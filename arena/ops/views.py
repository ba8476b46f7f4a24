"""The health endpoint for load balancers and compose: 200 when the database and the broker answer.

Anonymous callers (the load balancer, the world) learn only ``up`` or ``down``: which service failed, and how
(a host name, a port, a driver's message), is for staff, who see each check's result."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from arena.ops.checks import check_broker, check_database


def health(request: HttpRequest) -> JsonResponse:
    problems = {"database": check_database(), "broker": check_broker(timeout_s=1)}
    down = any(problems.values())
    body: dict[str, object] = {"status": "down" if down else "up"}
    if request.user.is_staff:
        body["checks"] = {name: problem or "ok" for name, problem in problems.items()}
    return JsonResponse(body, status=503 if down else 200)
