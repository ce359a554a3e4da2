"""The engine's refusals of a real-cards step as people read them: the engine counts seats and pots from 0, the pages
from 1 ("seat 3", "Pot 2"), so a refusal shown on a page (and answered by the API in the same words) says the
pages' numbers; a choice of pots names the API's numbers beside the pages' (docs/tabletop.md)."""

import re

# The engine's own words, each with a number from 0: "pot 0 goes to ...", "name the winners of pot 1",
# "for seat 2 now", "not seat 1's". Capitalised or not, as the engine wrote them.
_POT = re.compile(r"\b([Pp])ot (\d+)\b")
_SEAT = re.compile(r"\b([Ss])eat (\d+)\b")
# "pot is one of 0, 1, sabacc; got 5.": what the API may send, from 0.
_POT_CHOICES = re.compile(r"^pot is one of (?P<keys>[^;]*); got (?P<got>.*)$", re.DOTALL)


def for_people(message: str) -> str:
    """`message`, an engine refusal, with its seats and pots numbered from 1 as the pages number them."""
    choices = _POT_CHOICES.match(message)
    if choices:
        keys = [key.strip() for key in choices["keys"].split(",")]
        shown = [f"Pot {int(key) + 1}" if key.isdigit() else "the Sabacc pot" for key in keys]
        return f"pot is one of {choices['keys']} ({', '.join(shown)} as the pages show them); got {choices['got']}"
    message = _POT.sub(lambda found: f"{found[1]}ot {int(found[2]) + 1}", message)
    return _SEAT.sub(lambda found: f"{found[1]}eat {int(found[2]) + 1}", message)
