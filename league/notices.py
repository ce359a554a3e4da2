"""Tell a user, on their next page view, what an organiser decided on their request to join a league."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse


class JoinNoticeMiddleware:
    """One cache read per signed-in page view; the database only when a decision waits to be told."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from league.services.joining import join_notices

        if not request.path.startswith("/api/") and getattr(request, "user", None) is not None:
            for text in join_notices(user=request.user):
                messages.info(request, text)
        return self.get_response(request)
