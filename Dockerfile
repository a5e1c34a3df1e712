# The backgammon bot: docker build -t backgammon-bot . && docker run --env-file .env -v data:/data backgammon-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BACKGAMMON_DB=/data/backgammon.sqlite3

RUN useradd --create-home --uid 10001 backgammon \
    && mkdir -p /data && chown backgammon:backgammon /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY assets ./assets
# Editable install: the renderer loads its fonts from /app/assets.
RUN pip install -e .

USER backgammon
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
