"""The client's address, as the rate limits see it: one rule for the API's throttles and allauth's limits.

`NUM_PROXIES` says how many proxies under our control stand in front of the app, each adding one entry to
X-Forwarded-For. With none (served directly) the header is the client's own text and is ignored: the address is
the connection's peer. With n, the address is the n-th entry from the right, the one our outermost proxy wrote;
anything left of it came from the client and may be forged.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address the request came from, past the trusted proxies (see the module docstring)."""
    peer = request.META.get("REMOTE_ADDR", "")
    proxies = settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return peer
    entries = [entry.strip() for entry in forwarded.split(",")]
    # Fewer entries than proxies: the request skipped the outer ones, so the leftmost is the nearest to the client.
    entry = entries[-min(proxies, len(entries))]
    try:
        return str(ipaddress.ip_address(entry))
    except ValueError:
        return peer  # not an address our proxy would write: count it against the peer rather than trust it
