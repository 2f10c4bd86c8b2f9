# Смута: the bot, as one non-root process (`python -m bot`).
#
#   docker build -t smuta .                      # with the "sentry" extra (SENTRY_DSN)
#   docker build --build-arg EXTRAS= -t smuta .  # without it
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# optional extras of pyproject.toml to install, comma-separated ("" for none)
ARG EXTRAS=sentry

RUN useradd --create-home --uid 10001 smuta
WORKDIR /src

# 1. The dependencies, read from pyproject.toml alone: this layer is rebuilt
#    when they change, never when only the code does.
COPY pyproject.toml ./
RUN python -c "import os, tomllib; \
project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
extras = [e.strip() for e in os.environ.get('EXTRAS', '').split(',') if e.strip()]; \
wanted = project['dependencies'] + [d for e in extras for d in project['optional-dependencies'][e]]; \
print('\n'.join(wanted))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# 2. The code (texts included), installed without touching the dependencies.
COPY README.md ./
COPY engine ./engine
COPY locales ./locales
COPY bot ./bot
RUN pip install --no-deps . \
    && rm -rf /src

USER smuta
WORKDIR /home/smuta

# 8080: the webhook (webhook mode only); 8081: /healthz, /readyz, /metrics
# (HEALTH_HOST defaults to 127.0.0.1: set it to 0.0.0.0 for a scraper outside
# the container, as the compose files do)
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.probe", "healthz"]
# SIGTERM (docker stop): no new updates, the ones in hand finish (DRAIN_SECONDS), exit 0
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
