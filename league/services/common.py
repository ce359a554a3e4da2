"""Helpers every league service uses: the audit row, plain values for it, refusing unknown fields."""

from collections.abc import Collection
from datetime import date, datetime
from typing import Any

from django.db.models import Model

from config.errors import ApplicationError
from config.inputs import Actor
from league.models import ALL_TIME, AuditEntry, League, season_scope

__all__ = ["ALL_TIME", "audit", "season_scope"]


def audit(
    *, actor: Actor, action: str, obj: Model, league: League | None = None, data: dict | None = None
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
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
