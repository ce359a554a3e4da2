"""Real-cards tables benchmark: 10 tables playing at once on the embedded default, several phones on each.

The site runs as `make run` serves it: `manage.py runserver` (threaded WSGI, DEBUG on) on the embedded default
(SQLite, no Redis: an event is delivered in process and each table's stream polls its version in the database
every 0.25 s, `games.online.stream`), in a process of its own (`bench.tabletop_settings`: the project's settings,
and its URLs plus the peer's, `bench.tabletop_site`). This process sets the tables up in the same SQLite file
(Coruscant Shift, the site rolls), then, at once, for each table:

- the host's driver plays the table through the API (`POST /api/tabletop/<code>/step/`, token auth): deal, the
  site's roll, every player's choice (keep two cards, add none, check or call), the winners named instead of the
  cards, the next deal; after each step it waits until every phone has it, then pauses (`--think`);
- the phones: `--phones` signed-in players' event streams (`/tabletop/<code>/events/`), each rendering the table
  for its own player (their buttons included), as their phones do;
- the peer: one bare stream per table (`/bench-peer/<code>/events/`) on the same server, hearing the same
  announcement in process and sending the version without reading or rendering anything.

Measured: from just before a step's POST is sent to its version arriving on each phone's stream (every phone's
receipt counted), p50/p95/max, and the same for the peer; the ratio of the phones' p95 to the peer's. The aim:
a real-cards action reaches every phone within 300 ms p95.

Run: `.venv/bin/python -m bench.tabletop_bench [--tables 10] [--phones 4] [--seconds 30] [--think 0.3]`
(a temporary SQLite file; no PostgreSQL or Redis needed).
"""

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AIM_P95_MS = 300.0
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal")


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.tabletop_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--phones", type=int, default=4, help="players (each a phone's stream) per table (2-8)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the tables play")
    parser.add_argument("--think", type=float, default=0.3, help="mean pause after a step reaches every phone")
    parser.add_argument(
        "--hands", type=int, default=8, help="hands each table has played before the bench (its steps rebuilt)"
    )
    return parser.parse_args(argv)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Table:
    """One table: its code, its host's token, and what its streams have received (version -> receipt times)."""

    def __init__(self, code: str, token: str, streams: int) -> None:
        self.code = code
        self.token = token
        self.streams = streams
        self.sent: dict[int, float] = {}  # version -> when its step's POST was about to be sent
        self.got: dict[int, list[float]] = {}  # version -> each phone's receipt time
        self.peer: dict[int, float] = {}
        self.changed = threading.Condition()
        self.history = 0  # steps the table held before the bench

    def receive(self, version: int, at: float, *, peer: bool) -> None:
        with self.changed:
            if peer:
                self.peer.setdefault(version, at)
            else:
                self.got.setdefault(version, []).append(at)
            self.changed.notify_all()

    def wait_all(self, version: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.got.get(version, [])) >= self.streams, timeout=timeout)


def _migrate() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _setup(args: argparse.Namespace) -> tuple[list[Table], dict[str, list[str]]]:
    """The tables, started, in the SQLite file; each phone's session cookie."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.tabletop import services

    users = get_user_model().objects
    tables, cookies, evening = [], {}, ()
    for number in range(args.tables):
        host = users.create_user(username=f"host{number}")
        table = services.realtable_open(
            actor=host,
            variant="coruscant_shift",
            preset="cantina",
            starting_credits=1000,
            has_dice=False,
            host_plays=False,
        )
        cookies[table.code] = []
        for seat in range(args.phones):
            player = users.create_user(username=f"t{number}p{seat}")
            services.realseat_join(actor=player, table=table, name=NAMES[seat])
            client = Client()
            client.force_login(player)
            cookies[table.code].append(client.cookies["sessionid"].value)
        services.realtable_start(actor=host, table=table, dealer=0)
        table.refresh_from_db()
        if args.hands:
            evening = evening or _history(table, args.hands)
            history, snapshot = evening
            # The evening so far, as if played: the same steps at every table (a site roll keeps its dice), saved
            # with their snapshot as the services save them.
            changes = [{"did": step, "by": "bench", "version": table.version + n + 1} for n, step in enumerate(history)]
            table.steps, table.changes, table.version = history, changes, table.version + len(history)
            table.snapshot = snapshot
            table.save(update_fields=["steps", "changes", "version", "snapshot"])
        token = Token.objects.create(user=host)
        tables.append(Table(table.code, token.key, args.phones))
        tables[-1].history = len(table.steps)
    connections.close_all()
    return tables, cookies


def _history(table, hands: int) -> tuple[list[dict], dict]:
    """`hands` hands played by the engine alone (everyone keeps two cards, adds none, checks or calls; the first
    seat still in named the winner): the steps a table holds after that much of an evening, and their snapshot."""
    from games.engine.realcards.due import due
    from games.tabletop.state import load_game, snapshot_of

    game = load_game(table)
    while game.game.hands_played < hands:
        now = due(game)
        if now["due"] == "deal":
            game.step({"step": "deal"})
        elif now["due"] == "dice":
            game.step({"step": "dice", "by": "site"})
        elif now["due"] == "act":
            seat = now["seats"][0]
            verbs = now["choices"][seat]["verbs"]
            if "select" in verbs:
                game.step(
                    {"step": "act", "seat": seat, "verb": "select", "count": 0 if now["phase"] == "improve" else 2}
                )
            else:
                game.step({"step": "act", "seat": seat, "verb": "check" if "check" in verbs else "call"})
        else:
            pot = (now.get("or_name_winners") or now.get("pots"))[0]
            game.step({"step": "winners", "pot": pot["pot"], "seats": [pot["eligible"][0]]})
    return list(game.steps), snapshot_of(game)


def _listen(port: int, table: Table, path: str, cookie: str, stop: threading.Event, *, peer: bool) -> None:
    """One phone (or the peer): hold the stream open and stamp each version as it arrives."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Accept": "text/event-stream"}
    if cookie:
        headers["Cookie"] = f"sessionid={cookie}"
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    try:
        while not stop.is_set():
            line = answer.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                table.receive(int(line[4:].strip()), time.monotonic(), peer=peer)
    except (OSError, http.client.HTTPException):
        return
    finally:
        connection.close()


def _first_messages(tables: list[Table], timeout: float) -> None:
    """Wait until every phone's stream has sent its first message (the table as it is): every stream is open."""
    deadline = time.monotonic() + timeout
    for table in tables:
        with table.changed:
            table.changed.wait_for(
                lambda t=table: sum(len(v) for v in t.got.values()) >= t.streams, max(0.0, deadline - time.monotonic())
            )


def _next_step(state: dict) -> dict:
    """The host's next step for the table as the API shows it: the same choices every phone is offered."""
    prompt = state["prompt"]
    due = prompt["due"]
    if due == "deal":
        return {"step": "deal"}
    if due == "dice":
        return {"step": "dice", "by": "site"}
    if due == "act":
        row = prompt["seats"][0]
        verbs = [b["verb"] for b in row["buttons"]]
        if "select" in verbs:
            keep = 0 if "mprove" in state["hand"]["phase"] else 2
            return {"step": "act", "seat": row["seat"], "verb": "select", "count": keep}
        return {"step": "act", "seat": row["seat"], "verb": "check" if "check" in verbs else "call"}
    if due in ("reveal", "winners"):
        pots = prompt.get("or_name_winners") or prompt.get("pots") or []
        pot = pots[0]
        return {"step": "winners", "pot": pot["pot"], "seats": [pot["eligible"][0]]}
    raise RuntimeError(f"the bench does not know what to do when {due!r} is due: {prompt['says']}")


def _drive(port: int, table: Table, until: float, think: float, rng: random.Random, errors: list[str]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {table.token}", "Content-Type": "application/json"}
    connection.request("GET", f"/api/tabletop/{table.code}/", headers=headers)
    state = json.loads(connection.getresponse().read())
    while time.monotonic() < until:
        step = _next_step(state)
        version = state["version"]
        table.sent[version + 1] = time.monotonic()
        body = json.dumps({"step": step, "version": version})
        connection.request("POST", f"/api/tabletop/{table.code}/step/", body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            errors.append(f"{table.code} {step}: {answer.status} {data[:300]!r}")
            return
        state = json.loads(data)
        if not table.wait_all(state["version"], timeout=10):
            errors.append(f"{table.code}: version {state['version']} did not reach every phone within 10 s")
            return
        time.sleep(think * rng.uniform(0.5, 1.5))
    connection.close()


def _start(port: int, database: str, log) -> subprocess.Popen:
    """`manage.py runserver` as `make run` starts it (no reloader), its request log to `log`."""
    env = {**os.environ, "DATABASE_URL": database, "DEBUG": "true", "PYTHONWARNINGS": "ignore"}
    env.pop("REDIS_URL", None)
    command = ["manage.py", "runserver", "--noreload", "--settings", "bench.tabletop_settings", f"127.0.0.1:{port}"]
    return subprocess.Popen([sys.executable, *command], cwd=ROOT, env=env, stdout=log, stderr=log)


def _wait_up(server: subprocess.Popen, port: int, log) -> None:
    for _ in range(600):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if server.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the server stopped: {log.read()[-2000:]}") from None
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start within 60 s")


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux's /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _report(tables: list[Table], args: argparse.Namespace, seconds: float, cpu: float | None = None) -> int:
    phone_ms, peer_ms, share_ms, missed = [], [], [], 0
    for table in tables:
        for version, sent in table.sent.items():
            got = table.got.get(version, [])
            missed += max(0, table.streams - len(got))
            phone_ms += [(at - sent) * 1000 for at in got]
            if version in table.peer:
                peer_ms.append((table.peer[version] - sent) * 1000)
                share_ms += [(at - table.peer[version]) * 1000 for at in got]
    steps = sum(len(t.sent) for t in tables)
    history = tables[0].history
    if not phone_ms or not peer_ms:
        print("No step reached a phone: nothing to measure.")
        return 1
    print(
        f"{args.tables} real-cards tables, {args.phones} phones each ({args.tables * args.phones} streams), "
        f"{steps} steps in {seconds:.0f} s ({steps / seconds:.1f} per second), on runserver with SQLite, no Redis; "
        f"each table {args.hands} hands ({history} steps) into its evening before"
    )
    for name, samples in (("step POST -> every phone", phone_ms), ("peer: the bare stream, same event", peer_ms)):
        print(
            f"  {name:<36} p50 {statistics.median(samples):7.1f} ms   p95 {_p(samples, 0.95):7.1f} ms   "
            f"max {max(samples):7.1f} ms   ({len(samples)} receipts)"
        )
    if share_ms:
        print(
            f"  the phones' own share (after the bare stream had the step): p50 {statistics.median(share_ms):.1f} ms, "
            f"p95 {_p(share_ms, 0.95):.1f} ms"
        )
    if missed:
        print(f"  receipts missing: {missed}")
    if cpu is not None:
        # What the load of the machine cannot change: the server's own work per step, its streams' included.
        print(f"  the server's CPU while the tables played: {cpu:.1f} s, {cpu * 1000 / steps:.1f} ms per step")
    p95 = _p(phone_ms, 0.95)
    print(f"  ratio, phones' p95 against the bare stream's: {p95 / max(_p(peer_ms, 0.95), 0.001):.1f}x")
    print(f"  ratio, phones' p95 against the aim ({AIM_P95_MS:.0f} ms): {p95 / AIM_P95_MS:.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    if not 2 <= args.phones <= len(NAMES):
        print("--phones is 2 to 8 (the seats of a table).", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as folder:
        database = f"sqlite:///{folder}/bench.sqlite3"
        os.environ["DATABASE_URL"] = database
        os.environ.pop("REDIS_URL", None)
        os.environ["DEBUG"] = "true"
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
        _migrate()
        port = _free_port()
        log = open(Path(folder) / "server.log", "w+")  # noqa: SIM115 (closed after the server, before the folder)
        server = _start(port, database, log)  # it starts while this process seats the players
        stop = threading.Event()
        threads, errors = [], []
        try:
            tables, cookies = _setup(args)
            _wait_up(server, port, log)
            for table in tables:
                for cookie in cookies[table.code]:
                    threads.append(
                        threading.Thread(
                            target=_listen,
                            args=(port, table, f"/tabletop/{table.code}/events/", cookie, stop),
                            kwargs={"peer": False},
                            daemon=True,
                        )
                    )
                threads.append(
                    threading.Thread(
                        target=_listen,
                        args=(port, table, f"/bench-peer/{table.code}/events/", "", stop),
                        kwargs={"peer": True},
                        daemon=True,
                    )
                )
            for thread in threads:
                thread.start()
            _first_messages(tables, timeout=30)
            start = time.monotonic()
            until = start + args.seconds
            rng = random.Random(25)
            drivers = [
                threading.Thread(
                    target=_drive, args=(port, table, until, args.think, random.Random(rng.random()), errors)
                )
                for table in tables
            ]
            cpu_before = _cpu_seconds(server.pid)
            for driver in drivers:
                driver.start()
            for driver in drivers:
                driver.join()
            seconds = time.monotonic() - start
            cpu_after = _cpu_seconds(server.pid)
            cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
        finally:
            stop.set()
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()
        for error in errors:
            print(f"error: {error}")
        code = _report(tables, args, seconds, cpu)
        return 1 if errors else code


if __name__ == "__main__":
    sys.exit(main())
