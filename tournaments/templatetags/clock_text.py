"""The clock's time left as its script writes it (`static/js/tournament-clock.js`, `clockText`), so the page reads
the same before the script first runs: `5:35` on the projector, `5 min 35 s` in the panel."""

from django import template

register = template.Library()


@register.filter
def clock_time(seconds: object, style: str = "panel") -> str:
    if seconds is None or seconds == "":
        return "\u2013"
    minutes, rest = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{rest:02d}" if style == "projector" else f"{minutes} min {rest:02d} s"
