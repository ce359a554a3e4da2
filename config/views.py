"""Site-wide pages and the health check."""

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def _database_state() -> dict[str, str]:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means the database is not usable
        return {"status": "down", "error": exc.__class__.__name__}
    return {"status": "up", "vendor": connections["default"].vendor}


def _broker_state() -> dict[str, str]:
    if not settings.REDIS_URL:
        return {"status": "not configured", "mode": "in-process"}
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1).ping()
    except Exception as exc:
        return {"status": "down", "error": exc.__class__.__name__}
    return {"status": "up"}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The state of the database and, when configured, the broker; 503 when one is down."""
    checks = {"database": _database_state(), "broker": _broker_state()}
    healthy = all(check["status"] != "down" for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "site/home.html")
