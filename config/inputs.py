"""Checks of untrusted input that the database or the parser would otherwise turn into a 500.

PostgreSQL refuses NUL characters in text and JSON, and Python's JSON parser recurses once
per nesting level. Both are refused up front with a 400 that says what is wrong.
"""

from typing import Any

MAX_JSON_DEPTH = 32


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
