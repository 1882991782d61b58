-- Reviews (issue 28). The coach's review of a finished table, as the JSON the API
-- serves, made once and kept: a restarted server serves it without searching again.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    review TEXT NOT NULL,
    at BIGINT NOT NULL
);
