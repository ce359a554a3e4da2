"""The embedded broker (`config.broker`): a message is never visible to a worker before it is whole.

kombu's own filesystem transport creates a message's file and then writes it, so a worker polling between
the two reads an empty message and stops (the worker of `make run` died this way under load). The test
looks at the queue from inside the write: with kombu's channel the half-written message is taken and fails
to decode; with ours nothing is there yet, and the whole message arrives after."""

import json

from kombu import Connection
from kombu.transport import filesystem

from config import broker


def _channels(tmp_path, transport):
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path)}
    producer = Connection(transport=transport, transport_options=options).default_channel
    consumer = Connection(transport=transport, transport_options=options).default_channel
    return producer, consumer


def _look_during_the_write(monkeypatch, module, consumer):
    """Patch `str_to_bytes` in `module` so that, at the moment the message's bytes are produced (its file
    already opened, nothing written yet), the consumer takes what the queue holds."""
    seen = {}
    original = module.str_to_bytes

    def spy(text):
        try:
            seen["message"] = consumer._get("celery")
        except Exception as exc:  # what the worker would meet is the finding
            seen["error"] = exc
        return original(text)

    monkeypatch.setattr(module, "str_to_bytes", spy)
    return seen


def test_a_message_appears_only_once_written_whole(tmp_path, monkeypatch):
    producer, consumer = _channels(tmp_path, broker.Transport)
    seen = _look_during_the_write(monkeypatch, broker, consumer)
    producer._put("celery", {"body": "hand 7", "n": 7})
    assert type(seen.get("error")).__name__ == "Empty" and "message" not in seen
    assert consumer._get("celery") == {"body": "hand 7", "n": 7}
    assert not [name for name in tmp_path.iterdir() if name.name.endswith(".partial")]


def test_kombus_own_filesystem_channel_shows_the_half_written_message(tmp_path, monkeypatch):
    """Why `config.broker` exists: the same look, at kombu's channel, meets an empty message."""
    producer, consumer = _channels(tmp_path, filesystem.Transport)
    seen = _look_during_the_write(monkeypatch, filesystem, consumer)
    producer._put("celery", {"body": "hand 7"})
    assert isinstance(seen.get("error"), json.JSONDecodeError)


def test_the_alias_names_this_transport():
    """`atomicfile://` (the embedded settings' broker URL, checked in tests/online/test_embedded.py)."""
    from kombu.transport import resolve_transport

    assert resolve_transport(broker.ALIAS) is broker.Transport
