"""A Celery worker as docker-compose runs it (prefork, 2 processes) that notes every PostgreSQL connection it opens,
for `test_worker_pace.py`: one line per connection in `COUNT_FILE`. Bots decide at once (no human-like pause) and the
next hand follows at once, so a test sees many decisions in a few seconds. Run by the test, not by hand."""

import os


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    import psycopg
    from django.conf import settings

    from config.celery import app

    path = os.environ["COUNT_FILE"]
    real = psycopg.Connection.connect.__func__

    def counting(cls, *args, **kwargs):
        with open(path, "a") as out:  # one short line per append: processes do not interleave
            out.write(f"{os.getpid()}\n")
        return real(cls, *args, **kwargs)

    psycopg.Connection.connect = classmethod(counting)  # the pool's connections too; inherited by the forks
    settings.ONLINE_BOT_DELAY_SECONDS = (0.0, 0.01)
    settings.ONLINE_HAND_PAUSE_SECONDS = 0.0
    queue = os.environ["WORKER_QUEUE"]
    app.conf.task_default_queue = queue
    app.worker_main(
        [
            "worker",
            "--pool=prefork",
            "--concurrency=2",
            "--loglevel=INFO",
            f"--queues={queue}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


if __name__ == "__main__":
    main()
