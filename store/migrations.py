"""Versioned schema migrations, applied in order at start.  Never edit a
released migration: add a new one."""

MIGRATIONS: list[tuple[int, str]] = [
    # statements are separated by a line holding only "--;"
    (1, """
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
    """),
]
