"""Versioned schema migrations, applied in order at start, and the runners
that apply them.  Never edit a released migration: add a new one, to both
lists (SQLite and PostgreSQL spell a few types differently; the versions and the
tables they create are the same, and tests/test_store_copy.py checks it).

Concurrency: several processes may open a fresh database at once.  Each
runner reads the schema version and applies what is missing inside one lock
(SQLite: ``BEGIN IMMEDIATE``, which waits out the busy timeout; PostgreSQL: a
transaction-scoped advisory lock), so every migration runs exactly once and
nobody sees a half-migrated schema.
"""

from __future__ import annotations

from typing import Any

#: the first schema version with indexed due times (turn_clocks): opening an older
#: database fills them in for its running tables (store backends, after migrating)
CLOCKS_VERSION = 4

#: ratings, followers and privacy (migration 5): the action log stays append-only
#: except for who acted (``user_id``), which ``forget`` replaces with an anonymous id
PRIVACY_VERSION = 5

#: pg_advisory_xact_lock key for the migration runner ("tgmigr" in ASCII)
PG_MIGRATION_LOCK = 0x74676D696772

MIGRATIONS: list[tuple[int, str]] = [
    # statements are separated by a line holding only "--;"
    (
        1,
        """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby','active','finished','abandoned','quarantined')),
        host_id INTEGER NOT NULL,
        options_json TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state_json TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        locale TEXT,
        outcome_json TEXT,
        turn_started_at REAL
    )
    --;
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status IN ('lobby','active')
    --;
    CREATE INDEX games_guild ON games(guild_id, status)
    --;
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX seats_user ON seats(user_id)
    --;
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        user_id INTEGER,
        action_json TEXT NOT NULL,
        events_json TEXT NOT NULL DEFAULT '[]',
        version INTEGER NOT NULL,
        created_at REAL NOT NULL
    )
    --;
    CREATE INDEX actions_game ON actions(game_id, id)
    --;
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
    --;
    CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        reason TEXT NOT NULL,
        payload TEXT,
        created_at REAL NOT NULL
    )
    --;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
    """,
    ),
    (
        2,
        """
    ALTER TABLE games ADD COLUMN to_act_json TEXT NOT NULL DEFAULT '[]'
    --;
    ALTER TABLE games ADD COLUMN last_reminder_at REAL
    --;
    ALTER TABLE games ADD COLUMN campaign_id INTEGER
    --;
    ALTER TABLE games ADD COLUMN finished_at REAL
    --;
    ALTER TABLE games ADD COLUMN table_json TEXT NOT NULL DEFAULT '{}'
    --;
    CREATE INDEX games_status ON games(status)
    --;
    CREATE TABLE guild_settings (guild_id INTEGER PRIMARY KEY, settings_json TEXT NOT NULL DEFAULT '{}')
    --;
    CREATE TABLE user_prefs (user_id INTEGER PRIMARY KEY, prefs_json TEXT NOT NULL DEFAULT '{}')
    --;
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        guild_id INTEGER,
        game TEXT NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL,
        score REAL,
        record REAL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX results_board ON results(guild_id, game, user_id)
    --;
    CREATE TABLE reverts (
        action_id INTEGER PRIMARY KEY REFERENCES actions(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL,
        by_user INTEGER,
        created_at REAL NOT NULL
    )
    --;
    CREATE TABLE campaigns (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        points_json TEXT NOT NULL,
        progress_json TEXT,
        created_by INTEGER NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        UNIQUE (guild_id, name)
    )
    --;
    CREATE TABLE votes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        base_version INTEGER NOT NULL,
        voters_json TEXT NOT NULL,
        yes_json TEXT NOT NULL DEFAULT '[]',
        no_json TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'open',
        created_by INTEGER,
        created_at REAL NOT NULL
    )
    """,
    ),
    (
        3,
        """
    ALTER TABLE campaigns ADD COLUMN version INTEGER NOT NULL DEFAULT 1
    --;
    ALTER TABLE votes ADD COLUMN version INTEGER NOT NULL DEFAULT 1
    --;
    CREATE INDEX games_channel_latest ON games(channel_id, status, id)
    """,
    ),
    (
        4,
        """
    CREATE TABLE turn_clocks (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        since REAL NOT NULL,
        remind_at REAL,
        expire_at REAL,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX turn_clocks_remind ON turn_clocks(remind_at)
    --;
    CREATE INDEX turn_clocks_expire ON turn_clocks(expire_at)
    """,
    ),
    (
        5,
        """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 1,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    )
    --;
    CREATE INDEX ratings_user ON ratings(user_id)
    --;
    CREATE TABLE follows (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        mode TEXT NOT NULL DEFAULT 'turn' CHECK (mode IN ('turn','digest')),
        sent_version INTEGER NOT NULL DEFAULT 0,
        sent_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    )
    --;
    CREATE INDEX follows_user ON follows(user_id)
    --;
    CREATE TABLE follow_closed (game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE)
    --;
    CREATE INDEX actions_user ON actions(user_id)
    --;
    DROP TRIGGER actions_append_only_update
    --;
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE OF game_id, seat, action_json, events_json, version,
        created_at ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END
    """,
    ),
    (  # cached states (a rebuildable cache in front of the replay: store/base.py)
        6,
        """
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        action_id INTEGER NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        position INTEGER NOT NULL,
        state_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, key, action_id)
    )
    """,
    ),
    (  # a seat-filler AI level per seat (None: the game's default)
        7,
        """
    ALTER TABLE seats ADD COLUMN ai_level TEXT
    """,
    ),
    (  # consistency and limits (issue 19): one vote per seat and decision, the lobby's
        # message (to say it expired), rate-limited events (threads opened), host lookups
        8,
        """
    ALTER TABLE votes ADD COLUMN decision TEXT
    --;
    CREATE UNIQUE INDEX votes_one_per_decision ON votes(game_id, base_version, decision) WHERE decision IS NOT NULL
    --;
    ALTER TABLE games ADD COLUMN lobby_message_id INTEGER
    --;
    CREATE INDEX games_host ON games(host_id, status)
    --;
    CREATE TABLE rate_events (
        kind TEXT NOT NULL,
        guild_id INTEGER,
        user_id INTEGER NOT NULL,
        at REAL NOT NULL
    )
    --;
    CREATE INDEX rate_events_user ON rate_events(kind, user_id, at)
    --;
    CREATE INDEX rate_events_guild ON rate_events(kind, guild_id, at)
    """,
    ),
    (  # leagues (tables/leagues.py): a season's model as JSON, compare-and-swap on version;
        # league_steps: each round step claimed exactly once across processes
        9,
        """
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        format TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'signup',
        config_json TEXT NOT NULL,
        state_json TEXT NOT NULL,
        created_by INTEGER NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        UNIQUE (guild_id, name)
    )
    --;
    CREATE INDEX leagues_status ON leagues(status)
    --;
    CREATE TABLE league_steps (
        league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        step TEXT NOT NULL,
        claimed_at REAL NOT NULL,
        done_at REAL,
        PRIMARY KEY (league_id, round, step)
    )
    """,
    ),
    (  # the web companion: single-use sign-in links and sessions (hashed tokens only)
        10,
        """
    CREATE TABLE web_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('link','session')),
        user_id INTEGER NOT NULL,
        game_id INTEGER,
        expires_at REAL NOT NULL,
        created_at REAL NOT NULL
    )
    --;
    CREATE INDEX web_tokens_user ON web_tokens(user_id)
    --;
    CREATE INDEX web_tokens_expiry ON web_tokens(expires_at)
    """,
    ),
    (  # the outbox: each table's undelivered board, written with the change that owes it (store/base.py)
        11,
        """
    CREATE TABLE outbox (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        since INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('board','notice')),
        notes_json TEXT NOT NULL DEFAULT '[]',
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at REAL NOT NULL,
        lease_until REAL,
        lease_owner TEXT,
        created_at REAL NOT NULL
    )
    --;
    CREATE INDEX outbox_due ON outbox(due_at)
    """,
    ),
]


#: The same schema for PostgreSQL: Discord ids and seeds are BIGINT, times DOUBLE PRECISION,
#: ids identity columns; JSON stays TEXT so a row copies between backends byte for byte.
POSTGRES_MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby','active','finished','abandoned','quarantined')),
        host_id BIGINT NOT NULL,
        options_json TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        state_json TEXT,
        version BIGINT NOT NULL DEFAULT 1,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        locale TEXT,
        outcome_json TEXT,
        turn_started_at DOUBLE PRECISION
    )
    --;
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status IN ('lobby','active')
    --;
    CREATE INDEX games_guild ON games(guild_id, status)
    --;
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id BIGINT,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX seats_user ON seats(user_id)
    --;
    CREATE TABLE actions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        user_id BIGINT,
        action_json TEXT NOT NULL,
        events_json TEXT NOT NULL DEFAULT '[]',
        version BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE INDEX actions_game ON actions(game_id, id)
    --;
    CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the action log is append-only'; END $$
    --;
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only()
    --;
    CREATE TABLE quarantine (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL,
        reason TEXT NOT NULL,
        payload TEXT,
        created_at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
    """,
    ),
    (
        2,
        """
    ALTER TABLE games ADD COLUMN to_act_json TEXT NOT NULL DEFAULT '[]'
    --;
    ALTER TABLE games ADD COLUMN last_reminder_at DOUBLE PRECISION
    --;
    ALTER TABLE games ADD COLUMN campaign_id BIGINT
    --;
    ALTER TABLE games ADD COLUMN finished_at DOUBLE PRECISION
    --;
    ALTER TABLE games ADD COLUMN table_json TEXT NOT NULL DEFAULT '{}'
    --;
    CREATE INDEX games_status ON games(status)
    --;
    CREATE TABLE guild_settings (guild_id BIGINT PRIMARY KEY, settings_json TEXT NOT NULL DEFAULT '{}')
    --;
    CREATE TABLE user_prefs (user_id BIGINT PRIMARY KEY, prefs_json TEXT NOT NULL DEFAULT '{}')
    --;
    CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        guild_id BIGINT,
        game TEXT NOT NULL,
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL,
        score DOUBLE PRECISION,
        record DOUBLE PRECISION,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX results_board ON results(guild_id, game, user_id)
    --;
    CREATE TABLE reverts (
        action_id BIGINT PRIMARY KEY REFERENCES actions(id) ON DELETE CASCADE,
        game_id BIGINT NOT NULL,
        by_user BIGINT,
        created_at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE TABLE campaigns (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        points_json TEXT NOT NULL,
        progress_json TEXT,
        created_by BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        UNIQUE (guild_id, name)
    )
    --;
    CREATE TABLE votes (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        base_version BIGINT NOT NULL,
        voters_json TEXT NOT NULL,
        yes_json TEXT NOT NULL DEFAULT '[]',
        no_json TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'open',
        created_by BIGINT,
        created_at DOUBLE PRECISION NOT NULL
    )
    """,
    ),
    (
        3,
        """
    ALTER TABLE campaigns ADD COLUMN version BIGINT NOT NULL DEFAULT 1
    --;
    ALTER TABLE votes ADD COLUMN version BIGINT NOT NULL DEFAULT 1
    --;
    CREATE INDEX games_channel_latest ON games(channel_id, status, id)
    """,
    ),
    (
        4,
        """
    CREATE TABLE turn_clocks (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        remind_at DOUBLE PRECISION,
        expire_at DOUBLE PRECISION,
        PRIMARY KEY (game_id, seat)
    )
    --;
    CREATE INDEX turn_clocks_remind ON turn_clocks(remind_at)
    --;
    CREATE INDEX turn_clocks_expire ON turn_clocks(expire_at)
    """,
    ),
    (
        5,
        """
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        version BIGINT NOT NULL DEFAULT 1,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    )
    --;
    CREATE INDEX ratings_user ON ratings(user_id)
    --;
    CREATE TABLE follows (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        mode TEXT NOT NULL DEFAULT 'turn' CHECK (mode IN ('turn','digest')),
        sent_version BIGINT NOT NULL DEFAULT 0,
        sent_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    )
    --;
    CREATE INDEX follows_user ON follows(user_id)
    --;
    CREATE TABLE follow_closed (game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE)
    --;
    CREATE INDEX actions_user ON actions(user_id)
    --;
    DROP TRIGGER actions_append_only_update ON actions
    --;
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE OF game_id, seat, action_json, events_json, version,
        created_at ON actions FOR EACH ROW EXECUTE FUNCTION actions_append_only()
    """,
    ),
    (  # cached states (a rebuildable cache in front of the replay: store/base.py)
        6,
        """
    CREATE TABLE snapshots (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        action_id BIGINT NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        position INTEGER NOT NULL,
        state_json TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, key, action_id)
    )
    """,
    ),
    (  # a seat-filler AI level per seat (None: the game's default)
        7,
        """
    ALTER TABLE seats ADD COLUMN ai_level TEXT
    """,
    ),
    (  # consistency and limits (issue 19): one vote per seat and decision, the lobby's
        # message (to say it expired), rate-limited events (threads opened), host lookups
        8,
        """
    ALTER TABLE votes ADD COLUMN decision TEXT
    --;
    CREATE UNIQUE INDEX votes_one_per_decision ON votes(game_id, base_version, decision) WHERE decision IS NOT NULL
    --;
    ALTER TABLE games ADD COLUMN lobby_message_id BIGINT
    --;
    CREATE INDEX games_host ON games(host_id, status)
    --;
    CREATE TABLE rate_events (
        kind TEXT NOT NULL,
        guild_id BIGINT,
        user_id BIGINT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE INDEX rate_events_user ON rate_events(kind, user_id, at)
    --;
    CREATE INDEX rate_events_guild ON rate_events(kind, guild_id, at)
    """,
    ),
    (  # leagues (tables/leagues.py): a season's model as JSON, compare-and-swap on version;
        # league_steps: each round step claimed exactly once across processes
        9,
        """
    CREATE TABLE leagues (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        format TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'signup',
        config_json TEXT NOT NULL,
        state_json TEXT NOT NULL,
        created_by BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        version BIGINT NOT NULL DEFAULT 1,
        UNIQUE (guild_id, name)
    )
    --;
    CREATE INDEX leagues_status ON leagues(status)
    --;
    CREATE TABLE league_steps (
        league_id BIGINT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        step TEXT NOT NULL,
        claimed_at DOUBLE PRECISION NOT NULL,
        done_at DOUBLE PRECISION,
        PRIMARY KEY (league_id, round, step)
    )
    """,
    ),
    (  # the web companion: single-use sign-in links and sessions (hashed tokens only), and a
        # notification on every table change for open pages in any process (LISTEN tg_tables)
        10,
        """
    CREATE TABLE web_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('link','session')),
        user_id BIGINT NOT NULL,
        game_id BIGINT,
        expires_at DOUBLE PRECISION NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE INDEX web_tokens_user ON web_tokens(user_id)
    --;
    CREATE INDEX web_tokens_expiry ON web_tokens(expires_at)
    --;
    CREATE FUNCTION tg_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('tg_tables', NEW.id::text || ':' || NEW.version::text);
        RETURN NEW;
    END $$
    --;
    CREATE TRIGGER games_notify AFTER INSERT OR UPDATE OF version, status ON games
        FOR EACH ROW EXECUTE FUNCTION tg_table_changed()
    """,
    ),
    (  # the outbox: each table's undelivered board, written with the change that owes it (store/base.py)
        11,
        """
    CREATE TABLE outbox (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version BIGINT NOT NULL,
        since BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('board','notice')),
        notes_json TEXT NOT NULL DEFAULT '[]',
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at DOUBLE PRECISION NOT NULL,
        lease_until DOUBLE PRECISION,
        lease_owner TEXT,
        created_at DOUBLE PRECISION NOT NULL
    )
    --;
    CREATE INDEX outbox_due ON outbox(due_at)
    """,
    ),
]


def statements(script: str) -> list[str]:
    """A migration's statements (separated by a line holding only ``--;``)."""
    return [s.strip() for s in script.split("\n    --;\n") if s.strip()]


async def migrate_sqlite(db: Any, now: float) -> tuple[int, int]:
    """Apply the missing SQLite migrations on an aiosqlite connection in autocommit
    mode; returns the schema version before and after.  The version is read and every missing
    migration applied inside one ``BEGIN IMMEDIATE`` transaction, so processes
    opening one fresh file at once wait for each other instead of failing."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        current = before = int(row[0])
        for version, script in MIGRATIONS:
            if version <= current:
                continue
            for stmt in statements(script):
                await db.execute(stmt)
            await db.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)", (version, now))
            current = version
        await db.execute("COMMIT")
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    return before, current


async def migrate_postgres(conn: Any, now: float) -> tuple[int, int]:
    """Apply the missing PostgreSQL migrations on one asyncpg connection; returns the
    schema version before and after.  One transaction under an advisory lock: concurrent first starts
    queue behind the lock, and DDL is transactional, so a failure leaves nothing half done."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", PG_MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = before = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
        for version, script in POSTGRES_MIGRATIONS:
            if version <= current:
                continue
            for stmt in statements(script):
                await conn.execute(stmt)
            await conn.execute("INSERT INTO schema_migrations(version, applied_at) VALUES ($1, $2)", version, now)
            current = version
    return before, current
