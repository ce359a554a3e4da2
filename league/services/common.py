"""Helpers every league service uses: the audit row, plain values for it, refusing unknown fields, collecting the
refusals of several fields."""

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any

from django.db.models import Model

from config.errors import NON_FIELD, ApplicationError, field_messages, nested_fields
from config.inputs import Actor, user_or_none
from league.models import ALL_TIME, AuditEntry, League, season_scope

__all__ = ["ALL_TIME", "Refusals", "audit", "season_scope"]


def audit(
    *, actor: Actor, action: str, obj: Model, league: League | None = None, data: dict | None = None
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=user_or_none(actor),
        action=action,
        league=league,
        object_type=obj._meta.label,
        object_id=str(obj.pk),
        data=data or {},
    )


def save_audited(*, actor: Actor, obj: Model, fields: dict[str, Any], action: str, league: League) -> None:
    """Set `fields` on `obj`, save it, and audit what they were before and are after."""
    before = {key: plain(getattr(obj, key)) for key in fields}
    for key, value in fields.items():
        setattr(obj, key, value)
    obj.save()
    audit(actor=actor, action=action, obj=obj, league=league, data={"before": before, "after": plain(fields)})


def plain(value: Any) -> Any:
    """A value as JSON can hold it (model instances as their id, dates as ISO text)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Model):
        return value.pk
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def refuse_unknown_fields(fields: dict[str, Any], allowed: Collection[str], what: str) -> None:
    unknown = set(fields) - set(allowed)
    if unknown:
        raise ApplicationError(
            f"Unknown {what} fields: {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}."
        )


def check_text(value: Any, what: str, *, field: str, max_length: int, required: bool = True) -> str:
    """Text as the database can store it: a string, without NUL characters, within its length."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ApplicationError(f"{what} must be text; got {type(value).__name__}.", extra={"field": field})
    value = value.strip()
    if "\x00" in value:
        raise ApplicationError(f"{what} cannot contain NUL characters.", extra={"field": field})
    if required and not value:
        raise ApplicationError(f"{what} is required (1 to {max_length} characters).", extra={"field": field})
    if len(value) > max_length:
        raise ApplicationError(
            f"{what} is {len(value)} characters long; at most {max_length} are allowed.", extra={"field": field}
        )
    return value


class Refusals:
    """The refusals of independent checks, collected so that a caller sees every wrong field at once.

    Run each check in `with refusals.check():`, then `refusals.raise_any()`. One refusal is raised as it came;
    several become one ApplicationError whose message holds them all, with `extra["field"]` naming the first
    field and `extra["fields"]` every field's messages, nested as the input is (`config.errors.nested_fields`, the
    shape of the API's input errors). Only plain 400 refusals are collected: a conflict or a forbidden action is
    raised at once."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []
        self.first: ApplicationError | None = None

    @contextmanager
    def check(self) -> Iterator[None]:
        try:
            yield
        except ApplicationError as exc:
            if exc.status_code != ApplicationError.status_code:
                raise
            self.first = self.first or exc
            for field, messages in field_messages(exc.extra, exc.message).items():
                self.found += [(field, message) for message in messages]

    @property
    def fields(self) -> set[str]:
        """The fields refused so far (a later check leaves them out: their values are not what it expects)."""
        return {field for field, _ in self.found}

    def raise_any(self) -> None:
        if not self.found:
            return
        if len(self.found) == 1 and self.first is not None:
            raise self.first
        errors: dict[str, list[str]] = {}
        for field, message in self.found:
            errors.setdefault(field, []).append(message)
        first = next((field for field, _ in self.found if field != NON_FIELD), NON_FIELD)
        fields = nested_fields(errors)
        extra = {"fields": fields} if first == NON_FIELD else {"field": first, "fields": fields}
        raise ApplicationError(" ".join(message for _, message in self.found), extra=extra)
