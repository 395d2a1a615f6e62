# syntax=docker/dockerfile:1
# The Cardavia server image: `docker build -t cardavia .`, then
#   docker run -p 8765:8765 -e CARDAVIA_REDIS_URL=redis://… cardavia
# Every setting is a CARDAVIA_* variable (README.md, server/config.py); the
# image sets only where to listen and where records go.

# The Python the tests run on (pyproject.toml: requires-python, tool.mypy), so the
# image runs what was tested (tests/deploy/test_dockerfile.py checks they agree).
ARG PYTHON_VERSION=3.11
ARG DEBIAN_RELEASE=trixie

# ---- builder: the cardavia wheel and the locked wheel of every dependency
FROM python:${PYTHON_VERSION}-slim-${DEBIAN_RELEASE} AS builder
WORKDIR /src
# .dockerignore lets in only pyproject.toml, README.md, LICENSE, requirements.lock
# and the package folders
COPY . .
# requirements.lock pins every runtime dependency with its hashes, so two builds of
# the same sources install the same files; the terminal client's extra (textual)
# is not in it. The cardavia wheel is built without its dependencies: the lock
# holds them (tests/test_packaging.py keeps it in step with pyproject.toml).
RUN pip wheel --no-cache-dir --require-hashes --wheel-dir /wheels -r requirements.lock \
    && pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
    && cp requirements.lock /wheels/

# ---- the image: the wheels installed into a slim Python, nothing to build with
FROM python:${PYTHON_VERSION}-slim-${DEBIAN_RELEASE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CARDAVIA_HOST=0.0.0.0 \
    CARDAVIA_PORT=8765 \
    CARDAVIA_RECORDS_DIR=/var/lib/cardavia/records
# The wheels are bind-mounted from the builder, so none of them stays in a layer;
# pip itself goes afterwards: the running server never installs anything.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links=/wheels --require-hashes -r /wheels/requirements.lock \
    && pip install --no-cache-dir --no-index --no-deps /wheels/cardavia-*.whl \
    && pip uninstall --yes pip \
    && groupadd --system --gid 10001 cardavia \
    && useradd --system --uid 10001 --gid cardavia --home-dir /var/lib/cardavia \
        --no-create-home --shell /usr/sbin/nologin cardavia \
    && install --directory --owner=cardavia --group=cardavia /var/lib/cardavia/records
WORKDIR /var/lib/cardavia
# numeric, so that Kubernetes' runAsNonRoot can check it
USER 10001:10001
EXPOSE 8765
# SIGTERM is the graceful drain: stop accepting, close every client with 1012
# ("service restart"), exit. The exec-form ENTRYPOINT makes `cardavia` PID 1,
# so the signal reaches it (no shell in between).
STOPSIGNAL SIGTERM
# /healthz answers on the WebSocket port; Python's urllib, as the image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('CARDAVIA_PORT', '8765') + '/healthz', timeout=2)"]
ENTRYPOINT ["cardavia"]
CMD ["serve"]
