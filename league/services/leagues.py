"""Leagues, their seasons and their members."""

from datetime import date
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError, ForbiddenError
from config.events import publish
from config.inputs import Actor, signed_in
from league.models import League, Membership, Player, Role, Season
from league.selectors import owns_guest, remember_role
from league.services.common import Refusals, audit, check_text, refuse_unknown_fields, save_audited
from league.services.locks import lock_league, lock_league_or_refuse, lock_season
from league.services.players import player_for_user
from league.services.rules import check_rules, check_season_rules, seasons_under_rules_check

# What an organiser may set on a league, in the order the API lists them.
LEAGUE_FIELDS = (
    "name",
    "slug",
    "description",
    "visibility",
    "variant",
    "preset",
    "option_overrides",
    "chip_set",
    "buy_in_policy",
    "points_formula",
    "points_parameters",
    "tie_breakers",
    "best_n",
    "min_players",
    "ties_share_better_place",
    "members_may_open_tables",
)


def _check_league_fields(fields: dict[str, Any]) -> None:
    """The fields an organiser sets on a league: known ones only, text as the database stores it (in place)."""
    refuse_unknown_fields(fields, LEAGUE_FIELDS, "league")
    refusals = Refusals()
    if "members_may_open_tables" in fields and not isinstance(fields["members_may_open_tables"], bool):
        with refusals.check():
            raise ApplicationError(
                f"members_may_open_tables is true or false; got {fields['members_may_open_tables']!r}.",
                extra={"field": "members_may_open_tables"},
            )
    if "name" in fields:
        with refusals.check():
            fields["name"] = check_text(fields["name"], "A league's name", field="name", max_length=120)
    if "slug" in fields:
        with refusals.check():
            slug = check_text(fields["slug"], "A league's slug", field="slug", max_length=80)
            if slugify(slug) != slug:
                raise ApplicationError(
                    f"{slug!r} is not a valid address: use lower-case letters, digits, hyphens and underscores.",
                    extra={"field": "slug"},
                )
            fields["slug"] = slug
    if "description" in fields:
        with refusals.check():
            fields["description"] = check_text(
                fields["description"] or "",
                "A league's description",
                field="description",
                max_length=5000,
                required=False,
            )
    refusals.raise_any()


def league_fields_check(fields: dict[str, Any]) -> None:
    """Every check of a new league's fields, every wrong field reported at once (in place, cleaned values replace
    raw ones), writing nothing: `league_create` runs it, and the league form to show all refusals together."""
    refusals = Refusals()
    with refusals.check():
        _check_league_fields(fields)
    with refusals.check():
        check_rules(fields)
    if (
        "name" in fields
        and "slug" not in fields
        and isinstance(fields["name"], str)
        and fields["name"].strip()
        and not slugify(fields["name"])
    ):
        with refusals.check():
            raise ApplicationError("A league needs a name with at least one letter or digit.", extra={"field": "name"})
    refusals.raise_any()


def free_slug(wanted: str) -> str:
    """The address asked for, or when some league has it the first free `<slug>-2`, `<slug>-3`, ...

    Taken by a league the creator can see or by a members-only one they cannot, the answer and the work are the
    same: a new league is never refused over an address, so the refusal cannot name a hidden league. The league
    created says which address it got."""
    candidate, number = wanted, 1
    while League.objects.filter(slug=candidate).exists():
        number += 1
        suffix = f"-{number}"
        candidate = wanted[: 80 - len(suffix)] + suffix
    return candidate


@retry_on_conflict
@transaction.atomic
def league_create(*, actor: Actor, name: str, **fields: Any) -> League:
    """Create a league; the creating user becomes its first organiser.

    Who may create one is the site setting LEAGUE_CREATORS (`league.permissions.can_create_league`).
    """
    from league.permissions import can_create_league

    if signed_in(actor) and not can_create_league(actor):
        raise ForbiddenError("On this site only site admins may create leagues; ask one to create yours.")
    fields["name"] = name
    fields.setdefault("points_formula", "linear")
    fields.setdefault("variant", "coruscant_shift")
    fields.setdefault("preset", "better")
    fields.setdefault("option_overrides", {})
    league_fields_check(fields)
    name = fields.pop("name")
    fields["slug"] = free_slug(fields.get("slug") or slugify(name)[:80])
    league = League.objects.create(name=name, **fields)
    if signed_in(actor):
        Membership.objects.create(league=league, player=player_for_user(user=actor), role=Role.ORGANISER)
        remember_role(actor, league.pk, Role.ORGANISER)
    audit(actor=actor, action="league.create", obj=league, league=league, data={"name": name})
    publish("league.created", {"league": league.slug})
    return league


@retry_on_conflict
@transaction.atomic
def league_update(*, actor: Actor, league: League, **fields: Any) -> League:
    from league.services.standings import standings_schedule

    refusals = Refusals()
    with refusals.check():
        _check_league_fields(fields)
    league = lock_league_or_refuse(league.pk)
    if (
        "slug" in fields
        and "slug" not in refusals.fields
        and League.objects.filter(slug=fields["slug"]).exclude(pk=league.pk).exists()
    ):
        # The same words whether the league holding it is one the organiser can see or not: it names none.
        raise ConflictError(
            f"The address {fields['slug']!r} is taken; choose another slug.",
            extra={"field": "slug"},
        )
    merged = {key: fields.get(key, getattr(league, key)) for key in ("variant", "preset", "option_overrides")}
    if {"variant", "preset", "option_overrides"} & fields.keys():
        fields.update(merged)
    if "points_parameters" in fields or "points_formula" in fields:
        fields.setdefault("points_formula", league.points_formula)
        fields.setdefault("points_parameters", league.points_parameters if "points_formula" not in fields else {})
    with refusals.check():
        check_rules(fields)
    rules_refused = refusals.fields & {"variant", "preset", "rules", "option_overrides"}
    if {"variant", "preset", "option_overrides"} & fields.keys() and not rules_refused:
        with refusals.check():
            seasons_under_rules_check(league, fields)
    refusals.raise_any()
    save_audited(actor=actor, obj=league, fields=fields, action="league.update", league=league)
    standings_schedule(league_id=league.pk, full=True)  # its rules may have changed: every table
    return league


def _keep_an_organiser(membership: Membership) -> None:
    others = Membership.objects.filter(league_id=membership.league_id, role=Role.ORGANISER).exclude(pk=membership.pk)
    if not others.exists():
        raise ConflictError("A league keeps at least one organiser; name another organiser first.")


def _check_role(role: Any, player: Player) -> None:
    if role not in Role.values:
        raise ApplicationError(f"Role must be one of {', '.join(Role.values)}.", extra={"field": "role"})
    if role == Role.ORGANISER and player.user_id is None:
        raise ApplicationError(
            f"{player} is a guest, with no account to sign in with: only a member with an account can organise. "
            "Once they claim their player (the claim code on the members page), make them an organiser.",
            extra={"field": "role"},
        )


@retry_on_conflict
@transaction.atomic
def membership_add(*, actor: Actor, league: League, player: Player, role: str = Role.PLAYER) -> Membership:
    _check_role(role, player)
    if actor is not None and not owns_guest(actor, player) and player.user_id is None:
        # Another league's guest stays theirs: adding it here would hand this league its claim code.
        raise ForbiddenError(
            f"{player} is another league's guest: only the organisers of their leagues may add them to another. "
            "Enter your own guest, or add their account once they have claimed their player.",
            extra={"field": "player"},
        )
    # The league lock first: a player added twice at once is refused once, not by the unique constraint.
    lock_league(league.pk)
    if Membership.objects.filter(league=league, player=player).exists():
        raise ConflictError(f"{player} is already a member of {league}.", extra={"field": "player"})
    membership = Membership.objects.create(league=league, player=player, role=role)
    audit(actor=actor, action="membership.add", obj=membership, league=league, data={"player": player.pk, "role": role})
    return membership


@retry_on_conflict
@transaction.atomic
def membership_update(*, actor: Actor, membership: Membership, role: str) -> Membership:
    _check_role(role, membership.player)
    # Two organisers stepping down at once cannot both leave: the league lock queues them.
    lock_league(membership.league_id)
    membership = Membership.objects.select_for_update(no_key=True).get(pk=membership.pk)
    before = membership.role
    if before == Role.ORGANISER and role != Role.ORGANISER:
        _keep_an_organiser(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    audit(
        actor=actor,
        action="membership.update",
        obj=membership,
        league=membership.league,
        data={"before": before, "after": role},
    )
    return membership


@retry_on_conflict
@transaction.atomic
def membership_remove(*, actor: Actor, membership: Membership) -> None:
    lock_league(membership.league_id)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.ORGANISER:
        _keep_an_organiser(membership)
    audit(
        actor=actor,
        action="membership.remove",
        obj=membership,
        league=membership.league,
        data={"player": membership.player_id},
    )
    membership.delete()


# What an organiser may set on a season, in the order the API lists them.
SEASON_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "variant",
    "preset",
    "option_overrides",
    "points_formula",
    "points_parameters",
    "buy_in_policy",
)


def _check_season_fields(fields: dict[str, Any]) -> None:
    """The fields an organiser sets on a season: known ones only, text as the database stores it (in place)."""
    refuse_unknown_fields(fields, SEASON_FIELDS, "season")
    refusals = Refusals()
    if "name" in fields:
        with refusals.check():
            fields["name"] = check_text(fields["name"], "A season's name", field="name", max_length=120)
    for key, length in (("variant", 40), ("preset", 40), ("points_formula", 32)):
        if key in fields:
            with refusals.check():
                fields[key] = check_text(
                    fields[key] or "", f"A season's {key}", field=key, max_length=length, required=False
                )
    refusals.raise_any()


def season_fields_check(fields: dict[str, Any], league: League) -> None:
    """Every check of a season's fields against its league, every wrong field at once (in place), writing
    nothing: the season services run it, and the season form to show all refusals together."""
    refusals = Refusals()
    with refusals.check():
        _check_season_fields(fields)
    checked = {key: value for key, value in fields.items() if key not in refusals.fields}
    with refusals.check():
        check_season_rules(checked, league)
    refusals.raise_any()
    fields.update(checked)


@retry_on_conflict
@transaction.atomic
def season_create(*, actor: Actor, league: League, name: str, starts_on: date, **fields: Any) -> Season:
    fields.update(name=name, starts_on=starts_on)
    league = lock_league(league.pk) or league
    season_fields_check(fields, league)
    season = Season.objects.create(league=league, **fields)
    audit(actor=actor, action="season.create", obj=season, league=league, data={"name": fields["name"]})
    return season


@retry_on_conflict
@transaction.atomic
def season_update(*, actor: Actor, season: Season, **fields: Any) -> Season:
    from league.services.standings import standings_schedule

    refusals = Refusals()
    with refusals.check():
        _check_season_fields(fields)
    season = lock_season(season.pk)
    merged = {key: fields.get(key, getattr(season, key)) for key in SEASON_FIELDS if key not in refusals.fields}
    with refusals.check():
        check_season_rules(merged, season.league)
    refusals.raise_any()
    if "points_parameters" in fields or "points_formula" in fields:
        fields["points_parameters"] = merged["points_parameters"]
    save_audited(actor=actor, obj=season, fields=fields, action="season.update", league=season.league)
    standings_schedule(league_id=season.league_id, full=True)  # its rules may have changed
    return season
