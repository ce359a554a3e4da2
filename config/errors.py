"""The one kind of error a user can fix, and how the API shows it.

Services raise `ApplicationError` (or a subclass) for anything the caller can put
right: bad input, a rule that forbids the action, a conflict with the current state.
Everything else is a bug and becomes a 500 that is logged.

Every error the API answers has one shape, `{"detail": ..., "code": ..., "extra": {...}}`: a serializer's or a
filter's refusal (DRF's `ValidationError`, bare `{"field": ["message"]}` on its own) becomes `invalid_input`'s
400, and DRF's other refusals (401, 404, 405, 429, ...) keep their `detail` and gain their `code`. Whatever names
the fields it refuses, a serializer or a service, answers them the same way: `extra.field` the first field's path
and `extra.fields` each field's messages, nested as the input is (`nested_fields`).
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


# DRF's key for messages about the input as a whole (`serializers.ValidationError("...")` in `validate`).
NON_FIELD = "non_field_errors"


def _messages(errors: Any, path: str = "") -> list[tuple[str, list[str]]]:
    """DRF's nested errors as (field path, messages): `seats[1].final_credits`, `starting_chips.gold`, `hands[0].7`.
    A list serializer's errors hold an empty dict for each item that was fine."""
    if isinstance(errors, dict):
        found = []
        for key, value in errors.items():
            if key == NON_FIELD:
                child = path
            elif isinstance(key, int) and path:  # a list's item (DRF's ListField keys its errors by index)
                child = f"{path}[{key}]"
            else:  # a field, or an object's key (a DictField's)
                child = f"{path}.{key}" if path else str(key)
            found.extend(_messages(value, child))
        return found
    if isinstance(errors, list | tuple):
        if all(isinstance(item, str) for item in errors):
            return [(path, [str(item) for item in errors])] if errors else []
        found = []
        for index, item in enumerate(errors):
            if isinstance(item, str):
                found.append((path, [str(item)]))
            else:
                found.extend(_messages(item, f"{path}[{index}]"))
        return found
    return [(path, [str(errors)])]


def nested_fields(messages: dict[str, list[str]]) -> dict[str, Any]:
    """Messages by field path (`points_parameters.table`, `NON_FIELD` for the input as a whole) nested as the input
    is, the shape of `extra.fields` that DRF's own errors have: `{"points_parameters": {"table": [...]}}`. Messages
    about an object that also has messages about its fields sit under its own `NON_FIELD`, as DRF puts them."""
    nested: dict[str, Any] = {}
    for path, found in messages.items():
        *parents, leaf = (path or NON_FIELD).split(".")
        node = nested
        for key in parents:
            child = node.get(key)
            if not isinstance(child, dict):
                child = node[key] = {NON_FIELD: child} if child else {}
            node = child
        if isinstance(node.get(leaf), dict):
            node[leaf].setdefault(NON_FIELD, []).extend(found)
        else:
            node.setdefault(leaf, []).extend(found)
    return nested


def field_messages(extra: dict[str, Any], message: str) -> dict[str, list[str]]:
    """A refusal's messages by field path (`NON_FIELD` for those that name none): read from `extra.fields`, or, for a
    refusal of one field, its `extra.field` and its message. What the pages' forms and the admin show by field."""
    fields = extra.get("fields")
    if not isinstance(fields, dict):
        return {extra.get("field") or NON_FIELD: [message]}
    by_path: dict[str, list[str]] = {}
    for path, found in _messages(fields):
        by_path.setdefault(path or NON_FIELD, []).extend(found)
    return by_path


def invalid_input(errors: Any) -> ApplicationError:
    """A serializer's (or a filter's) errors as one user error: `detail` names each wrong field and what it allows,
    `extra.field` is the first field's path and `extra.fields` DRF's own errors, field by field."""
    if not isinstance(errors, dict):
        errors = {NON_FIELD: errors if isinstance(errors, list) else [errors]}
    found = _messages(errors)
    problems = "; ".join(f"{path}: {' '.join(messages)}" if path else " ".join(messages) for path, messages in found)
    extra: dict[str, Any] = {"fields": errors}
    first = next((path for path, _ in found if path), None)
    if first:
        extra = {"field": first, **extra}
    return ApplicationError(f"Invalid input. {problems}".rstrip(), extra=extra)


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """Map user errors to one JSON shape: {"detail": ..., "code": ..., "extra": {...}}."""
    if isinstance(exc, DjangoValidationError):
        exc = invalid_input(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, exceptions.ValidationError):
        exc = invalid_input(exc.detail)
    if isinstance(exc, ApplicationError):
        set_rollback()  # inside an outer transaction (ATOMIC_REQUESTS, a page), a refusal keeps nothing
        extra = exc.extra
        field = extra.get("field")
        if isinstance(field, str) and field and "fields" not in extra:  # a service's refusal of one field
            extra = {**extra, "fields": nested_fields({field: [exc.message]})}
        return Response({"detail": exc.message, "code": exc.code, "extra": extra}, status=exc.status_code)
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
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        # DRF's own refusals (401, 403, 404, 405, 406, 415, 429): the same shape, with DRF's code for the kind.
        code = exc.get_codes()
        response.data = {
            "detail": str(exc.detail)
            if isinstance(exc.detail, str)
            else " ".join(message for _, messages in _messages(exc.detail) for message in messages),
            "code": code if isinstance(code, str) else exc.default_code,
            "extra": {},
        }
    return response
