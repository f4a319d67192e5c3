# Slim image that runs bot.py; the SQLite database lives on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TG_DATABASE=/data/tabletop.db

WORKDIR /app
# Dependencies first (better layer caching). The CJK font comes from PyPI
# (paperang-p2-fonts-cjk, WenQuanYi Micro Hei), so no system font packages are needed.
COPY pyproject.toml README.md ./
RUN mkdir -p engine render cogs store && touch bot.py driver.py \
    && pip install --no-cache-dir -e . \
    && rm -rf engine render cogs store bot.py driver.py
COPY bot.py driver.py ./
COPY engine ./engine
COPY render ./render
COPY cogs ./cogs
COPY store ./store
COPY data ./data

RUN useradd --system --uid 10001 --home /app tabletop && mkdir -p /data && chown tabletop /data
USER tabletop
VOLUME ["/data"]
CMD ["python", "bot.py"]
