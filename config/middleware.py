"""Refuse NUL characters in the address and the form or query data before any view sees them.

PostgreSQL cannot store or compare text holding NUL, so a lookup with one would be a 500. A NUL in
the path is a 404 (no object can have that name); in a query parameter or a form field, a 400.
"""

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse


def _has_nul(data) -> bool:
    return any("\x00" in key or any("\x00" in value for value in data.getlist(key)) for key in data)


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return self._refuse(request, 404, "Not found.", "not_found")
        if _has_nul(request.GET):
            return self._refuse(request, 400, "A query parameter holds a NUL character, which is not allowed.")
        form = (request.content_type or "") in ("application/x-www-form-urlencoded", "multipart/form-data")
        if request.method == "POST" and form and _has_nul(request.POST):
            return self._refuse(request, 400, "A form field holds a NUL character, which is not allowed.")
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, status: int, detail: str, code: str = "invalid") -> HttpResponse:
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": detail, "code": code, "extra": {}}, status=status)
        # Pages get the site's own 404 and 400 pages (handler404, handler400).
        if status == 404:
            raise Http404(detail)
        raise BadRequest(detail)


class MethodNotAllowedPageMiddleware:
    """A page address that only takes a form (POST) opened by typing it or following a link (GET) gets the site's
    error page saying so, with its `Allow` header kept, instead of Django's empty 405. The API's own 405s are JSON
    already and pass through."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or request.path.startswith("/api/") or response.content:
            return response
        from config.views import method_not_allowed

        page = method_not_allowed(request, allowed=response.get("Allow", ""))
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
