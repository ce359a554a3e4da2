"""The Celery worker of the tables bench: the project's worker, with the online services timed.

Two kinds of line go to `BENCH_TIMES_FILE` (appends of one short line each, so processes do not interleave):

- `due NAME KEY began due`: a service scheduled task NAME (`schedule.later`) at `began` to run at `due`
  (`began` + its countdown: a bot's designed pause, the turn time, the pause between hands);
- `done NAME KEY started finished result`: the worker's task called the service at `started`, which returned
  `result` at `finished` (after its commit and publish).

KEY is the task's arguments joined by commas. The bench matches them. Nothing else changes: the tasks, the
services, the lock, the engine, the commit and the publish are the real ones. Run by `bench.tables_bench`.
"""

import os
import time


def _write(path: str, line: str) -> None:
    with open(path, "a") as out:
        out.write(line + "\n")


def record_schedule(path: str) -> None:
    """Log every task a service schedules, with the moment it is due (used in the bench's process too)."""
    from games.online import schedule

    original = schedule.later

    def later(name, args, countdown):
        now = time.time()
        _write(path, f"due {name} {','.join(map(str, args))} {now:.6f} {now + countdown:.6f}")
        return original(name, args, countdown)

    schedule.later = later


def _timed(path: str, name: str, function, keys: tuple[str, ...]):
    def timed(**kwargs):
        started = time.time()
        result = function(**kwargs)
        key = ",".join(str(kwargs[k]) for k in keys)
        _write(path, f"done {name} {key} {started:.6f} {time.time():.6f} {int(result)}")
        return result

    return timed


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.conf import settings

    from config.celery import app
    from games.online import schedule, services

    low, high = (float(x) for x in os.environ.get("BENCH_BOT_DELAY", "0.8,2.0").split(","))
    settings.ONLINE_BOT_DELAY_SECONDS = (low, high)
    path = os.environ["BENCH_TIMES_FILE"]
    record_schedule(path)
    services.bot_act = _timed(path, "bot_act", services.bot_act, ("table_id", "seat_number", "turn_version"))
    services.next_hand = _timed(path, "next_hand", services.next_hand, ("table_id", "version"))
    services.turn_timeout = _timed(path, "turn_timeout", services.turn_timeout, ("table_id", "turn_version"))
    sweep = schedule.sweep

    def timed_sweep() -> int:
        resent = sweep()
        _write(path, f"sweep {time.time():.6f} {resent}")
        return resent

    schedule.sweep = timed_sweep
    queue = os.environ["BENCH_QUEUE"]
    app.conf.task_default_queue = queue
    app.worker_main(
        [
            "worker",
            "--pool=prefork",
            f"--concurrency={os.environ.get('BENCH_WORKER_PROCESSES', '2')}",
            "--loglevel=WARNING",
            f"--queues={queue}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


if __name__ == "__main__":
    main()
