"""A signed-in viewer's player and league roles, kept with their cached user (`config.viewer_cache`), and the
hooks that retire that copy whenever either changes: a player saved (a claim or a profile links one to a user,
or unlinks it) or deleted, a membership added, its role changed (an organiser granted or revoked), or removed,
whether by a service, the admin or a cascade. Every write of these goes through a model save or delete (no
queryset `update` of them anywhere), so these signals see them all."""

from typing import Any

from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver

from config import viewer_cache
from league import selectors
from league.models import League, Membership, Player


def viewer_attributes(user: Any) -> dict[str, Any]:
    """What `selectors.user_player_id` and `selectors.user_league_roles` answer from, read in one query."""
    from league.models import JoinRequest

    selectors.load_viewer(user)
    return {
        "_player_id_cache": user._player_id_cache,
        "_league_roles_cache": dict(user._league_roles_cache),
        # Whether an organiser's decision on a request to join waits to be told (`league.services.joining`).
        "_join_notice_pending": JoinRequest.objects.filter(user=user, notified=False).exists(),
    }


viewer_cache.add_provider(viewer_attributes)


@receiver(pre_save, sender=Player, dispatch_uid="viewer-cache-player-before")
def _player_linked_before(sender, instance: Player, update_fields=None, **kwargs) -> None:
    """Which user the player was linked to before this save (a claim or the admin may move it)."""
    if not viewer_cache.held() or instance.pk is None or (update_fields is not None and "user" not in update_fields):
        instance._user_before = None
        return
    instance._user_before = Player.objects.filter(pk=instance.pk).values_list("user_id", flat=True).first()


@receiver(post_save, sender=Player, dispatch_uid="viewer-cache-player-saved")
def _player_saved(sender, instance: Player, **kwargs) -> None:
    before = getattr(instance, "_user_before", None)
    viewer_cache.user_changed(instance.user_id)
    if before != instance.user_id:
        viewer_cache.user_changed(before)


@receiver(post_delete, sender=Player, dispatch_uid="viewer-cache-player-deleted")
def _player_deleted(sender, instance: Player, **kwargs) -> None:
    viewer_cache.user_changed(instance.user_id)


@receiver(pre_delete, sender=League, dispatch_uid="viewer-cache-league-deleted")
def _league_deleted(sender, instance: League, **kwargs) -> None:
    """A league deleted takes its memberships with it: its members' users, in one query (not one per member)."""
    if viewer_cache.held():
        for user_id in Player.objects.filter(memberships__league=instance).values_list("user_id", flat=True):
            viewer_cache.user_changed(user_id)


@receiver(post_save, sender=Membership, dispatch_uid="viewer-cache-membership-saved")
@receiver(post_delete, sender=Membership, dispatch_uid="viewer-cache-membership-deleted")
def _membership_changed(sender, instance: Membership, origin=None, **kwargs) -> None:
    if not viewer_cache.held() or isinstance(origin, League) or getattr(origin, "model", None) is League:
        return  # (a league's deletion: `_league_deleted` saw to its members)
    if Membership.player.is_cached(instance):
        user_id = instance.player.user_id
    else:
        user_id = Player.objects.filter(pk=instance.player_id).values_list("user_id", flat=True).first()
    viewer_cache.user_changed(user_id)
