"""The base of every API input serializer: strict about what it accepts.

Unknown fields and mistyped values (`"display_name": 0`, `"amount": true`, `"seats": "4.0"`) are refused with a
400 naming the field, instead of being dropped or coerced silently. A whole number given as text is digits only
(`config.inputs.is_digits`, as the pages read their forms): `"4"` is 4; `"4.0"`, `" 4 "` and `"4.5"` are refused.
"""

from typing import Any

from rest_framework import serializers

from config.errors import ApplicationError
from config.inputs import is_digits

# Sent by the browsable API's HTML forms; never data.
IGNORED_KEYS = frozenset({"csrfmiddlewaretoken"})


class StrictInput(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "keys"):
            errors: dict[str, list[str]] = {}
            writable = {name for name, field in self.fields.items() if not field.read_only}
            for key in data.keys():  # noqa: SIM118 (a QueryDict too)
                if key in IGNORED_KEYS:
                    continue
                if key not in writable:
                    allowed = ", ".join(sorted(writable)) or "no fields"
                    errors[key] = [f"Unknown field {key!r}; this request takes: {allowed}."]
            is_json = isinstance(data, dict)  # form data arrives as text only
            for name in writable & set(data.keys()):
                field, value = self.fields[name], data[name]
                if value is None:
                    continue
                if isinstance(field, serializers.CharField | serializers.ChoiceField) and not isinstance(value, str):
                    if is_json and not (isinstance(field, serializers.ChoiceField) and isinstance(value, int)):
                        errors[name] = [f"Give text (a JSON string), not {type(value).__name__}."]
                elif isinstance(field, serializers.IntegerField) and isinstance(value, bool | float):
                    errors[name] = [f"Give a whole number, not {type(value).__name__}."]
                elif isinstance(field, serializers.IntegerField) and isinstance(value, str) and (is_json or value):
                    # Text is read as digits only (`is_digits`, the pages' rule): DRF's own reading would take
                    # "4.0" and " 4 " as 4, and refuse "4.5" only. A form's empty field is left to DRF (absent).
                    if not is_digits(value, signed=True):
                        errors[name] = [f"Give a whole number in digits only (such as 4), not {value!r}."]
                elif isinstance(field, serializers.BooleanField) and is_json and not isinstance(value, bool):
                    errors[name] = ["Give true or false."]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class StrictModelInput(StrictInput, serializers.ModelSerializer):
    """A model serializer used for input, equally strict."""


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """Validated input, or one user error naming each field that is wrong and what it allows (a 400)."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        problems = "; ".join(
            f"{field}: {' '.join(str(m) for m in messages) if isinstance(messages, list) else messages}"
            for field, messages in serializer.errors.items()
        )
        raise ApplicationError(f"Invalid input. {problems}", extra={"fields": serializer.errors})
    return dict(serializer.validated_data)
