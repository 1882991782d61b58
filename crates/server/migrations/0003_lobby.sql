-- The lobby lists tables newest first, a page at a time (issue 12).
CREATE INDEX games_newest ON games (created DESC, id DESC);
