"""Forms of manual result entry and corrections: typed inputs turned into the seats `games.services`
expects. Whether a result balances, places agree and a replay plays is the service's call, never the form's."""

import json
import uuid
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import QueryDict

from games.engine.replay import FORMATS_IN_WORDS
from games.models import Table
from games.services import MAX_SEATS
from league.models import Event, Membership
from league.services import effective_buy_in_policy

# The replay formats the engine reads (the site exports the newest), in the words the form shows.
REPLAY_FORMATS = FORMATS_IN_WORDS
MODES = [
    ("credits", "Final credits"),
    ("order", "Finishing order"),
    ("replay", f"Replay file ({REPLAY_FORMATS})"),
]
MAX_REPLAY_BYTES = 2_000_000
SEAT_NUMBERS = ("buy_in", "rebuys", "rebuy_credits", "addon_credits", "final_credits", "place", "knockouts")


def rules_choice(data: QueryDict) -> tuple[str, str]:
    """The rules a table's form chose: its "game" field, "variant:preset" (either part may be blank)."""
    variant, _, preset = (data.get("game") or "").partition(":")
    return variant, preset


class SeatForm(forms.Form):
    """One player's line: who, what they brought in, and how they finished."""

    player = forms.TypedChoiceField(label="Player", coerce=int, required=False, empty_value=None)
    buy_in = forms.IntegerField(label="Buy-in", required=False)
    rebuys = forms.IntegerField(label="Re-buys", required=False)
    rebuy_credits = forms.IntegerField(label="Re-buy credits", required=False)
    addon_credits = forms.IntegerField(label="Add-on credits", required=False)
    final_credits = forms.IntegerField(label="Final credits", required=False)
    place = forms.IntegerField(label="Place", required=False)
    knockouts = forms.IntegerField(label="Knock-outs", required=False)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "(no player)"), *players]

    def service_seat(self, mode: str) -> dict[str, Any] | None:
        """The seat as the service takes it; None for an empty line."""
        data = self.cleaned_data
        if data.get("player") is None:
            return None
        seat: dict[str, Any] = {"player": data["player"]}
        for key in ("buy_in", "rebuys", "rebuy_credits", "addon_credits", "knockouts"):
            if data.get(key) is not None:
                seat[key] = data[key]
        if mode == "credits" and data.get("final_credits") is not None:
            seat["final_credits"] = data["final_credits"]
        if mode in ("credits", "order") and data.get("place") is not None:
            seat["place"] = data["place"]
        return seat


class BaseSeatFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        self.players = players
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {"players": self.players}

    def service_seats(self, mode: str) -> list[dict[str, Any]]:
        return [seat for form in self.forms if (seat := form.service_seat(mode)) is not None]


SeatFormSet = forms.formset_factory(
    SeatForm, formset=BaseSeatFormSet, extra=MAX_SEATS, max_num=MAX_SEATS, absolute_max=MAX_SEATS
)


def member_choices(event: Event) -> list[tuple[int, str]]:
    """The league's members, by name: the players a result may seat."""
    rows = (
        Membership.objects.filter(league_id=event.season.league_id)
        .order_by("player__display_name", "player_id")
        .values_list("player_id", "player__display_name")
    )
    return list(rows)


def read_replay(upload: UploadedFile | None) -> dict[str, Any] | None:
    """The uploaded replay as JSON; whether it is a valid game is for the engine to say."""
    if upload is None:
        return None
    if upload.size > MAX_REPLAY_BYTES:
        raise forms.ValidationError(
            f"The replay file is {upload.size:,} bytes; upload one of at most {MAX_REPLAY_BYTES:,} bytes."
        )
    try:
        document = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise forms.ValidationError(f"The replay file is not JSON ({exc}); upload a {REPLAY_FORMATS} file.") from None
    if not isinstance(document, dict):
        raise forms.ValidationError(f"The replay file must hold a {REPLAY_FORMATS} JSON object.")
    return document


class ResultForm(forms.Form):
    """A game played at a physical table: where, which round, and how the result is given."""

    mode = forms.ChoiceField(label="Result given as", choices=MODES, initial="credits", widget=forms.RadioSelect)
    table = forms.ModelChoiceField(label="Table", queryset=Table.objects.none(), required=False, empty_label="(none)")
    round = forms.IntegerField(label="Round", initial=1)
    replay = forms.FileField(label="Replay file", required=False)
    seats = forms.Field(
        label="Players", required=False, widget=forms.HiddenInput
    )  # where the service's seat errors are shown
    # One value per form shown: a second POST of the same form (a double click, a resent page) saves nothing.
    submission = forms.CharField(required=False, widget=forms.HiddenInput, initial=lambda: uuid.uuid4().hex)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = Table.objects.filter(event=event).order_by("number")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("mode") == "replay":
            if not data.get("replay"):
                self.add_error("replay", "Choose the replay file to upload, or give final credits or places instead.")
            else:
                try:
                    data["replay_document"] = read_replay(data["replay"])
                except forms.ValidationError as exc:
                    self.add_error("replay", exc)
        return data

    def service_fields(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        data = self.cleaned_data
        fields: dict[str, Any] = {"seats": seats, "table": data.get("table"), "round": data["round"]}
        if data["mode"] == "replay":
            fields["replay"] = data["replay_document"]
        return fields


class CorrectionForm(forms.Form):
    reason = forms.CharField(
        label="Reason for the correction", max_length=255, help_text="e.g. Han's final count was 400, not 450."
    )
    mode = forms.ChoiceField(label="Result given as", choices=MODES[:2], initial="credits", widget=forms.RadioSelect)
    seats = forms.Field(label="Players", required=False, widget=forms.HiddenInput)
    submission = forms.CharField(required=False, widget=forms.HiddenInput, initial=lambda: uuid.uuid4().hex)


def new_seat_initial(event: Event) -> dict[str, Any]:
    """A new player's line, as the result forms start it: the event's buy-in, no re-buys."""
    policy = effective_buy_in_policy(event)
    return {"buy_in": policy.buy_in if policy else 0, "rebuys": 0}


def initial_seats(seats: list[Any], event: Event) -> list[dict[str, Any]]:
    """A recorded game's seats as the correction form's first values, in seat order, then empty lines a forgotten
    player may be added on (as on the entry form), up to the most seats a game has. Places that simply follow the
    final credits start blank, as on the entry form: kept, they would refuse a correction of the credits alone."""
    recorded = [{"player": seat.player_id, **{key: getattr(seat, key) for key in SEAT_NUMBERS}} for seat in seats]
    if _places_follow_credits(seats):
        recorded = [{**seat, "place": None} for seat in recorded]
    return recorded + [new_seat_initial(event)] * (MAX_SEATS - len(recorded))


def _places_follow_credits(seats: list[Any]) -> bool:
    """Whether every place is the one the final credits give (more credits rank better, equal credits share)."""
    credits = [seat.final_credits for seat in seats]
    if None in credits:
        return False
    return all(seat.place == 1 + sum(c > seat.final_credits for c in credits) for seat in seats)


def correction_choices(event: Event, seats: list[Any]) -> list[tuple[int, str]]:
    """Who a correction may seat: the league's members (a forgotten player added) and the game's own players (one
    who has left the league since included), by name."""
    members = member_choices(event)
    known = {pk for pk, _ in members}
    kept = [(seat.player_id, seat.player.display_name) for seat in seats if seat.player_id not in known]
    return sorted([*members, *kept], key=lambda choice: (choice[1], choice[0]))


class TableForm(forms.Form):
    name = forms.CharField(label="Table name", max_length=80)
    number = forms.IntegerField(label="Number")


class AdjustmentForm(forms.Form):
    """A manual correction of one player's credits at an event (chips miscounted, a penalty), with a reason."""

    player = forms.TypedChoiceField(label="Player", coerce=int, empty_value=None)
    amount = forms.IntegerField(label="Credits (+ added, - taken)")
    reason = forms.CharField(label="Reason", max_length=255, required=False)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "(choose a player)"), *players]
