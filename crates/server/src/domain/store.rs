//! Event-sourced storage as the domain sees it: a table of games and a log of their
//! actions, behind [`Store`] (`crate::store` implements it on SQLite and PostgreSQL). A
//! move is acknowledged only after [`Store::append`] has committed its row.

use super::clock::TableRules;
use super::error::{TableError, STORE_RETRY_AFTER};
pub use super::store_error::StoreError;
use super::text::stored_text;
use async_trait::async_trait;
use bots::BotSpec;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Created, no action played yet.
    Open,
    /// At least one action played, not over.
    Running,
    /// Over: the record is available.
    Finished,
    /// Never started or stopped moving for too long (see the expiry limits): no more moves.
    Abandoned,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }
    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "open" => Some(Status::Open),
            "running" => Some(Status::Running),
            "finished" => Some(Status::Finished),
            "abandoned" => Some(Status::Abandoned),
            _ => None,
        }
    }
}

/// Who plays a seat. Stored (and sent) as its text: `human`, `open`, or the bot's spec
/// (`medium`, `ismcts:5000`), so rows stored before this type read as they were written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Player {
    /// A person, with the seat's token.
    Human,
    /// Nobody yet: anyone may take the seat from the lobby.
    Open,
    /// A bot the server runs (never [`BotSpec::Human`]).
    Bot(BotSpec),
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Open => f.write_str("open"),
            Player::Bot(spec) => write!(f, "{spec}"),
        }
    }
}

impl std::str::FromStr for Player {
    type Err = bots::BotError;
    /// `open`, or a seat spec as [`BotSpec`] reads it (`human` is a person).
    fn from_str(text: &str) -> Result<Player, bots::BotError> {
        if text.trim().eq_ignore_ascii_case("open") {
            return Ok(Player::Open);
        }
        Ok(match text.parse()? {
            BotSpec::Human => Player::Human,
            spec => Player::Bot(spec),
        })
    }
}

impl From<Player> for String {
    fn from(player: Player) -> String {
        player.to_string()
    }
}

impl TryFrom<String> for Player {
    type Error = bots::BotError;
    fn try_from(text: String) -> Result<Player, bots::BotError> {
        text.parse()
    }
}

/// Who sits in a seat, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    pub player: Player,
    /// SHA-256 (hex) of the seat's secret token; human seats only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_sha256: Option<String>,
    /// The display name given on taking the seat (see [`super::display_name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When an open seat was taken (ms since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<i64>,
    /// The id of the account that owns the seat (docs/accounts.md): the seat opens
    /// wherever its owner is signed in, and the table is in the owner's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

impl SeatRow {
    /// The name people read for seat `seat` (0-based): the given name (without the
    /// bidirectional controls a name stored before they were refused may hold: see
    /// [`stored_text`]), or "Seat N" counted from 1.
    pub fn display(&self, seat: usize) -> String {
        self.name
            .as_deref()
            .and_then(stored_text)
            .unwrap_or_else(|| engine::log::unnamed_seat(seat))
    }
}

/// Every seat's display name, in seat order ([`SeatRow::display`]).
pub fn display_names(rows: &[SeatRow]) -> Vec<String> {
    (rows.iter().enumerate())
        .map(|(seat, row)| row.display(seat))
        .collect()
}

/// One row of the games table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub config: serde_json::Value,
    pub seed: u64,
    pub seats: Vec<SeatRow>,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub status: Status,
    /// The creator chose the seed (and so may know the hidden cards).
    pub seed_chosen: bool,
    /// The secret (hex) the server seeds this table's bots from; never sent to a client.
    /// Empty for tables stored before secrets existed (their bots use the table seed).
    pub bot_secret: String,
    /// The id of this finished table's rematch, once one was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// The series this table belongs to (set on a rematch): the games before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
    /// The table's own rules: clock, take-over bot.
    #[serde(default)]
    pub rules: TableRules,
    /// The version of its game's record format the config and the actions are written in
    /// (`engine::Game::FORMAT`); 1 for a table stored before formats were kept. An older
    /// table is brought up to date when it is loaded ([`Store::upgrade`]).
    #[serde(default = "first_format")]
    pub format: u32,
}

/// The format of a table stored before formats were kept.
fn first_format() -> u32 {
    1
}

/// A table brought up to its game's current record format, to be written back over the
/// stored one ([`Store::upgrade`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Upgrade {
    pub game: String,
    /// The format the table is stored in.
    pub from: u32,
    /// How many actions it has stored: it is rewritten only if it still has as many.
    pub stored: u64,
    /// Its format now, and its config in that format.
    pub format: u32,
    pub config: serde_json::Value,
    /// Every action in that format, numbered from 0.
    pub actions: Vec<ActionRow>,
}

/// The games of a series before a table: how many, and the wins of whoever now sits in
/// each seat (a shared first place counts as a win for each).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    /// The table before this one.
    pub previous: String,
    /// Games finished in the series before this table.
    pub games: u32,
    /// Wins so far by seat of this table.
    pub wins: Vec<u32>,
}

/// One chat line of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatRow {
    /// 0-based position in the table's chat.
    pub seq: u64,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// The writer's seat; `None` for a spectator.
    pub seat: Option<usize>,
    /// The writer's name as shown (a seat's display name, or the spectator's given name).
    pub name: String,
    /// What was said, as written (pages show it as text, never as markup).
    pub text: String,
    /// A person's line, or one of the table's notes.
    #[serde(default)]
    pub kind: ChatKind,
}

/// What a chat line is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatKind {
    /// Said by a person.
    #[default]
    Chat,
    /// The table's note: a bot took `seat` (its time ran out, or its player left).
    TookOver,
    /// The table's note: the player of `seat` is back.
    Back,
    /// The table's note: `seat` asked the coach for a hint (never which moves it got).
    Hint,
}

impl ChatKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatKind::Chat => "chat",
            ChatKind::TookOver => "took_over",
            ChatKind::Back => "back",
            ChatKind::Hint => "hint",
        }
    }
}

/// One move to append to a game ([`Store::append`]): its place in the action list, who made
/// it, its notation, and the game's status once it is played.
#[derive(Clone, Copy, Debug)]
pub struct Append<'a> {
    /// 0-based position in the game's action list (the version it was played on).
    pub seq: u64,
    pub seat: usize,
    pub action: &'a str,
    pub status: Status,
}

/// One row of the actions table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRow {
    /// 0-based position in the game's action list (the version it was played on).
    pub seq: u64,
    pub seat: usize,
    pub action: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

/// One page of the lobby: newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// Only tables with one of these statuses.
    pub statuses: Vec<Status>,
    /// Only tables of this game.
    pub game: Option<String>,
    /// Only tables older than this `(created, id)`: the last one of the page before.
    pub before: Option<(i64, String)>,
    /// At most this many tables.
    pub limit: u32,
}

/// Something another server did to the shared database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// New action rows for this game id.
    Actions(String),
    /// Notices may have been lost (the listener reconnected): reload everything.
    Resync,
}

/// A rewrite of a game's seats: `after` is stored only where they are still `before`.
#[derive(Clone, Copy, Debug)]
pub struct SeatChange<'a> {
    /// The seats as the server last read them.
    pub before: &'a [SeatRow],
    /// The seats to store in their place.
    pub after: &'a [SeatRow],
}

/// The storage every server uses; see the module docs.
#[async_trait]
pub trait Store:
    super::account_store::Accounts + super::tournament_store::Tournaments + Send + Sync
{
    /// Adds a new game.
    async fn create(&self, game: &GameRow) -> Result<(), StoreError>;
    /// Rewrites a game's seats if they are still `seats.before` (a seat taken); `false`
    /// when they changed meanwhile.
    async fn set_seats(&self, game: &str, seats: SeatChange<'_>) -> Result<bool, StoreError>;
    /// Names a finished game's rematch unless one is named already; returns the one
    /// that stands.
    async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError>;
    /// Adds a chat line at `line.seq`: [`StoreError::Conflict`] when that place is taken.
    async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError>;
    /// A game's chat lines from `from_seq` on, in order.
    async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError>;
    /// Appends action `next.seq` of `game` and sets the game's status, in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when action `next.seq` already exists.
    async fn append(&self, game: &str, next: Append<'_>) -> Result<(), StoreError>;
    /// The game with this id.
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError>;
    /// The actions of `game` from `from_seq` on, in order.
    async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError>;
    /// The games with one of these statuses, oldest first, at most `limit`.
    async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError>;
    /// A page of games, newest first (by `created`, then `id`).
    async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError>;
    /// Marks a game abandoned unless it has moved on (its last action is not `seq - 1`,
    /// or it finished); `true` if it was marked.
    async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError>;
    /// The review of a finished game, as stored (JSON text), if one was made.
    async fn review(&self, game: &str) -> Result<Option<String>, StoreError>;
    /// Keeps the review of a finished game unless one is kept already.
    async fn set_review(&self, game: &str, review: &str) -> Result<(), StoreError>;
    /// Writes a table brought up to its game's current format over the stored one: its
    /// config, its format and all its actions, in one transaction, if it is still in
    /// format `upgrade.from` with `upgrade.stored` actions; `false` (and nothing written)
    /// when it changed meanwhile.
    async fn upgrade(&self, upgrade: &Upgrade) -> Result<bool, StoreError>;
    /// Notices of other servers' writes, where the database can send them (PostgreSQL).
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError>;
    /// A trivial query: whether the database answers (`GET /readyz`).
    async fn ping(&self) -> Result<(), StoreError>;
}

impl TableError {
    /// What a store's failure is to the caller: `Unavailable` when the database cannot
    /// take the call now or did not answer it, otherwise an internal error (logged with
    /// `cause`).
    pub fn store(cause: StoreError) -> TableError {
        match cause {
            StoreError::Unavailable(_) => TableError::Unavailable {
                retry_after: STORE_RETRY_AFTER,
                maybe_done: false,
            },
            StoreError::Unanswered(_) => TableError::Unavailable {
                retry_after: STORE_RETRY_AFTER,
                maybe_done: true,
            },
            cause => TableError::internal(cause),
        }
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl TableRules {
    /// Whether hints are on at a table of these seats: as chosen, else on where a bot sits.
    pub fn hints_on(&self, seats: &[SeatRow]) -> bool {
        self.hints
            .unwrap_or_else(|| seats.iter().any(|s| matches!(s.player, Player::Bot(_))))
    }
}
