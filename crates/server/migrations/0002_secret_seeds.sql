-- Seeds are secret (issue 12). `seed_chosen` is 1 where the creator chose the seed (and so
-- may know the hidden cards). Tables stored before this migration had their seed published
-- by the API, so they are marked as chosen: anyone may have read it.
ALTER TABLE games ADD COLUMN seed_chosen BIGINT NOT NULL DEFAULT 1;

-- The secret the server seeds its bots from (hex; it never leaves the server). Empty for
-- tables stored before this migration: their bots go on being seeded from the table seed,
-- so that they replay as before.
ALTER TABLE games ADD COLUMN bot_secret TEXT NOT NULL DEFAULT '';
