-- Table life (issue 14). Seats may be open and taken later (the `seats` column is then
-- rewritten with a compare-and-set); a finished table may name its rematch (set once) and
-- a rematch carries the series so far; a table has its own rules (clock, take-over bot);
-- chat lines, and the table's notes of bots taking seats and players coming back, are
-- kept in order per table.
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN series TEXT;
ALTER TABLE games ADD COLUMN rules TEXT;

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    seat BIGINT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'chat',
    UNIQUE (game_id, seq)
);
