-- Turn-based notifications (issue 55; docs/accounts.md, Notifications). An account's
-- contact: its mail address (verified by a link mailed to it), its webhook with the secret
-- that signs each POST, whether it wants notifications at all, and the token of the
-- unsubscribe link every notification carries.
CREATE TABLE contacts (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    email TEXT,
    email_verified BIGINT NOT NULL DEFAULT 0,
    verify_token TEXT UNIQUE,
    webhook TEXT,
    webhook_secret TEXT,
    notifications BIGINT NOT NULL DEFAULT 1,
    unsubscribe_token TEXT NOT NULL UNIQUE
);

-- The outbox: one row per notification to send (a turn's mail or POST, or a verification
-- mail). A background task of any server claims due rows (`claimed_by`, until
-- `claim_until`), sends them and marks them `sent`, or puts them back with a later
-- `next_at`. The key makes a turn's notification one per account and channel.
CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    channel TEXT NOT NULL,
    target TEXT NOT NULL,
    created BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    claimed_by TEXT,
    claim_until BIGINT,
    sent BIGINT,
    UNIQUE (game_id, seq, account_id, channel)
);

CREATE INDEX notifications_due ON notifications (sent, next_at);
