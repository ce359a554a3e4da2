"""Players: guests an organiser enters, profiles of users, and a user claiming a guest."""

from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, refuse_hidden_characters
from league.models import League, Player
from league.selectors import player_list
from league.services.common import audit, check_text

NAME_RULE = "A player's display name"


def checked_name(display_name: Any) -> str:
    """A player's display name as stored: text within 80 characters, trimmed, with no invisible or direction-changing
    character (a name that looks like another player's, or turns the text after it around, on every page)."""
    return refuse_hidden_characters(
        check_text(display_name, NAME_RULE, field="display_name", max_length=80), NAME_RULE, field="display_name"
    )


@retry_on_conflict
@transaction.atomic
def player_create(*, actor: Actor, display_name: str, user: Any = None) -> Player:
    display_name = checked_name(display_name)
    if user is not None and Player.objects.filter(user=user).exists():
        raise ConflictError(f"User {user.get_username()} already has a player profile.")
    player = Player.objects.create(display_name=display_name, user=user, created_by=actor if user is None else user)
    audit(actor=actor, action="player.create", obj=player, data={"display_name": display_name})
    return player


DUPLICATE_NAME = "duplicate_name"


def guest_namesakes(*, actor: Actor, display_name: str, league: League | None = None) -> list[Player]:
    """Players named `display_name` (trimmed, any case) in `league`, or without one among those `actor` can see."""
    name = display_name.strip() if isinstance(display_name, str) else ""
    if not name:
        return []
    players = Player.objects.filter(memberships__league=league) if league is not None else player_list(user=actor)
    return list(players.filter(display_name__iexact=name).distinct().order_by("pk")[:5])


def refuse_namesake(
    *, actor: Actor, display_name: str, league: League | None = None, confirm_duplicate: bool = False
) -> None:
    """A guest named like an existing player is probably that player: refuse (409, nothing written) unless the
    organiser confirms they are someone else (`confirm_duplicate`)."""
    if confirm_duplicate:
        return
    display_name = checked_name(display_name)  # a bad name: 400 first
    same = guest_namesakes(actor=actor, display_name=display_name, league=league)
    if same:
        where = f"in {league.name}" if league is not None else "among the players you can see"
        raise ConflictError(
            f"A player named {same[0].display_name} is already {where}. If the guest is someone else, add them "
            "anyway; if it is the same person, register that player instead.",
            extra={"field": "display_name", "namesakes": [player.pk for player in same]},
            code=DUPLICATE_NAME,
        )


@retry_on_conflict
@transaction.atomic
def player_update(*, actor: Actor, player: Player, display_name: str) -> Player:
    from league.services.standings import standings_rename

    display_name = checked_name(display_name)
    # Players are locked alone (see league.services.locks), after any league lock.
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    before = player.display_name
    player.display_name = display_name
    player.save(update_fields=["display_name"])
    audit(actor=actor, action="player.update", obj=player, data={"before": before, "after": display_name})
    standings_rename(player_id=player.pk)
    return player


@retry_on_conflict
@transaction.atomic
def player_claim(*, user: Any, player: Player, claim_code: str) -> Player:
    """A user takes over a guest player an organiser entered, with the code the organiser gave them."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise ConflictError("This player is already linked to an account; only guest players can be claimed.")
    if Player.objects.filter(user=user).exists():
        raise ConflictError("Your account already has a player profile; one account links to one player.")
    if not isinstance(claim_code, str) or not claim_code or claim_code != player.claim_code:
        raise ApplicationError(
            "The claim code does not match; ask the league organiser for this player's code.",
            extra={"field": "claim_code"},
        )
    player.user = user
    player.save(update_fields=["user"])
    audit(actor=user, action="player.claim", obj=player)
    return player


def player_for_user(*, user: Any) -> Player:
    """The user's player profile, created on first need."""
    player = Player.objects.filter(user=user).first()
    return player or player_create(actor=user, display_name=user.get_username(), user=user)
