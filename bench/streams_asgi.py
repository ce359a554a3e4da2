"""The ASGI application as `bench.streams_bench` serves it: the project's (`config.asgi`), unchanged, with a probe of
the event loop's lag beside it. Every `PERIOD` seconds the probe asks the loop to wake it and writes how late it woke
(what any stream message or request waiting for the loop waited too) to a file per process in
`STREAMS_BENCH_LAG_DIR`, which the bench reads for each of its windows."""

import asyncio
import os
import time

from config.asgi import application as project_application

PERIOD = 0.01
_probe: asyncio.Task | None = None


async def _measure(folder: str) -> None:
    path = os.path.join(folder, f"lag-{os.getpid()}.txt")
    lines: list[str] = []
    flushed = time.monotonic()
    while True:
        asked = time.monotonic()
        await asyncio.sleep(PERIOD)
        now = time.monotonic()
        lines.append(f"{time.time():.3f} {(now - asked - PERIOD) * 1000:.2f}\n")
        if now - flushed > 1.0:
            with open(path, "a") as out:
                out.writelines(lines)
            lines, flushed = [], now


async def application(scope, receive, send):
    global _probe
    folder = os.environ.get("STREAMS_BENCH_LAG_DIR")
    if _probe is None and folder:
        _probe = asyncio.ensure_future(_measure(folder))
    if scope["type"] == "lifespan":  # uvicorn's lifespan "auto" probe: not an HTTP request
        raise ValueError("no lifespan")
    await project_application(scope, receive, send)
