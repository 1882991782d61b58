-- Record formats (issue 30). The version of its game's record format a table's config and
-- actions are written in (the game's `Game::FORMAT`); NULL for a table stored before
-- formats were kept, which is format 1. A server that loads a table of an older format
-- brings it up to the current one through the game's own step, once, and writes the
-- table back (config, format and actions in one transaction).
ALTER TABLE games ADD COLUMN format BIGINT;
