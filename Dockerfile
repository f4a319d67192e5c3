# Slim image that runs bot.py; the SQLite database lives on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TG_DATABASE=/data/tabletop.db

WORKDIR /app
# The CJK font comes from PyPI (paperang-p2-fonts-cjk: WenQuanYi Micro Hei), so the
# images draw Chinese without any system font package.
COPY pyproject.toml README.md bot.py driver.py ./
COPY engine ./engine
COPY render ./render
COPY cogs ./cogs
COPY store ./store
COPY data ./data
RUN pip install --no-cache-dir -e . \
    && useradd --system --uid 10001 --home /app tabletop \
    && mkdir -p /data && chown tabletop /data

USER tabletop
VOLUME ["/data"]
# Without DISCORD_TOKEN the bot explains how to get one and exits.
CMD ["python", "bot.py"]
