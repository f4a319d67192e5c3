# Slim image that runs the bot from a non-editable install of the package.
# SQLite by default (the database on the /data volume); set TG_DATABASE=postgresql://...
# for PostgreSQL (docker-compose.yml runs both).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TG_DATABASE=/data/tabletop.db
# so the bot's no-token text tells how to pass a token to a container (not to edit a .env in it)
ENV TG_IN_CONTAINER=1

# The CJK font comes from PyPI (paperang-p2-fonts-cjk: WenQuanYi Micro Hei), so the
# images draw Chinese without any system font package.  The source is only needed
# for the install: the game content (data/) is package data.
COPY . /src
RUN pip install --no-cache-dir /src \
    && rm -rf /src \
    && useradd --system --uid 10001 --home-dir /data --no-create-home tabletop \
    && mkdir -p /data && chown tabletop /data

USER tabletop
WORKDIR /data
VOLUME ["/data"]
# Without DISCORD_TOKEN the bot explains how to get one and pass it in, and exits (code 2).
CMD ["python", "-m", "bot"]
