"""The one input boundary: checks of untrusted input that the database or the parser would otherwise turn into a
500, the whole numbers every page, action and service reads, and the characters a name may not hide.

PostgreSQL refuses NUL characters in text and JSON, and Python's JSON parser recurses once per nesting level;
`int()` of a form field takes `'¹'`, `' 12 '` and a thousand digits. All are refused up front with a 400 that says
what is wrong. `Actor` is the type of a service's `actor`: the request's user, signed in or not (`signed_in`,
`user_or_none`).
"""

import unicodedata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    Actor = AbstractBaseUser | AnonymousUser

MAX_JSON_DEPTH = 32
MAX_DIGITS = 18  # every whole number read from text fits a PostgreSQL bigint


def __getattr__(name: str) -> Any:
    # `Actor` names Django's user classes, which exist only once the apps are loaded (services import it then).
    if name == "Actor":
        from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

        return AbstractBaseUser | AnonymousUser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def signed_in(actor: Any) -> bool:
    """Whether a service's `actor` (the request's user, or None for a task) is a signed-in user."""
    return bool(getattr(actor, "is_authenticated", False))


def user_or_none(actor: Any) -> Any:
    """The signed-in user who acts, for the rows that record who did it (None: anonymous, or a task)."""
    return actor if signed_in(actor) else None


def _refuse(message: str, field: str | None) -> Exception:
    # config.errors imports DRF, whose settings import config.parsers and so this module: imported when needed.
    from config.errors import ApplicationError

    return ApplicationError(message, extra={"field": field} if field else None)


def whole_number(
    value: Any,
    what: str,
    *,
    minimum: int = 0,
    maximum: int,
    field: str | None = None,
    allow_none: bool = False,
) -> Any:
    """`value` itself when it is a whole number (not a bool) from `minimum` to `maximum` (or None, when allowed);
    else a user error naming `what`, the range and what was given."""
    if value is None and allow_none:
        return None
    if not _is_whole(value, minimum, maximum):
        raise _refuse(
            f"{what} must be a whole number of at least {minimum:,} and at most {maximum:,}; got {value!r}.", field
        )
    return value


def whole_number_from(value: Any, what: str, low: int, high: int, *, field: str | None = None) -> int:
    """`whole_number` for online play's settings and amounts, worded as its forms and API have always answered
    ("Seats must be a whole number from 2 to 8; got 9.")."""
    if not _is_whole(value, low, high):
        raise _refuse(f"{what} must be a whole number from {low} to {high:,}; got {value!r}.", field)
    return value


def _is_whole(value: Any, minimum: int, maximum: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and minimum <= value <= maximum


def is_digits(text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> bool:
    """ASCII digits (after one leading minus, when `signed`), at most `max_digits` of them (`'¹'.isdigit()` is
    true, and `int('¹')` fails)."""
    digits = text[1:] if signed and text.startswith("-") else text
    return digits.isascii() and digits.isdigit() and len(digits) <= max_digits


def parse_whole_number(
    raw: Any,
    what: str,
    *,
    field: str | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    signed: bool = False,
    max_digits: int = MAX_DIGITS,
) -> int:
    """A whole number typed in a form field or a query parameter (surrounding spaces allowed), within the bounds
    given; else a user error naming `what`."""
    text = "" if raw is None else str(raw).strip()
    if not is_digits(text, signed=signed, max_digits=max_digits):
        raise _refuse(f"{what} must be a whole number; got {text!r}.", field)
    value = int(text)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f" of at least {minimum:,}"
        high = "" if maximum is None else f"{' and' if low else ''} at most {maximum:,}"
        raise _refuse(f"{what} must be a whole number{low}{high}; got {value:,}.", field)
    return value


def whole_number_or(raw: Any, default: int | None, *, signed: bool = True) -> int | None:
    """A whole number from a query string, or `default` when it is missing or not one (a page's `?hand=`, an id
    that then matches nothing; `signed=False`: a version or a count, never below 0)."""
    text = "" if raw is None else str(raw).strip()
    return int(text) if is_digits(text, signed=signed) else default


def hidden_character(text: str) -> str | None:
    """The first character of `text` a reader cannot see or that turns the text around, in words ("U+202E
    RIGHT-TO-LEFT OVERRIDE"): controls, and format characters (bidi controls U+202A-202E and U+2066-2069, marks,
    zero-width spaces and joiners, the byte-order mark); None when there is none."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"U+{ord(char):04X} {unicodedata.name(char, 'a control character')}"
    return None


def refuse_hidden_characters(text: str, what: str, *, field: str | None = None) -> str:
    """`text` itself, unless it holds a character a reader cannot see or one that reverses the text around it (a
    name that looks like another, or shows the text after it backwards): then a user error naming the character."""
    hidden = hidden_character(text)
    if hidden is not None:
        raise _refuse(
            f"{what} holds an invisible or direction-changing character ({hidden}); use letters, digits, spaces "
            "and punctuation only.",
            field,
        )
    return text


def has_nul(value: Any) -> bool:
    """Whether a NUL character hides anywhere in a string, or in the keys and values of nested JSON."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def raw_json_depth(text: str) -> int:
    """The nesting of a JSON text counted on its characters (brackets inside strings skipped), before parsing."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
