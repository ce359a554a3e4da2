"""An event's tables on its page: a table opened, started, paused, resumed, finished or removed moves its league's
data version, so the event page (cached under that version, `league.page_cache`) shows it on the next request.

Wherever the status changes (a service, the worker, the presence sweep, the admin), the row is saved through the
model; a receiver compares the status saved with the one loaded and, when it moved (or the table is new), bumps
the league's version after the commit (`league.services.event_data_changed`). A save that leaves the status as it
was (every action of a hand) bumps nothing.
"""

from typing import Any

from django.db.models.signals import post_delete, post_init, post_save

from games.online.models import OnlineTable
from games.tabletop.models import RealTable
from league.services import event_data_changed

_LOADED = "_status_loaded"


def _remember(sender: type, instance: Any, **kwargs: Any) -> None:
    # A status not loaded (deferred) stays unknown: a save that sets it is a change, one that does not is not.
    setattr(instance, _LOADED, instance.__dict__.get("status"))


def _saved(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    status = instance.__dict__.get("status")
    if not created and status == getattr(instance, _LOADED, None):
        return
    setattr(instance, _LOADED, status)
    if instance.event_id is not None:
        event_data_changed(event_id=instance.event_id)


def _deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    if instance.event_id is not None:
        event_data_changed(event_id=instance.event_id)


for model in (OnlineTable, RealTable):
    post_init.connect(_remember, sender=model, dispatch_uid=f"table-status-loaded-{model.__name__}")
    post_save.connect(_saved, sender=model, dispatch_uid=f"table-status-saved-{model.__name__}")
    post_delete.connect(_deleted, sender=model, dispatch_uid=f"table-status-deleted-{model.__name__}")
