"""`make run`'s Celery: a worker and beat, each its own process, kept running by this one.

- A process that exits (killed, or stopped by an unrecoverable error) is started again after a short pause
  that grows while it keeps failing (1 s up to 30 s); one that ran a minute starts again at once.
- Beat is not run inside the worker (`-B`): a worker killed with -9 would leave that beat child behind,
  queueing the clock's and the sweep's tasks for nobody; here each child dies with this process (Linux's
  parent-death signal), and this process stops its children when it is stopped or its parent goes away.
- After any restart the tables resume by themselves: what is due is on their rows, and beat's sweep sends it
  again (games.online.schedule).

Run: `python -m config.supervise [--schedule PATH] [--loglevel WARNING]` (EMBEDDED_BROKER_DIR or REDIS_URL set).
"""

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time

PR_SET_PDEATHSIG = 1
RUN_WELL_SECONDS = 60.0
MAX_PAUSE_SECONDS = 30.0
STOP_SECONDS = 10.0


def _die_with_parent() -> None:
    """In the child before it runs: SIGTERM when this supervisor dies, however it dies (Linux only)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Child:
    def __init__(self, name: str, command: list[str]) -> None:
        self.name, self.command = name, command
        self.process: subprocess.Popen | None = None
        self.started = 0.0
        self.pause = 0.0
        self.due = 0.0

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, preexec_fn=_die_with_parent)
        self.started = time.monotonic()
        print(f"supervise: {self.name} started (pid {self.process.pid})", file=sys.stderr, flush=True)

    def check(self) -> None:
        """Start the child again if it exited, after its pause."""
        now = time.monotonic()
        if self.process is None:
            if now >= self.due:
                self.start()
            return
        code = self.process.poll()
        if code is None:
            return
        ran = now - self.started
        self.pause = 0.0 if ran >= RUN_WELL_SECONDS else min(MAX_PAUSE_SECONDS, max(1.0, self.pause * 2))
        print(
            f"supervise: {self.name} (pid {self.process.pid}) exited with {code} after {ran:.0f} s; "
            f"starting it again in {self.pause:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        self.process, self.due = None, now + self.pause

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait(self, deadline: float) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def children(schedule: str, loglevel: str) -> list[Child]:
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    return [
        Child("worker", [*celery, "worker", "--pool", "solo", "--loglevel", loglevel, "--without-mingle"]),
        Child("beat", [*celery, "beat", "--loglevel", loglevel, "--schedule", schedule]),
    ]


def run(kept: list[Child]) -> int:
    stopping: list[int] = []
    parent = os.getppid()

    def stop(signum, frame) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, stop)
    _die_with_parent()  # this process too: `make run` killed outright takes its Celery with it
    try:
        while not stopping and os.getppid() == parent:
            for child in kept:
                child.check()
            time.sleep(0.2)
    finally:
        for child in kept:
            child.stop()
        deadline = time.monotonic() + STOP_SECONDS
        for child in kept:
            child.wait(deadline)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="config.supervise", description=__doc__.split("\n\n")[0])
    folder = os.environ.get("EMBEDDED_BROKER_DIR") or tempfile.gettempdir()
    parser.add_argument("--schedule", default=os.path.join(folder, "beat-schedule"), help="beat's schedule file")
    parser.add_argument("--loglevel", default="WARNING")
    args = parser.parse_args(argv)
    return run(children(args.schedule, args.loglevel))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
