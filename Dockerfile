# herdbot: `docker build -t herdbot .`, then `docker run` as in README.md (Docker).
# Python 3.12 on Debian 12 (bookworm), pinned to one release: a rebuild gets the same base
# until this line changes. The tests run on 3.11 and, where the machine has it, on 3.12.
FROM python:3.12.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HERDBOT_DATABASE=/data/herdbot.sqlite3

# 1. The dependencies alone, read from pyproject.toml: this layer is rebuilt only when
#    pyproject.toml changes, not on a code change.
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# 2. herdbot itself, a regular (not editable) install: the package goes to site-packages,
#    the card data and fonts to /usr/local/share/herdbot (bot/paths.py finds them there).
#    The source folder is removed afterwards.
COPY README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY seeds ./seeds
COPY assets ./assets
RUN pip install --no-deps . \
    && cd / && rm -rf /src \
    && useradd --create-home --uid 10001 herdbot \
    && mkdir -p /data && chown herdbot:herdbot /data

USER herdbot
WORKDIR /data
VOLUME ["/data"]
# Python as PID 1 ignores SIGTERM; SIGINT lets discord.py close cleanly on `docker stop`.
STOPSIGNAL SIGINT
CMD ["herdbot", "run"]
