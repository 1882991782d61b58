-- Tournaments (issue 55; docs/accounts.md, Tournaments). A tournament is made by an account
-- for one game: its format (`round_robin` or `swiss`), its rounds (a round robin's set when
-- it starts), the most seats at a table, the most players (0: no limit below the server's),
-- the rest of its settings as JSON (the game's options, the tables' rules, the bot that
-- fills empty seats), its status (`open`, `running`, `finished`) and how many players it
-- has (`entrants`: the row a join writes first, so that a join and a start are ordered).
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    format TEXT NOT NULL,
    rounds BIGINT NOT NULL,
    table_size BIGINT NOT NULL,
    max_players BIGINT NOT NULL,
    settings TEXT NOT NULL,
    creator_id TEXT NOT NULL REFERENCES accounts (id),
    status TEXT NOT NULL,
    created BIGINT NOT NULL,
    entrants BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX tournaments_created ON tournaments (created);

-- Its players, numbered by the order they joined.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    joined BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);

-- Each round's pairing, as JSON: its boards, each a list of seats (an account id, or null
-- for a bot's seat; a board of one player is a bye). The key makes a round once: of two
-- servers making the same round, the second writes nothing and makes no tables.
CREATE TABLE tournament_rounds (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round BIGINT NOT NULL,
    pairing TEXT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- The table each board is played at, and its result once over (JSON: the places, or
-- abandoned).
CREATE TABLE tournament_tables (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    game_id TEXT NOT NULL UNIQUE REFERENCES games (id),
    result TEXT,
    PRIMARY KEY (tournament_id, round, board)
);
