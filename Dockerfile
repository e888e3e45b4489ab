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
ENV HERALD_DATA_DIR=/data PYTHONUNBUFFERED=1
VOLUME ["/data"]
# docker stop sends SIGTERM: the bot closes its gateway connection and exits cleanly
CMD ["herald", "run"]
