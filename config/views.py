"""Site-wide pages and the health check."""

import os

from django.conf import settings
from django.core.exceptions import BadRequest
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
        folder = getattr(settings, "EMBEDDED_BROKER_DIR", "")
        if folder:  # `make run`: a worker beside the server takes its tasks from files in this folder
            usable = os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)
            return {"status": "up" if usable else "down", "mode": "embedded folder"}
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


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the static icon."""
    from django.http import HttpResponsePermanentRedirect
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))


# Error pages in the site layout; never Django's debug page when DEBUG is off.


# The codes DRF gives the same refusals, so an address no route matches answers as an API view would.
API_ERROR_CODES = {
    400: "invalid",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    429: "throttled",
}


def _error(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        # An address under the API that no route matches (a newline in an id, say): JSON as the API's own
        # refusals are, never the site's HTML page.
        body = {"detail": message, "code": API_ERROR_CODES.get(status, "error"), "extra": {}}
        return JsonResponse(body, status=status)
    context = {"status": status, "title": title, "message": message}
    return render(request, "errors/error.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = "The request could not be understood; check the address or the form."
    if isinstance(exception, BadRequest) and str(exception):  # our own refusals say what is wrong
        message = str(exception)
    return _error(request, 400, "Bad request", message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = str(exception) if exception and str(exception) else "You are not allowed to see or do this."
    return _error(request, 403, "Not allowed", message)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = "There is nothing at this address, or it is not yours to see."
    said = exception.args[0] if exception is not None and exception.args else None
    if isinstance(said, str) and said:  # our own Http404("No such league.") messages; the resolver's are dicts
        message = f"{said} {message}"
    return _error(request, 404, "Page not found", message)


def method_not_allowed(request: HttpRequest, *, allowed: str = "") -> HttpResponse:
    """A page that takes a form's button only (POST), opened as an address (GET)."""
    verbs = {verb.strip().upper() for verb in allowed.split(",") if verb.strip()}
    if verbs == {"POST"}:
        message = (
            "This address only takes a form sent from its page (a button such as Start, Join or Save): it has "
            "nothing to show when opened directly. Go back to the page the button is on, or to the home page."
        )
    else:
        message = f"This address does not answer a {request.method} request; it takes {allowed or 'none'}."
    return _error(request, 405, "Not a page to open", message)


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request, 429, "Too many attempts", "Too many attempts in a short time: wait a few minutes, then try again."
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page renders without touching the database (it may be what failed)."""
    from django.template import loader

    try:
        html = loader.get_template("errors/500.html").render({"request": request})
    except Exception:  # the layout itself failed: fall back to plain text rather than a second error
        return HttpResponse("Server error: something went wrong on our side.", status=500, content_type="text/plain")
    return HttpResponse(html, status=500)
