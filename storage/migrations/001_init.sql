-- Tables, seats, the action log, snapshots, timers and the DM/ping outbox.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    engine        TEXT    NOT NULL,
    data_version  INTEGER NOT NULL,
    options       TEXT    NOT NULL,           -- JSON
    status        TEXT    NOT NULL,           -- lobby | active | over | abandoned
    creator_id    INTEGER NOT NULL,
    max_players   INTEGER NOT NULL,
    random_seats  INTEGER NOT NULL DEFAULT 1,
    reminder_hours REAL   NOT NULL DEFAULT 24,
    autopass_hours REAL   NOT NULL DEFAULT 0,
    message_id    INTEGER,                    -- the table's public message
    last_ping_key TEXT,                       -- awaited seats last pinged, to ping once per change
    pending       TEXT    NOT NULL DEFAULT '{}', -- JSON: open undo / replace votes
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX games_channel ON games(channel_id, status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    position  INTEGER NOT NULL,               -- join order
    seat      INTEGER,                        -- engine seat, set at start
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    PRIMARY KEY (game_id, position)
);
CREATE UNIQUE INDEX seats_user ON seats(game_id, user_id);
CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,                -- 1, 2, ...: unique per game, the cross-process lock
    seat     INTEGER NOT NULL,                -- -1 is the chance seat
    action   TEXT    NOT NULL,                -- JSON
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE undone_actions (
    game_id  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    undone_at REAL   NOT NULL
);

CREATE TABLE snapshots (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,                -- state after this action
    state    TEXT    NOT NULL,                -- JSON
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE timers (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    kind     TEXT    NOT NULL,                -- reminder | autopass | window
    due_at   REAL    NOT NULL,
    payload  TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX timers_due ON timers(due_at);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL,              -- dm | channel
    target_id  INTEGER NOT NULL,              -- user id for dm, channel id for channel
    game_id    INTEGER,
    payload    TEXT    NOT NULL,              -- JSON: content and optional view key
    created_at REAL    NOT NULL,
    sent_at    REAL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    failed     TEXT                           -- why it was given up, if it was
);
CREATE INDEX outbox_pending ON outbox(sent_at, id);

CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    dm_closed  INTEGER NOT NULL DEFAULT 0
);
