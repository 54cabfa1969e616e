"""Numbered schema migrations, applied in order; ``PRAGMA user_version`` records the last.

Never edit a released migration: append a new one.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, seats, the append-only action log, timers, stats.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER,
        lobby_message_id INTEGER,
        table_message_id INTEGER,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby','active','finished','cancelled','ended')),
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_status ON games(status);
    CREATE INDEX games_thread ON games(thread_id);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat TEXT NOT NULL,
        position INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        is_ai INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat TEXT NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL DEFAULT '[]',
        created_at REAL NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        due_at REAL NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        UNIQUE (game_id, kind)
    );
    CREATE INDEX timers_due ON timers(due_at);
    CREATE TABLE stats (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        won INTEGER NOT NULL DEFAULT 0,
        best_score INTEGER,
        PRIMARY KEY (guild_id, user_id, kind)
    );
    """,
    # 2: per-server settings, member preferences, AFK counters on seats.
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        turn_timer TEXT,
        dm_notifications INTEGER,
        game_channel_id INTEGER
    );
    CREATE TABLE member_prefs (
        user_id INTEGER PRIMARY KEY,
        dm_opt_out INTEGER NOT NULL DEFAULT 0,
        dm_closed INTEGER NOT NULL DEFAULT 0,
        dm_closed_told INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE seats ADD COLUMN missed_turns INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN ai_takeover INTEGER NOT NULL DEFAULT 0;
    """,
    # 3: turn notices by DM are opt-in (/notify on).
    """
    ALTER TABLE member_prefs ADD COLUMN turn_notices INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: how many open lobbies one member may host at once in a server (NULL: the default).
    """
    ALTER TABLE guild_settings ADD COLUMN max_open_lobbies INTEGER;
    """,
    # 5: what the publisher must remember across a restart: the decision last pinged per
    # game, the hand last sent by DM per seat, and each member's DM channel (opened once).
    """
    ALTER TABLE games ADD COLUMN pinged_key TEXT;
    ALTER TABLE seats ADD COLUMN dm_hand TEXT;
    ALTER TABLE member_prefs ADD COLUMN dm_channel_id INTEGER;
    """,
    # 6: the version the posted table shows (start-up reposts a table behind the stored
    # state); tables posted before this migration count as current. Whether a finished
    # game's result is in the stats (recorded once, even when a restart posts its end again;
    # earlier finished games count as recorded). Whether a server ends games nobody moved
    # in for 14 days (NULL: the default, on).
    """
    ALTER TABLE games ADD COLUMN table_version INTEGER;
    UPDATE games SET table_version = version WHERE table_message_id IS NOT NULL;
    ALTER TABLE games ADD COLUMN result_recorded INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET result_recorded = 1 WHERE status = 'finished';
    ALTER TABLE guild_settings ADD COLUMN end_idle_games INTEGER;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
