-- One row per table (a game being played); the same SQL runs on SQLite and PostgreSQL.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    created BIGINT NOT NULL,
    status TEXT NOT NULL
);

CREATE INDEX games_status ON games (status);

-- The event log: every accepted action, in order. A move is acknowledged only after its
-- row is committed; UNIQUE (game_id, seq) makes exactly one of two conflicting moves win.
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    action TEXT NOT NULL,
    at BIGINT NOT NULL,
    UNIQUE (game_id, seq)
);
