"""The base of every API input serializer: strict about what it accepts.

Unknown fields and mistyped values (`"display_name": 0`, `"amount": true`, `"seats": "4.0"`) are refused with a
400 naming the field, instead of being dropped or coerced silently. A whole number given as text is digits only
(`config.inputs.is_digits`, as the pages read their forms): `"4"` is 4; `"4.0"`, `" 4 "` and `"4.5"` are refused.
The same holds inside a list or an object of values (`ListField`, `DictField`: `"hands": [{"7": "4.0"}]`) and in
a nested input (a `StrictInput` such as a result's seats). A refusal is a 400 in the API's one error shape
(`config.errors.invalid_input`).
"""

from typing import Any

from rest_framework import serializers

from config.errors import invalid_input
from config.inputs import is_digits

# Sent by the browsable API's HTML forms; never data.
IGNORED_KEYS = frozenset({"csrfmiddlewaretoken"})


class StrictInput(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "keys"):
            errors: dict[str, Any] = {}
            writable = {name for name, field in self.fields.items() if not field.read_only}
            for key in data.keys():  # noqa: SIM118 (a QueryDict too)
                if key in IGNORED_KEYS:
                    continue
                if key not in writable:
                    allowed = ", ".join(sorted(writable)) or "no fields"
                    errors[key] = [f"Unknown field {key!r}; this request takes: {allowed}."]
            is_json = isinstance(data, dict)  # form data arrives as text only
            for name in writable & set(data.keys()):
                refused = _refusal(self.fields[name], data[name], is_json=is_json)
                if refused:
                    errors[name] = refused
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def _refusal(field: serializers.Field, value: Any, *, is_json: bool) -> list[str] | dict | None:
    """What is wrong with `value` for `field` by the strict rules, or None; inside a list or an object of whole
    numbers (`ListField`, `DictField`) each item is checked the same way, and the errors name its index or key
    as DRF's own do. A nested `StrictInput` checks its own fields."""
    if value is None:
        return None
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        nested = {index: _refusal(field.child, item, is_json=is_json) for index, item in enumerate(value)}
        return {index: problem for index, problem in nested.items() if problem} or None
    if isinstance(field, serializers.DictField) and isinstance(value, dict):
        nested = {key: _refusal(field.child, item, is_json=is_json) for key, item in value.items()}
        return {key: problem for key, problem in nested.items() if problem} or None
    if isinstance(field, serializers.CharField | serializers.ChoiceField) and not isinstance(value, str):
        if is_json and not (isinstance(field, serializers.ChoiceField) and isinstance(value, int)):
            return [f"Give text (a JSON string), not {type(value).__name__}."]
    elif isinstance(field, serializers.IntegerField) and isinstance(value, bool | float):
        return [f"Give a whole number, not {type(value).__name__}."]
    elif isinstance(field, serializers.IntegerField) and isinstance(value, str) and (is_json or value):
        # Text is read as digits only (`is_digits`, the pages' rule): DRF's own reading would take "4.0" and " 4 "
        # as 4, and refuse "4.5" only. A form's empty field is left to DRF (absent).
        if not is_digits(value, signed=True):
            return [f"Give a whole number in digits only (such as 4), not {value!r}."]
    elif isinstance(field, serializers.BooleanField) and is_json and not isinstance(value, bool):
        return ["Give true or false."]
    return None


class StrictModelInput(StrictInput, serializers.ModelSerializer):
    """A model serializer used for input, equally strict."""


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """Validated input, or one user error naming each field that is wrong and what it allows (a 400)."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        raise invalid_input(serializer.errors)
    return dict(serializer.validated_data)
