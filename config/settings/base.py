"""Settings read from environment variables, with safe defaults for development.

Unset, everything is embedded: a SQLite file, Celery running tasks in-process and a
local-memory cache. `DATABASE_URL` and `REDIS_URL` switch to the real services.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable; anything unexpected is an error, not a guess."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value; use true/false, 1/0, yes/no or on/off.")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEVELOPMENT_SECRET_KEY = "dev-only-not-secret-5f0c1e9b2a7d4c3e8b6a1f0d9c2e7b4a3f6d8c1e"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
# Off unless asked for: `make run` and `make test` set DEBUG=true; a server started any other way shows no
# debug pages.
DEBUG = env_bool("DEBUG", False)
# The test client's "testserver" is added by the test runner itself, never here.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
# Production settings set this: commands that must not run there (demo_data) look at it.
IS_PRODUCTION = False
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "allauth",
    "allauth.account",
    "games",
    "league",
    "tournaments",
    "accounts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.viewer_cache.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.middleware.MethodNotAllowedPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "league.notices.JoinNoticeMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# Threads per ASGI process for requests' synchronous part (`config.asgi`): at most this many requests run their
# middleware and view at once; the rest wait their turn on the event loop. Below DB_POOL_MAX, so a request's
# thread seldom waits for a database connection.
ASGI_THREADS = int(os.environ.get("ASGI_THREADS", "8"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# A kept connection is checked before it is used again (one the server dropped is replaced, not an error).
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Every process keeps a bounded pool (psycopg_pool through Django): a request borrows a connection and gives it
    # back, so connections are reused and never exceed DB_POOL_MAX per process (README, "Database connections").
    # A pool needs CONN_MAX_AGE 0: the pool, not Django, decides how long a connection lives; with CONN_HEALTH_CHECKS
    # the pool checks a connection as it lends it (one the server terminated is replaced, not handed out).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "1")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "30")),
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "60"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Redis: broker and result backend, cache and event channel when set; embedded otherwise.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {"default": {"BACKEND": "config.shared_cache.RedisCache", "LOCATION": REDIS_URL}}
    # Sessions read from Redis, written through to the database (a signed-in page then reads no session row;
    # `config.sessions`: Django's cached_db, safe with Redis down). Not with the embedded local-memory cache:
    # a session ended in one process would live on in another's memory.
    SESSION_ENGINE = "config.sessions"
else:
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fixup closes every database connection, and with a pool the whole pool, before and after every
# task unless this is set; then only every 2 x this many tasks. The worker gives its connections back to the pool
# around each task instead (config.celery), so they are reused: a bot decision opened a new one each time.
CELERY_DB_REUSE_MAX = 1_000_000_000
# How long a worker's task waits for a pooled connection before it is retried with a fresh pool (config.celery).
WORKER_DB_POOL_TIMEOUT = float(os.environ.get("WORKER_DB_POOL_TIMEOUT", "3"))
# A message a worker took and never acknowledged (killed) goes back to the queue after this long; the online
# tables send no countdown longer than a minute (games.online.schedule), and the sweep below resends lost work
# within seconds anyway. Sending gives up quickly with the broker down (the sweep sends it again): a request
# whose change is committed is not held.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 120, "socket_connect_timeout": 2, "socket_timeout": 5}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 2, "interval_step": 0.5}}
# A worker waits for a broker that went away as long as it takes, trying every second or two (config.celery).
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULE: dict = {
    # The tournament clock's safety net: each level change is also scheduled for its exact time (eta), and this
    # re-check announces anything due that a lost or late task missed (idempotent: keyed by tournament and level).
    "tournaments-clock": {"task": "tournaments.clock_tick_due", "schedule": float(os.environ.get("CLOCK_BEAT", "1"))},
    # The online tables' safety net: the work of a running table overdue on its row is sent again.
    "online-sweep": {
        "task": "online.sweep",
        "schedule": float(os.environ.get("ONLINE_SWEEP_BEAT", "2")),
        "options": {"expires": 10},
    },
}

# The browsable API (HTML pages and their login form, which no rate limit guards) in development only; the
# OpenAPI schema (/api/schema/) and its docs (/api/docs/, /api/redoc/) stay public everywhere: they describe
# the API, hold no data, and the API's reads are public for public leagues anyway.
API_BROWSABLE = env_bool("API_BROWSABLE", DEBUG)

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if API_BROWSABLE else []),
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an unauthenticated API call gets 401 with a WWW-Authenticate header.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
        "rest_framework.filters.SearchFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sabacc leagues API",
    # What a newcomer needs before the first call (Swagger UI and Redoc show it as Markdown); docs/api.md in full.
    "DESCRIPTION": (
        "Leagues, seasons, tournaments, tables and games of Sabacc: everything the site's pages do, with the same "
        "permissions.\n\n"
        "**Signing in.** Reads of public leagues need none; every write does. `POST /api/auth/token/` (under "
        '*auth* below) with the `username` (or e-mail) and `password` of your account answers `{"token": ...}`: '
        "press **Authorize** and enter `Token ` and the token, or send the header `Authorization: Token <token>`. "
        "A browser signed in to the site is signed in here too. No account yet? [Sign up](/accounts/signup/).\n\n"
        '**Errors** have one shape: `{"detail": ..., "code": ..., "extra": {...}}`; `detail` says what is '
        "wrong and what is allowed, and a refused request writes nothing.\n\n"
        "[Back to the site](/) · [How to play](/rules/) · [The schema itself](/api/schema/)"
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Events' and games' status (the same three values) keeps its name beside other fields called "status".
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "league.models.EventStatus",
        "SiteTableKindEnum": "league.api.serializers.SITE_TABLE_KINDS",
        "EventKindEnum": "league.models.EventKind",
    },
}

# Secrets in a link's path (a seat's hand-over, a join code, an invite, a password reset) never reach a log line:
# `config.log_redaction` filters the loggers that write request paths, uvicorn's access log among them.
LOGGING_CONFIG = "config.log_redaction.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.db.backends": {"level": "WARNING"},
    },
}

# Proxies under our control in front of the app, each adding one X-Forwarded-For entry (docker-compose: 1, its
# Caddy). 0 when served directly: the header is then the client's own text and is ignored. This one number says
# where the client address is for DRF, allauth and the rate limits of both (config.client_address).
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
if NUM_PROXIES < 0:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"NUM_PROXIES={NUM_PROXIES}: give the number of proxies in front, 0 or more.")
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES
ALLAUTH_TRUSTED_PROXY_COUNT = NUM_PROXIES

# Password guessing on the API's token endpoint (config.auth): attempts per account (named by username or
# e-mail) and per client address, as DRF rates ("5/min", "100/hour").
TOKEN_RATE_LIMITS = {
    "account": os.environ.get("TOKEN_RATE_LIMIT_ACCOUNT", "5/min"),
    "address": os.environ.get("TOKEN_RATE_LIMIT_ADDRESS", "20/min"),
}

# Who may create a league (league.permissions.can_create_league): "anyone" signed in, or "staff" (site
# admins) only. Development lets anyone; production settings default to staff.
# How long a process may trust what it read of a league (visibility, data version) for anonymous visitors'
# pages, in seconds: a write then shows to them at most this late (`league.page_stamps`); 0 turns it off.
# With Redis the league and event pages read the leagues' state there (no query), so nothing is remembered.
PAGE_STAMP_MAX_AGE = float(os.environ.get("PAGE_STAMP_MAX_AGE", "0" if REDIS_URL else "0.1"))
LEAGUE_CREATORS = os.environ.get("LEAGUE_CREATORS", "anyone")
if LEAGUE_CREATORS not in ("anyone", "staff"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"LEAGUE_CREATORS={LEAGUE_CREATORS!r}: use anyone or staff.")

# Static files through WhiteNoise; in development it finds them without collectstatic.
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)

# Accounts (django-allauth)
# Sign in with a username or an e-mail address; sign-up asks for both (the e-mail is where a password reset
# goes). E-mail goes to the console unless EMAIL_HOST is set, then over SMTP with the EMAIL_* variables.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_GET = False  # sign-out is a POST (a link cannot sign anyone out)
ACCOUNT_SESSION_REMEMBER = None  # the sign-in form offers "remember me"
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
# The client address past NUM_PROXIES, and failed sign-ins counted per account, not per text typed.
ACCOUNT_ADAPTER = "config.sign_in_limits.AccountAdapter"
# Refused attempts answer 429. Failed sign-ins: 10 a minute from one address, 5 per 5 minutes for one account.
ACCOUNT_RATE_LIMITS = {
    "login": os.environ.get("RATE_LIMIT_LOGIN", "30/m/ip"),
    "login_failed": os.environ.get("RATE_LIMIT_LOGIN_FAILED", "10/m/ip,5/5m/key"),
    "signup": os.environ.get("RATE_LIMIT_SIGNUP", "20/m/ip"),
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sabacc leagues <noreply@localhost>")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Online tables
# The worker finds the tasks of games/online (autodiscovery only looks at each app's tasks.py).
CELERY_IMPORTS = ["games.online.tasks"]
ONLINE_EVENT_PREFIX = os.environ.get("ONLINE_EVENT_PREFIX", "online")
ONLINE_HAND_PAUSE_SECONDS = float(os.environ.get("ONLINE_HAND_PAUSE_SECONDS", "5"))
ONLINE_BOT_DELAY_SECONDS = (0.8, 2.0)
# `make run` starts a Celery worker beside the server on an embedded broker (kombu's filesystem
# transport, writing each message whole before it appears: config.broker; in EMBEDDED_BROKER_DIR)
# when there is no Redis: bots, the turn clock and the next hand
# then really run later, in another process. The table pages hear of the worker's changes through
# the database (games/online/stream.py), so no Redis is needed for live updates either.
EMBEDDED_BROKER_DIR = os.environ.get("EMBEDDED_BROKER_DIR", "")
if not REDIS_URL and EMBEDDED_BROKER_DIR:
    Path(EMBEDDED_BROKER_DIR).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "atomicfile://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        **CELERY_BROKER_TRANSPORT_OPTIONS,
        "data_folder_in": EMBEDDED_BROKER_DIR,
        "data_folder_out": EMBEDDED_BROKER_DIR,
        "control_folder": str(Path(EMBEDDED_BROKER_DIR) / "control"),
    }
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_TASK_IGNORE_RESULT = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction begins (the server and the worker share the file),
    # and WAL lets the live pages read while a hand is being written.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;", "timeout": 20}
    )
    # Tests on SQLite use a file too (Django's default is a shared in-memory database, whose table locks fail at
    # once instead of waiting, so a live server's request could fail where `make run` would wait its turn).
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"sabacc-test-{BASE_DIR.name}.sqlite3")}
