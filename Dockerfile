# Multi-stage: build a wheel and its dependencies, then a slim runtime with only what runs.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md alembic.ini ./
COPY bot bot
COPY engine engine
COPY migrations migrations
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 herald && mkdir /data && chown herald /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER herald
WORKDIR /home/herald
# /healthz and /metrics on 9100, reachable from outside the container (publish the port only to Prometheus)
ENV HERALD_DATA_DIR=/data PYTHONUNBUFFERED=1 HERALD_METRICS_PORT=9100 HERALD_METRICS_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 9100
# healthy when every shard of this process is connected and the database answers (the image has no curl)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('HERALD_METRICS_PORT', '9100') + '/healthz', timeout=4)"]
# docker stop sends SIGTERM: the bot closes its gateway connection and exits cleanly
CMD ["herald", "run"]
