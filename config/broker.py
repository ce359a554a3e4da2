"""The embedded broker: kombu's filesystem transport, with each message written whole before it appears.

kombu's own `filesystem` transport creates a message's file under its final name and then writes it; a
worker polling the folder can take the file in between, read nothing and stop with an unrecoverable JSON
error (seen under load: the worker died and the online tables stalled). Here a message is written to a
hidden temporary file in the same folder (a name the worker never picks: it takes only `<n>_<id>.<queue>.msg`)
and renamed into place, which is atomic on one filesystem, so a worker only ever sees whole messages.

`config.celery` registers the transport as `atomicfile://`; the settings use it for `EMBEDDED_BROKER_DIR`.
"""

import contextlib
import os
import tempfile
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

ALIAS = "atomicfile"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `payload` onto `queue`: written to a temporary file, then renamed to the name workers read."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        folder = self.data_folder_out
        descriptor, temporary = tempfile.mkstemp(prefix=".", suffix=".partial", dir=folder)
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(temporary, os.path.join(folder, name))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel


def register() -> None:
    """Make `atomicfile://` a broker URL kombu knows."""
    TRANSPORT_ALIASES.setdefault(ALIAS, f"{__name__}:Transport")
