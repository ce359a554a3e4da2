"""The one kind of error a user can fix, and how the API shows it.

Services raise `ApplicationError` (or a subclass) for anything the caller can put
right: bad input, a rule that forbids the action, a conflict with the current state.
Everything else is a bug and becomes a 500 that is logged.
"""

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from config.db import is_transient

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    """An error the user can fix: `message` says what is wrong and what is allowed."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}
        if code:
            self.code = code


class ConflictError(ApplicationError):
    """The request is valid but clashes with the current state (409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


class ForbiddenError(ApplicationError):
    """The user may not do this (403); the message says who may."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """Map user errors to one JSON shape: {"detail": ..., "code": ..., "extra": {...}}."""
    if isinstance(exc, ApplicationError):
        set_rollback()  # inside an outer transaction (ATOMIC_REQUESTS, a page), a refusal keeps nothing
        return Response({"detail": exc.message, "code": exc.code, "extra": exc.extra}, status=exc.status_code)
    if isinstance(exc, OperationalError) and is_transient(exc):
        # A lock race still lost after config.db.retry_on_conflict ran the write again: nothing was saved.
        logger.warning("lock race lost after retries: %s", exc)
        return Response(
            {
                "detail": "The league is busy with other changes right now; nothing was saved. Try again in a moment.",
                "code": "busy",
                "extra": {},
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, IntegrityError):
        # Services check uniqueness first; this is two requests racing for the same name or slug.
        logger.warning("integrity conflict: %s", exc)
        return Response(
            {
                "detail": "That clashes with a record saved a moment ago (a name, slug or seat already taken); "
                "nothing was saved. Reload and choose another value.",
                "code": ConflictError.code,
                "extra": {},
            },
            status=ConflictError.status_code,
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    return exception_handler(exc, context)
