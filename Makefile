# The two commands: `make run` (set up and serve with demo data) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format install native browser bench bench-engine bench-league worker beat serve migrate demo clean

$(STAMP): requirements/base.txt requirements/dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile --require-hashes -r requirements/dev.txt
	touch $(STAMP)

# The engine's hottest modules compiled with Cython (games/native.py); only changed modules are rebuilt.
# Without a C compiler the engine runs as plain Python (CI=true makes that an error: CI measures what ships).
native: $(STAMP)
	$(BIN)/python -m games.native_build $(if $(filter true,$(CI)),--strict,)

install: $(STAMP) native

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_data

# Without Redis, the Celery worker beside the server takes its tasks from files in this folder.
EMBEDDED_BROKER_DIR ?= /tmp/sabacc-broker-$(notdir $(CURDIR))-$(PORT)

run: demo
	@echo "Serving at http://$(HOST):$(PORT)/  sign in as organiser, player or admin (password sabacc-demo); leagues: /leagues/, tables: /tables/, API docs: /api/docs/, admin: /admin/; Ctrl-C stops"
	@echo "A Celery worker and beat run beside the server (bots, turn clock, next hand, the sweep, the tournament clock), restarted if they stop (config/supervise.py)."
	@export EMBEDDED_BROKER_DIR=$(EMBEDDED_BROKER_DIR); \
	$(BIN)/python -m config.supervise --schedule $(EMBEDDED_BROKER_DIR)/beat-schedule & celery=$$!; \
	trap 'kill $$celery 2>/dev/null' EXIT INT TERM; \
	DEBUG=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Debian's Chromium for the browser tests (Playwright cannot download its own here).
browser:
	@bash .ci/ensure-chromium

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Two pytest-xdist workers, each with its own test database and Redis database (tests/conftest.py); `--dist load`
# keeps pytest-django's order (transactional tests last) within each worker. PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= 2
test: lint browser
	DEBUG=true $(BIN)/pytest -n $(PYTEST_WORKERS) --dist load $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m bench

worker: install
	$(BIN)/celery -A config worker --loglevel=INFO

beat: install
	$(BIN)/celery -A config beat --loglevel=INFO

serve: install
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-proxy-headers

clean:
	rm -rf $(VENV) .native staticfiles db.sqlite3 .pytest_cache .ruff_cache
