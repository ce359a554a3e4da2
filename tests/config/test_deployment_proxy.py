"""Issue 21, finding 4, where the app is deployed: docker-compose publishes only the proxy (Caddy), which writes the
one X-Forwarded-For entry the app trusts (NUM_PROXIES=1); uvicorn, as the image and `make serve` run it, never
takes the client address from the header itself, so what the rate limits see is what NUM_PROXIES says."""

import http.client
import json
import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.config.test_settings import HIDDEN_FROM_SUBPROCESS, ROOT


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def image_command() -> list[str]:
    cmd = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")][-1]
    return json.loads(cmd.removeprefix("CMD "))


def test_4_compose_publishes_only_the_proxy_which_forwards_to_the_app():
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    caddyfile = "\n".join(line.split("#")[0] for line in (ROOT / "Caddyfile").read_text().splitlines())
    assert "reverse_proxy web:8000" in caddyfile
    assert "trusted_proxies" not in caddyfile  # Caddy then replaces any X-Forwarded-For a client sends


def test_4_compose_trusts_one_proxy_and_uvicorn_leaves_the_address_to_the_app():
    services = compose()["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["environment"]["NUM_PROXIES"] == "1", name
    web = shlex.split(services["web"]["command"].split("&&")[-1].strip().rstrip('"'))
    assert web[0] == "uvicorn" and "--no-proxy-headers" in web
    assert not any(arg.startswith(("--proxy-headers", "--forwarded-allow-ips")) for arg in web)


def test_4_the_image_and_make_serve_run_uvicorn_without_proxy_headers():
    assert "--no-proxy-headers" in image_command()
    serve = (ROOT / "Makefile").read_text().split("\nserve:")[1].split("\n\n")[0]
    assert "uvicorn" in serve and "--no-proxy-headers" in serve


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served_as_the_image_runs_it():
    """uvicorn started with the Dockerfile's CMD (on a free local port), in a process of its own."""
    servers = []

    def start(num_proxies: int) -> int:
        port = free_port()
        command = image_command()
        command[command.index("--host") + 1] = "127.0.0.1"
        command[command.index("--port") + 1] = str(port)
        env = {key: value for key, value in os.environ.items() if key not in HIDDEN_FROM_SUBPROCESS}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.base",
            NUM_PROXIES=str(num_proxies),
            TOKEN_RATE_LIMIT_ADDRESS="2/min",
        )
        uvicorn = str(Path(sys.executable).with_name("uvicorn"))
        server = subprocess.Popen(
            [uvicorn, *command[1:]], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        servers.append(server)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stderr.read().decode()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return port
            except OSError:
                time.sleep(0.1)
        pytest.fail("uvicorn did not start within 60 s")

    yield start
    for server in servers:
        server.terminate()
        server.wait(timeout=10)


def token_attempt(port: int, forwarded_for: str) -> int:
    # No username: refused with a 400 by the serializer (no database needed), after the address limit counted it.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for}
    connection.request("POST", "/api/auth/token/", body="{}", headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status


def test_4_served_directly_uvicorn_and_the_app_ignore_a_forged_forwarded_for(served_as_the_image_runs_it):
    # uvicorn's default trusts X-Forwarded-For from 127.0.0.1: each forged address would have been a fresh budget.
    port = served_as_the_image_runs_it(num_proxies=0)
    assert [token_attempt(port, f"203.0.113.{n}") for n in range(1, 4)] == [400, 400, 429]


def test_4_behind_one_proxy_the_address_it_wrote_is_limited_and_no_other(served_as_the_image_runs_it):
    port = served_as_the_image_runs_it(num_proxies=1)
    forged = [token_attempt(port, f"203.0.113.{n}, 198.51.100.7") for n in range(1, 4)]
    assert forged == [400, 400, 429]
    assert token_attempt(port, "198.51.100.8") == 400


def test_compose_and_the_image_name_uvloop_and_httptools_which_are_pinned():
    """Named, not left to uvicorn's "auto" (which falls back to asyncio's loop and h11 in silence), and pinned."""
    web = shlex.split(compose()["services"]["web"]["command"].split("&&")[-1].strip().rstrip('"'))
    for command in (web, image_command()):
        assert command[command.index("--loop") + 1] == "uvloop"
        assert command[command.index("--http") + 1] == "httptools"
    for requirements in ("base.txt", "dev.txt"):
        text = (ROOT / "requirements" / requirements).read_text()
        assert "\nuvloop==" in text and "\nhttptools==" in text, requirements
