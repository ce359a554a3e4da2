"""Item 9 of the hardening issue, proved by Schemathesis against the WSGI app: every operation of the API, as
an anonymous user, as a non-staff organiser and as a player, never answers 5xx, answers only status codes its
schema documents, with bodies and content types that conform to the schema.

Bounded: a fixed number of examples per operation (derandomized in CI, so a failure there reproduces).
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.services import result_record
from league.models import Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory

EXAMPLES = 10
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
APP = get_wsgi_application()


@pytest.fixture
def keep_the_test_connection():
    """The WSGI app closes old database connections around each request; the test's transaction must stay open
    (Django's own test client disconnects the same signal handler)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def role_headers(db, settings, keep_the_test_connection):
    """A public league with a season, an event and a recorded game, organised by a user who is not staff."""
    organiser, player_user = UserFactory(username="st-organiser"), UserFactory(username="st-player")
    league = LeagueFactory(slug="schemathesis")
    event = EventFactory(season=SeasonFactory(league=league))
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    player = MembershipFactory(league=league, player=PlayerFactory(user=player_user)).player
    guest = MembershipFactory(league=league, player=PlayerFactory(display_name="Guest")).player
    result_record(
        actor=organiser,
        event=event,
        seats=[{"player": player.pk, "final_credits": 900}, {"player": guest.pk, "final_credits": 0}],
    )
    LeagueFactory(visibility="members")
    # The token endpoint's attempt counts would otherwise build up in the shared cache across the examples.
    settings.TOKEN_RATE_LIMITS = {"account": "100000/min", "address": "100000/min"}
    return {
        "anonymous": {},
        "organiser": {"Authorization": f"Token {Token.objects.create(user=organiser).key}"},
        "player": {"Authorization": f"Token {Token.objects.create(user=player_user).key}"},
    }


# The schema as the app serves it (building it reads no database).
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)
# Random examples within a bound; the coverage phase (hundreds of boundary cases per operation) would take the
# run far past its time budget on two cores.
schema.config.phases.coverage.enabled = False


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_9_every_operation_answers_as_its_schema_says_for_every_role(case, role_headers):
    for headers in role_headers.values():
        case.call_and_validate(headers={**(case.headers or {}), **headers}, checks=CHECKS)
