//! What the store keeps of tournaments (docs/accounts.md, Tournaments): the tournament,
//! its players, each round's pairing and each board's table with its result, behind
//! [`Tournaments`] (a part of every [`super::Store`]; `crate::store` implements it on
//! SQLite and PostgreSQL).

use super::store_error::StoreError;
use async_trait::async_trait;

/// One tournament, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Random.
    pub id: String,
    /// Its title, as the creator gave it.
    pub name: String,
    /// The game's name (`distopia`).
    pub game: String,
    /// `round_robin` or `swiss` ([`super::Format`]).
    pub format: String,
    /// The rounds it plays: a Swiss's as asked; a round robin's set when it starts.
    pub rounds: u32,
    /// The most seats a table has.
    pub table_size: u32,
    /// The most players it takes (0: up to [`super::MAX_ENTRANTS`]).
    pub max_players: u32,
    /// The rest, as JSON: the game's options, the tables' rules, the bot that fills
    /// empty seats, whether it is rated ([`super::TournamentSettings`]).
    pub settings: String,
    /// The account that made it: it starts it.
    pub creator: String,
    /// `open` (taking players), `running` or `finished`.
    pub status: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// How many players it has (kept by each join and leave; 0 when made).
    pub players: u32,
}

/// One player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    pub account: String,
    /// The account's name.
    pub name: String,
    /// Milliseconds since the Unix epoch: players are numbered in this order.
    pub joined: i64,
}

/// One round's pairing: its boards as JSON (each a list of seats, an account id or
/// `null` for a bot's seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRow {
    /// From 0.
    pub round: u32,
    pub pairing: String,
    pub created: i64,
}

/// The table a board of a round is played at, and its result once over (JSON,
/// [`super::BoardResult`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    pub round: u32,
    pub board: u32,
    pub table: String,
    pub result: Option<String>,
}

/// Everything stored of one tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentData {
    pub row: TournamentRow,
    /// In the order they joined.
    pub entrants: Vec<EntrantRow>,
    /// Oldest first.
    pub rounds: Vec<RoundRow>,
    /// By round, then board.
    pub boards: Vec<BoardRow>,
}

/// What a store without tournaments answers.
fn no_tournaments() -> StoreError {
    StoreError::Db("this store keeps no tournaments".into())
}

/// The tournaments' part of the store. Every method has a default that answers that the
/// store keeps none (and [`Tournaments::tournament_of`] that a table is no tournament's), so
/// a store made for a test may leave them out; both SQL stores implement them all.
#[async_trait]
pub trait Tournaments: Send + Sync {
    /// Adds a tournament.
    async fn create_tournament(&self, _row: &TournamentRow) -> Result<(), StoreError> {
        Err(no_tournaments())
    }
    /// The tournaments, newest first, at most `limit`.
    async fn tournaments(&self, _limit: u32) -> Result<Vec<TournamentRow>, StoreError> {
        Err(no_tournaments())
    }
    /// A tournament with its players, rounds and boards.
    async fn tournament(&self, _id: &str) -> Result<Option<TournamentData>, StoreError> {
        Err(no_tournaments())
    }
    /// Adds a player while the tournament is open and has room (`max`: 0 for no limit),
    /// in one transaction; `false` (nothing written) when it is not open, full, or the
    /// account is in it already.
    async fn join_tournament(
        &self,
        _id: &str,
        _account: &str,
        _joined: i64,
        _max: u32,
    ) -> Result<bool, StoreError> {
        Err(no_tournaments())
    }
    /// Takes a player out while the tournament is open; `false` when it is not open or the
    /// account is not in it.
    async fn leave_tournament(&self, _id: &str, _account: &str) -> Result<bool, StoreError> {
        Err(no_tournaments())
    }
    /// Moves the tournament from `from` to status `to` (with its rounds set to `rounds`);
    /// `false` when it was not in `from`.
    async fn set_tournament_status(
        &self,
        _id: &str,
        _from: &str,
        _to: &str,
        _rounds: u32,
    ) -> Result<bool, StoreError> {
        Err(no_tournaments())
    }
    /// Adds a round's pairing; `false` when the round is there already (another server
    /// made it): the caller makes no tables then.
    async fn add_round(&self, _id: &str, _round: &RoundRow) -> Result<bool, StoreError> {
        Err(no_tournaments())
    }
    /// Names the table a board is played at.
    async fn add_board(&self, _id: &str, _board: &BoardRow) -> Result<(), StoreError> {
        Err(no_tournaments())
    }
    /// Keeps a board's result, unless one is kept already.
    async fn set_board_result(&self, _table: &str, _result: &str) -> Result<(), StoreError> {
        Err(no_tournaments())
    }
    /// The tournament a table is played for, if any.
    async fn tournament_of(&self, _table: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }
}
