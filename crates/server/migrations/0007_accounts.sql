-- Accounts (issue 55), beside guests. A name is unique by its confusable skeleton (UTS #39,
-- as seat names are compared); the password is kept only as its Argon2id hash (a PHC
-- string). A session is a row keyed by the SHA-256 of its id: the id itself is only ever in
-- the browser's cookie.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    skeleton TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    created BIGINT NOT NULL
);

CREATE TABLE sessions (
    id_sha256 TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created BIGINT NOT NULL
);

CREATE INDEX sessions_account ON sessions (account_id);

-- The seats an account owns: the tables of its list. (The seat's own row in `games.seats`
-- names the account too; this is the index that finds its tables.)
CREATE TABLE seat_owners (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat BIGINT NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seat_owners_account ON seat_owners (account_id);

-- One Weng-Lin rating per account and game: mu and sigma, and the rated games it counts.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);

-- Every rated game, a row per seat: the place, the rating before and after. A table is
-- rated once: a second try finds its rows.
CREATE TABLE rating_history (
    game_id TEXT NOT NULL REFERENCES games (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    seat BIGINT NOT NULL,
    place BIGINT NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);

CREATE INDEX rating_history_account ON rating_history (account_id, at);
