//! What the store keeps of accounts (docs/accounts.md): the accounts, their sessions, the
//! seats they own, their ratings and each rated game's changes, behind [`Accounts`] (a
//! part of every [`super::Store`]; `crate::store` implements it on SQLite and PostgreSQL).

use super::store_error::StoreError;
use async_trait::async_trait;
use engine::Seat;

/// One account, as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct AccountRow {
    /// Random, never shown: seats and sessions name it.
    pub id: String,
    /// The name as signed up with (NFC, trimmed).
    pub name: String,
    /// The name's confusable skeleton: unique among accounts.
    pub skeleton: String,
    /// The password's Argon2id hash (a PHC string); never sent, never logged.
    pub password: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
}

impl std::fmt::Debug for AccountRow {
    /// Everything but the password's hash.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccountRow")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("created", &self.created)
            .finish_non_exhaustive()
    }
}

/// One signed-in session: the SHA-256 of its id (the id is only in the cookie).
#[derive(Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub id_sha256: String,
    pub account: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
}

/// An account's Weng-Lin rating at one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub account: String,
    pub game: String,
    pub mu: f64,
    pub sigma: f64,
    /// Rated games it counts.
    pub games: u64,
    /// When it last changed (ms since the Unix epoch).
    pub at: i64,
}

/// One seat of a rated game: its account, place and rating before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub account: String,
    pub seat: Seat,
    /// 0 for first; equal places share a rank.
    pub place: u8,
    pub mu_before: f64,
    pub sigma_before: f64,
    /// The rated games the account had at this game before this one (0: no rating row).
    pub games_before: u64,
    pub mu_after: f64,
    pub sigma_after: f64,
}

/// A finished rated table's changes, written at once ([`Accounts::rate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub game_id: String,
    /// The game's name (`dropsite`).
    pub game: String,
    pub at: i64,
    pub seats: Vec<RatingChange>,
}

/// One row of an account's rating history (its rated games, newest first).
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub game_id: String,
    pub game: String,
    pub seat: Seat,
    pub place: u8,
    pub mu_before: f64,
    pub sigma_before: f64,
    pub mu_after: f64,
    pub sigma_after: f64,
    pub at: i64,
}

/// A table in an account's list: the table's id and the seat it owns there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedSeat {
    pub table: String,
    pub seat: Seat,
}

/// An account's contact for notifications (docs/accounts.md, Notifications).
#[derive(Clone, PartialEq, Eq)]
pub struct ContactRow {
    pub account: String,
    /// The mail address given (unverified until its link is followed).
    pub email: Option<String>,
    pub email_verified: bool,
    /// The token of the verification link mailed to `email` (none once verified).
    pub verify_token: Option<String>,
    /// The webhook's URL.
    pub webhook: Option<String>,
    /// The key that signs each POST to the webhook (HMAC-SHA256); never logged.
    pub webhook_secret: Option<String>,
    /// Whether the account wants turn notifications.
    pub notifications: bool,
    /// The token of the unsubscribe link every notification carries.
    pub unsubscribe_token: String,
}

impl std::fmt::Debug for ContactRow {
    /// Everything but the tokens and the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContactRow")
            .field("account", &self.account)
            .field("email_verified", &self.email_verified)
            .field("notifications", &self.notifications)
            .finish_non_exhaustive()
    }
}

/// What a notification row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// A turn's mail.
    Email,
    /// A turn's POST to the webhook.
    Webhook,
    /// The mail with an address's verification link.
    Verify,
}

impl Channel {
    /// The channel's name in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Webhook => "webhook",
            Channel::Verify => "verify",
        }
    }

    /// The channel a name in the database stands for.
    pub fn parse(name: &str) -> Option<Channel> {
        match name {
            "email" => Some(Channel::Email),
            "webhook" => Some(Channel::Webhook),
            "verify" => Some(Channel::Verify),
            _ => None,
        }
    }
}

/// One notification to send: a row of the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRow {
    /// Random.
    pub id: String,
    pub account: String,
    /// The table it is about (empty for a verification mail).
    pub game_id: String,
    /// The move number that made it the account's turn (the time for a verification mail).
    pub seq: i64,
    pub channel: Channel,
    /// The address or URL it goes to.
    pub target: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The tries so far (a claim counts one).
    pub attempts: u32,
}

/// What a store without accounts answers (a store made for a fuzz target or a test).
fn no_accounts() -> StoreError {
    StoreError::Db("this store keeps no accounts".into())
}

/// The accounts' part of the store. Every method has a default that answers that the store
/// keeps no accounts, so a store made for a test may leave them out; both SQL stores
/// implement them all.
#[async_trait]
pub trait Accounts: Send + Sync {
    /// Adds an account; `false` when its skeleton is taken (nothing written).
    async fn create_account(&self, _account: &AccountRow) -> Result<bool, StoreError> {
        Err(no_accounts())
    }
    /// The account whose name has this skeleton.
    async fn account_named(&self, _skeleton: &str) -> Result<Option<AccountRow>, StoreError> {
        Err(no_accounts())
    }
    /// The account with this id.
    async fn account(&self, _id: &str) -> Result<Option<AccountRow>, StoreError> {
        Err(no_accounts())
    }
    /// Sets an account's password hash and ends every session of it but `keep` (the
    /// SHA-256 of the session that changed it), in one transaction.
    async fn set_password(
        &self,
        _account: &str,
        _password: &str,
        _keep: &str,
    ) -> Result<(), StoreError> {
        Err(no_accounts())
    }
    /// Adds a session.
    async fn add_session(&self, _session: &SessionRow) -> Result<(), StoreError> {
        Err(no_accounts())
    }
    /// The session whose id has this SHA-256, and its account.
    async fn session(
        &self,
        _id_sha256: &str,
    ) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        Err(no_accounts())
    }
    /// Ends one session (nothing when there is none).
    async fn end_session(&self, _id_sha256: &str) -> Result<(), StoreError> {
        Err(no_accounts())
    }
    /// Ends every session of an account; returns how many.
    async fn end_sessions(&self, _account: &str) -> Result<u64, StoreError> {
        Err(no_accounts())
    }
    /// Records that these seats of `game` belong to these accounts.
    async fn add_owners(&self, _game: &str, _owners: &[(Seat, String)]) -> Result<(), StoreError> {
        Err(no_accounts())
    }
    /// The tables where an account owns a seat, newest first, at most `limit`.
    async fn owned_seats(&self, _account: &str, _limit: u32) -> Result<Vec<OwnedSeat>, StoreError> {
        Err(no_accounts())
    }
    /// An account's ratings, one per game it has played rated.
    async fn ratings(&self, _account: &str) -> Result<Vec<RatingRow>, StoreError> {
        Err(no_accounts())
    }
    /// The best ratings at `game` (by mu - 3 sigma), with the accounts' names.
    async fn leaderboard(
        &self,
        _game: &str,
        _limit: u32,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        Err(no_accounts())
    }
    /// Writes a rated game: its history rows and every seat's new rating, in one
    /// transaction, unless the table is rated already or a rating moved on since it was
    /// read (`games_before` is no longer its count): `false` then, and nothing written.
    async fn rate(&self, _rated: &RatedGame) -> Result<bool, StoreError> {
        Err(no_accounts())
    }
    /// An account's rated games, newest first, at most `limit`.
    async fn history(&self, _account: &str, _limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        Err(no_accounts())
    }

    /// An account's contact for notifications.
    async fn contact(&self, _account: &str) -> Result<Option<ContactRow>, StoreError> {
        Err(no_accounts())
    }
    /// Writes an account's contact (in place of the one it had).
    async fn set_contact(&self, _contact: &ContactRow) -> Result<(), StoreError> {
        Err(no_accounts())
    }
    /// Marks verified the address whose link has this token; the account, or `None` when
    /// no address waits for it.
    async fn verify_email(&self, _token: &str) -> Result<Option<String>, StoreError> {
        Err(no_accounts())
    }
    /// Turns notifications off for the account whose unsubscribe link has this token; the
    /// account, or `None` when no account has it.
    async fn unsubscribe(&self, _token: &str) -> Result<Option<String>, StoreError> {
        Err(no_accounts())
    }
    /// Adds notifications to the outbox, due at once; a row whose table, move, account and
    /// channel are there already is left out. Answers how many were added.
    async fn queue_notes(&self, _notes: &[NoteRow]) -> Result<u64, StoreError> {
        Err(no_accounts())
    }
    /// Claims at most `limit` due notifications for `worker` until `until` (ms), in one
    /// statement: a row claimed by another worker whose claim has not run out is left
    /// alone, so that each row goes to one worker at a time. Each claim counts a try.
    async fn claim_notes(
        &self,
        _worker: &str,
        _now: i64,
        _until: i64,
        _limit: u32,
    ) -> Result<Vec<NoteRow>, StoreError> {
        Err(no_accounts())
    }
    /// Marks a claimed notification sent (at `at`), or, with `retry_at`, puts it back to
    /// be tried again then. Nothing when `worker` no longer holds its claim.
    async fn note_done(
        &self,
        _id: &str,
        _worker: &str,
        _at: i64,
        _retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        Err(no_accounts())
    }
}
