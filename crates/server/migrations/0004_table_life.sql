-- Table life (issue 14). Seats may be open and taken later (the `seats` column is then
-- rewritten with a compare-and-set); a finished table may name its rematch (set once) and
-- a rematch carries the series so far; chat lines are kept in order per table.
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN series TEXT;

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    seat BIGINT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
