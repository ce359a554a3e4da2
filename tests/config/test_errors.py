"""User errors map to 400/409 with one JSON shape; a uniqueness race is a 409, not a 500."""

from django.db import IntegrityError

from config.errors import ApplicationError, ConflictError, api_exception_handler


def test_application_errors_keep_their_message_code_and_status():
    response = api_exception_handler(ApplicationError("Bad seat: pick 1 to 8.", extra={"field": "seat"}), {})
    assert response.status_code == 400
    assert response.data == {"detail": "Bad seat: pick 1 to 8.", "code": "invalid", "extra": {"field": "seat"}}
    assert api_exception_handler(ConflictError("Taken."), {}).status_code == 409


def test_a_uniqueness_race_is_a_conflict_that_says_nothing_was_saved():
    response = api_exception_handler(IntegrityError('duplicate key value violates "league_slug_key"'), {})
    assert response.status_code == 409
    assert response.data["code"] == "conflict"
    assert "nothing was saved" in response.data["detail"]
    assert "league_slug_key" not in response.data["detail"]  # database internals stay in the log
