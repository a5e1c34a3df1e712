# The backgammon bot: docker build -t backgammon-bot . && docker run --env-file .env -v data:/data backgammon-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BACKGAMMON_DB=/data/backgammon.sqlite3

RUN useradd --create-home --uid 10001 backgammon \
    && mkdir -p /data && chown backgammon:backgammon /data

WORKDIR /src
# The dependencies (and the build backend) first, read from pyproject.toml without the package:
# this layer stays cached until pyproject.toml changes, whatever happens to the code.
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb')); \
print(*p['build-system']['requires'], *p['project']['dependencies'], sep='\n')" \
        > requirements.txt \
    && pip install -r requirements.txt

# Then a normal (not editable) install: the fonts (assets/, which bot/assets links to) and the
# migrations are copied into site-packages, so the sources can go.
COPY README.md ./
COPY assets ./assets
COPY bot ./bot
RUN pip install --no-deps --no-build-isolation . && cd / && rm -rf /src

USER backgammon
# Not /src: `python -m bot` must import the installed package, not a folder named bot here.
WORKDIR /home/backgammon
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
