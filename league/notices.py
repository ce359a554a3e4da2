"""Tell a user what an organiser decided on their request to join a league, with a message on a page view.

Without the shared viewer cache (no Redis), a cache key read before the view says whether a notice waits, and
the message shows on that page. With it, the viewer's cached copy says so (`league.viewers`), read after the
view so the view's own reads stay one round trip; the message then shows on the page after."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from config import viewer_cache


class JoinNoticeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from league.services.joining import join_notices

        wanted = not request.path.startswith("/api/") and hasattr(request, "user")
        held = viewer_cache.held()
        if wanted and not held:
            for text in join_notices(user=request.user):
                messages.info(request, text)
        response = self.get_response(request)
        if wanted and held and getattr(request.user, "_wrapped", None) is not empty:
            for text in join_notices(user=request.user):
                messages.info(request, text)
        return response
