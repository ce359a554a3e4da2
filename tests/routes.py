"""The site's routes, for the sweeps that visit every one (the hidden-probe and the words sweeps)."""

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver


def walk_routes(patterns, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    """Every route below `patterns` as (its pattern's text from the root, the pattern)."""
    for pattern in patterns:
        text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            yield from walk_routes(pattern.url_patterns, text)
        elif isinstance(pattern, URLPattern):
            yield text, pattern
