"""The Celery worker of the tables bench: the project's worker, with `services.bot_act` timed.

Each applied bot decision writes one line (table, seat, turn version, the moment the task called the
service) to `BENCH_TIMES_FILE`, so the bench can match it with the event a viewer received. Nothing else
changes: the task, the service, the lock, the engine, the commit and the publish are the real ones.
Run by `bench.tables_bench`, not by hand.
"""

import os
import time


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.conf import settings

    from config.celery import app
    from games.online import services

    low, high = (float(x) for x in os.environ.get("BENCH_BOT_DELAY", "0.8,2.0").split(","))
    settings.ONLINE_BOT_DELAY_SECONDS = (low, high)
    times_file = os.environ["BENCH_TIMES_FILE"]
    original = services.bot_act

    def timed_bot_act(*, table_id: int, seat_number: int, turn_version: int) -> bool:
        started = time.time()
        acted = original(table_id=table_id, seat_number=seat_number, turn_version=turn_version)
        if acted:
            with open(times_file, "a") as out:  # one short line per write: appends do not interleave
                out.write(f"{table_id} {seat_number} {turn_version} {started:.6f} {time.time():.6f}\n")
        return acted

    services.bot_act = timed_bot_act
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
