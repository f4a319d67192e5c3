"""Versioned schema migrations, applied in order at start.  Never edit a
released migration: add a new one."""

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
]
