# One image for the web, worker and beat processes.

# The engine's hottest modules compiled with Cython (games/native.py), in a stage with a C compiler.
FROM python:3.11-slim AS native
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements/base.txt requirements/base.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/base.txt
COPY games games
RUN python -m games.native_build --strict

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.production
WORKDIR /app
COPY requirements/base.txt requirements/base.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/base.txt
COPY . .
COPY --from=native /app/.native .native
# collectstatic needs settings that import; the real key comes from the environment at run time.
RUN SECRET_KEY=collectstatic-only DEBUG=false python manage.py collectstatic --noinput
RUN useradd --create-home sabacc && chown -R sabacc /app
USER sabacc
EXPOSE 8000
# uvicorn never takes the client address from X-Forwarded-For (its default trusts 127.0.0.1): the app does, past
# the NUM_PROXIES proxies it is told stand in front (0 unless set: served directly, the header is ignored).
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--no-proxy-headers", "--loop", "uvloop", "--http", "httptools"]
