"""User errors map to 400/409 with one JSON shape; a uniqueness race is a 409, not a 500."""

from django.db import IntegrityError

from config.errors import ApplicationError, ConflictError, api_exception_handler, field_messages, nested_fields


def test_application_errors_keep_their_message_code_and_status():
    response = api_exception_handler(ApplicationError("Bad seat: pick 1 to 8.", extra={"field": "seat"}), {})
    assert response.status_code == 400
    assert response.data == {
        "detail": "Bad seat: pick 1 to 8.",
        "code": "invalid",
        # A service's refusal of one field answers its messages where an input error does (`extra.fields`).
        "extra": {"field": "seat", "fields": {"seat": ["Bad seat: pick 1 to 8."]}},
    }
    assert api_exception_handler(ConflictError("Taken."), {}).status_code == 409
    assert api_exception_handler(ConflictError("Taken."), {}).data["extra"] == {}  # names no field: nothing added


def test_a_services_refusal_of_a_dotted_field_nests_as_the_input_does():
    refused = ApplicationError("Unknown name x.", extra={"field": "points_parameters.expression"})
    extra = api_exception_handler(refused, {}).data["extra"]
    assert extra == {
        "field": "points_parameters.expression",
        "fields": {"points_parameters": {"expression": ["Unknown name x."]}},
    }


def test_nested_fields_and_field_messages_read_each_other_back():
    flat = {"name": ["Give a name."], "points_parameters": ["Give a table."], "points_parameters.table": ["Too long."]}
    nested = nested_fields(flat)
    assert nested == {
        "name": ["Give a name."],
        "points_parameters": {"non_field_errors": ["Give a table."], "table": ["Too long."]},
    }
    assert field_messages({"field": "name", "fields": nested}, "ignored") == {
        "name": ["Give a name."],
        "points_parameters": ["Give a table."],
        "points_parameters.table": ["Too long."],
    }
    assert field_messages({"field": "seat"}, "Bad seat.") == {"seat": ["Bad seat."]}
    assert field_messages({}, "Bad.") == {"non_field_errors": ["Bad."]}


def test_a_uniqueness_race_is_a_conflict_that_says_nothing_was_saved():
    response = api_exception_handler(IntegrityError('duplicate key value violates "league_slug_key"'), {})
    assert response.status_code == 409
    assert response.data["code"] == "conflict"
    assert "nothing was saved" in response.data["detail"]
    assert "league_slug_key" not in response.data["detail"]  # database internals stay in the log


def test_a_serializers_errors_become_one_400_naming_each_path():
    from rest_framework.exceptions import ValidationError

    errors = {"seats": [{}, {"final_credits": ["Give a whole number."]}], "hands": {1: {"7": ["Too big."]}}}
    response = api_exception_handler(ValidationError(errors), {})
    assert response.status_code == 400 and response.data["code"] == "invalid"
    detail = "Invalid input. seats[1].final_credits: Give a whole number.; hands[1].7: Too big."
    assert response.data["detail"] == detail
    assert response.data["extra"]["field"] == "seats[1].final_credits"
    assert set(response.data["extra"]["fields"]) == {"seats", "hands"}


def test_a_model_validation_error_is_the_same_shape():
    from django.core.exceptions import ValidationError

    response = api_exception_handler(ValidationError({"rebuy_at_or_below": ["Give a stack."]}), {})
    assert response.status_code == 400
    assert response.data == {
        "detail": "Invalid input. rebuy_at_or_below: Give a stack.",
        "code": "invalid",
        "extra": {"field": "rebuy_at_or_below", "fields": {"rebuy_at_or_below": ["Give a stack."]}},
    }
    plain = api_exception_handler(ValidationError("Append-only."), {})
    assert plain.data["detail"] == "Invalid input. Append-only." and "field" not in plain.data["extra"]
