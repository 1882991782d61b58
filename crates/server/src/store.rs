//! Event-sourced storage: a table of games and a log of their actions, behind [`Store`].
//!
//! The same SQL (and the same embedded migrations) runs on SQLite and PostgreSQL. A move is
//! acknowledged only after [`Store::append`] has committed its row; `UNIQUE (game_id, seq)`
//! makes exactly one of two conflicting moves win.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

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

/// Who sits in a seat, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    /// `human`, or the bot spec text.
    pub player: String,
    /// SHA-256 (hex) of the seat's secret token; human seats only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_sha256: Option<String>,
    /// The display name given on taking the seat (see [`crate::hub::display_name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When an open seat was taken (ms since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<i64>,
}

impl SeatRow {
    /// The name people read for seat `seat` (0-based): the given name (without the
    /// bidirectional controls a name stored before they were refused may hold: see
    /// [`crate::hub::stored_text`]), or "Seat N" counted from 1.
    pub fn display(&self, seat: usize) -> String {
        self.name
            .as_deref()
            .and_then(crate::hub::stored_text)
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
    pub rules: crate::clock::TableRules,
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
}

impl ChatKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatKind::Chat => "chat",
            ChatKind::TookOver => "took_over",
            ChatKind::Back => "back",
        }
    }
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

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row for this `(game, seq)` already exists: another move won.
    #[error("action {seq} of game {game} already exists")]
    Conflict { game: String, seq: u64 },
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error("the storage writer has stopped")]
    WriterGone,
    /// The SQLite file under the running server was removed, replaced or truncated:
    /// whatever is written now would be lost, so nothing more is acknowledged.
    #[error("the database file {0} was removed, replaced or truncated while the server ran; moves are refused until the server restarts on its file")]
    FileGone(String),
}

/// The storage every server uses; see the module docs.
#[async_trait]
pub trait Store: Send + Sync {
    /// Adds a new game.
    async fn create(&self, game: &GameRow) -> Result<(), StoreError>;
    /// Rewrites a game's seats if they are still `before` (a seat taken); `false` when
    /// they changed meanwhile.
    async fn set_seats(
        &self,
        game: &str,
        before: &[SeatRow],
        after: &[SeatRow],
    ) -> Result<bool, StoreError>;
    /// Names a finished game's rematch unless one is named already; returns the one
    /// that stands.
    async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError>;
    /// Adds a chat line at `line.seq`: [`StoreError::Conflict`] when that place is taken.
    async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError>;
    /// A game's chat lines from `from_seq` on, in order.
    async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError>;
    /// Appends action `seq` of `game` and sets the game's status, in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when action `seq` already exists.
    async fn append(
        &self,
        game: &str,
        seq: u64,
        seat: usize,
        action: &str,
        status: Status,
    ) -> Result<(), StoreError>;
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
    /// Notices of other servers' writes, where the database can send them (PostgreSQL).
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError>;
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub(crate) const INSERT_GAME: &str = "INSERT INTO games \
                           (id, game, config, seed, seats, created, status, seed_chosen, bot_secret, series, rules) \
                           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
/// The columns [`game_from_row`] reads, in its order.
const GAME_COLUMNS: &str =
    "id, game, config, seed, seats, created, status, seed_chosen, bot_secret, rematch, series, rules";
const SET_SEATS: &str = "UPDATE games SET seats = $1 WHERE id = $2 AND seats = $3";
const SET_REMATCH: &str = "UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL";
const INSERT_CHAT: &str = "INSERT INTO chat (game_id, seq, at, seat, name, text, kind) \
                           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, seq) DO NOTHING";
const SELECT_CHAT: &str = "SELECT seq, at, seat, name, text, kind FROM chat \
                           WHERE game_id = $1 AND seq >= $2 ORDER BY seq";
/// The most action rows one insert statement takes. Each row count up to it has its own
/// statement text (prepared once on the writer's connection), so that a batch is one
/// statement as long as it is no bigger.
const INSERT_ROWS: usize = 32;

/// The number of insert statements for `appends` rows.
fn insert_chunks(appends: usize) -> usize {
    appends.div_ceil(INSERT_ROWS)
}

/// The insert of `min(pending, INSERT_ROWS)` rows, and that count. It returns the rows
/// stored (`ON CONFLICT DO NOTHING` skips a taken `(game_id, seq)`).
fn insert_actions(pending: usize) -> (usize, &'static str) {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        (1..=INSERT_ROWS)
            .map(|rows| {
                let values: Vec<String> = (0..rows)
                    .map(|r| {
                        let b = r * 5;
                        format!(
                            "(${}, ${}, ${}, ${}, ${})",
                            b + 1,
                            b + 2,
                            b + 3,
                            b + 4,
                            b + 5
                        )
                    })
                    .collect();
                format!(
                    "INSERT INTO actions (game_id, seq, seat, action, at) VALUES {} \
                     ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq",
                    values.join(", ")
                )
            })
            .collect()
    });
    let rows = pending.clamp(1, INSERT_ROWS);
    (rows, texts[rows - 1].as_str())
}

/// Abandons a game that is still open or running at `seq` actions (`$2`).
const ABANDON: &str = "UPDATE games SET status = 'abandoned' WHERE id = $1 \
                       AND status IN ('open', 'running') \
                       AND (SELECT COUNT(*) FROM actions WHERE game_id = $1) = $2";
pub(crate) const SET_STATUS: &str =
    "UPDATE games SET status = $1 WHERE id = $2 AND status <> 'abandoned'";
const SELECT_ACTIONS: &str = "SELECT seq, seat, action, at FROM actions \
                              WHERE game_id = $1 AND seq >= $2 ORDER BY seq";

fn game_from_row<R: Row>(row: &R) -> Result<GameRow, StoreError>
where
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    usize: sqlx::ColumnIndex<R>,
{
    let id: String = row.try_get(0)?;
    let corrupt = |what: &str, e: &dyn std::fmt::Display| {
        StoreError::Corrupt(format!("game {id}: {what}: {e}"))
    };
    let config: String = row.try_get(2)?;
    let seats: String = row.try_get(4)?;
    let status: String = row.try_get(6)?;
    let series: Option<String> = row.try_get(10)?;
    let rules: Option<String> = row.try_get(11)?;
    Ok(GameRow {
        game: row.try_get(1)?,
        config: serde_json::from_str(&config).map_err(|e| corrupt("config", &e))?,
        seed: row.try_get::<i64, _>(3)? as u64,
        seats: serde_json::from_str(&seats).map_err(|e| corrupt("seats", &e))?,
        created: row.try_get(5)?,
        status: Status::parse(&status).ok_or_else(|| corrupt("status", &status))?,
        seed_chosen: row.try_get::<i64, _>(7)? != 0,
        bot_secret: row.try_get(8)?,
        rematch: row.try_get(9)?,
        series: series
            .map(|s| serde_json::from_str(&s).map_err(|e| corrupt("series", &e)))
            .transpose()?,
        rules: match rules {
            Some(r) => serde_json::from_str(&r).map_err(|e| corrupt("rules", &e))?,
            None => crate::clock::TableRules::default(),
        },
        id,
    })
}

fn chat_from_row<R: Row>(row: &R) -> Result<ChatRow, StoreError>
where
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    usize: sqlx::ColumnIndex<R>,
{
    let seq: i64 = row.try_get(0)?;
    let seat: Option<i64> = row.try_get(2)?;
    let corrupt = |e: &dyn std::fmt::Display| StoreError::Corrupt(format!("chat {seq}: {e}"));
    Ok(ChatRow {
        seq: u64::try_from(seq).map_err(|e| corrupt(&e))?,
        at: row.try_get(1)?,
        seat: seat
            .map(|s| usize::try_from(s).map_err(|e| corrupt(&e)))
            .transpose()?,
        // A line stored before bidirectional controls were refused is served without them.
        name: crate::hub::stored_text(&row.try_get::<String, _>(3)?)
            .unwrap_or_else(|| "someone".into()),
        text: crate::hub::stored_text(&row.try_get::<String, _>(4)?).unwrap_or_default(),
        kind: match row.try_get::<String, _>(5)?.as_str() {
            "took_over" => ChatKind::TookOver,
            "back" => ChatKind::Back,
            _ => ChatKind::Chat,
        },
    })
}

fn action_from_row<R: Row>(row: &R) -> Result<ActionRow, StoreError>
where
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    usize: sqlx::ColumnIndex<R>,
{
    let seq: i64 = row.try_get(0)?;
    let seat: i64 = row.try_get(1)?;
    Ok(ActionRow {
        seq: u64::try_from(seq).map_err(|e| StoreError::Corrupt(format!("seq {seq}: {e}")))?,
        seat: usize::try_from(seat)
            .map_err(|e| StoreError::Corrupt(format!("seat {seat}: {e}")))?,
        action: row.try_get(2)?,
        at: row.try_get(3)?,
    })
}

fn list_sql(statuses: &[Status]) -> String {
    let names: Vec<String> = statuses
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect();
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status IN ({}) ORDER BY created, id LIMIT $1",
        if names.is_empty() {
            "''".to_string()
        } else {
            names.join(", ")
        }
    )
}

/// The SQL of a [`Page`]; its parameters are bound in the order game, before, limit
/// (those present).
fn page_sql(page: &Page) -> String {
    let names: Vec<String> = page
        .statuses
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect();
    let mut sql = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status IN ({})",
        if names.is_empty() {
            "''".to_string()
        } else {
            names.join(", ")
        }
    );
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    if page.game.is_some() {
        sql += &format!(" AND game = ${}", next());
    }
    if page.before.is_some() {
        let (c, i) = (next(), next());
        sql += &format!(" AND (created < ${c} OR (created = ${c} AND id < ${i}))");
    }
    sql += &format!(" ORDER BY created DESC, id DESC LIMIT ${}", next());
    sql
}

fn seq_i64(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|e| StoreError::Corrupt(format!("seq {seq}: {e}")))
}

/// Generates the [`Store`] methods that are the same SQL on both databases.
macro_rules! sql_store {
    ($store:ty, $pool:ty, $db:ty, $($subscribe:tt)*) => {
    #[async_trait]
    impl Store for $store {
        async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
            let seats = serde_json::to_string(&game.seats)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            self.write(Write::Create {
                id: game.id.clone(),
                game: game.game.clone(),
                config: game.config.to_string(),
                seed: game.seed as i64,
                seats,
                created: game.created,
                status: game.status,
                seed_chosen: i64::from(game.seed_chosen),
                bot_secret: game.bot_secret.clone(),
                series: game
                    .series
                    .as_ref()
                    .map(|s| serde_json::to_string(s).map_err(|e| StoreError::Corrupt(e.to_string())))
                    .transpose()?,
                rules: serde_json::to_string(&game.rules)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
            })
            .await
        }

        async fn set_seats(
            &self,
            game: &str,
            before: &[SeatRow],
            after: &[SeatRow],
        ) -> Result<bool, StoreError> {
            let text = |seats: &[SeatRow]| {
                serde_json::to_string(seats).map_err(|e| StoreError::Corrupt(e.to_string()))
            };
            let done = sqlx::query(SET_SEATS)
                .bind(text(after)?)
                .bind(game)
                .bind(text(before)?)
                .execute(&self.pool)
                .await?;
            if done.rows_affected() == 1 {
                self.notify(game).await?;
            }
            Ok(done.rows_affected() == 1)
        }

        async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError> {
            sqlx::query(SET_REMATCH)
                .bind(rematch)
                .bind(game)
                .execute(&self.pool)
                .await?;
            let row = sqlx::query("SELECT rematch FROM games WHERE id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
            let stands: Option<String> = match row {
                Some(row) => row.try_get(0)?,
                None => None,
            };
            stands.ok_or_else(|| StoreError::Corrupt(format!("game {game}: no rematch stored")))
        }

        async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError> {
            let done = sqlx::query(INSERT_CHAT)
                .bind(game)
                .bind(seq_i64(line.seq)?)
                .bind(line.at)
                .bind(line.seat.map(|s| s as i64))
                .bind(&line.name)
                .bind(&line.text)
                .bind(line.kind.as_str())
                .execute(&self.pool)
                .await?;
            if done.rows_affected() == 1 {
                self.notify(game).await
            } else {
                Err(StoreError::Conflict {
                    game: game.to_string(),
                    seq: line.seq,
                })
            }
        }

        async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError> {
            let rows = sqlx::query(SELECT_CHAT)
                .bind(game)
                .bind(seq_i64(from_seq)?)
                .fetch_all(&self.pool)
                .await?;
            rows.iter().map(chat_from_row).collect()
        }

        async fn append(
            &self,
            game: &str,
            seq: u64,
            seat: usize,
            action: &str,
            status: Status,
        ) -> Result<(), StoreError> {
            self.write(Write::Append {
                game: game.to_string(),
                seq: seq_i64(seq)?,
                seat: seat as i64,
                action: action.to_string(),
                status,
            })
            .await
        }

        async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
            let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            row.as_ref().map(game_from_row).transpose()
        }

        async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError> {
            let rows = sqlx::query(SELECT_ACTIONS)
                .bind(game)
                .bind(seq_i64(from_seq)?)
                .fetch_all(&self.pool)
                .await?;
            rows.iter().map(action_from_row).collect()
        }

        async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError> {
            let rows = sqlx::query(&list_sql(statuses))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
            rows.iter().map(game_from_row).collect()
        }

        async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError> {
            let sql = page_sql(page);
            let mut query = sqlx::query(&sql);
            if let Some(game) = &page.game {
                query = query.bind(game);
            }
            if let Some((created, id)) = &page.before {
                query = query.bind(*created).bind(id);
            }
            let rows = query
                .bind(i64::from(page.limit))
                .fetch_all(&self.pool)
                .await?;
            rows.iter().map(game_from_row).collect()
        }

        async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError> {
            let done = sqlx::query(ABANDON)
                .bind(game)
                .bind(seq_i64(seq)?)
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected() == 1)
        }

        $($subscribe)*
    }

    impl $store {
        /// Commits `write` with whatever else is queued (group commit).
        async fn write(&self, write: Write) -> Result<(), StoreError> {
            queue(&self.writer, write).await
        }

        /// Writes a batch: `true` for each row stored, `false` for an action whose
        /// `(game, seq)` was taken. A batch of one statement (the usual: moves that change
        /// no status) commits by itself; more go in one transaction.
        async fn write_batch(
            conn: &mut <$db as sqlx::Database>::Connection,
            channel: Option<&str>,
            batch: &[Pending],
        ) -> Result<Vec<bool>, sqlx::Error> {
            let appends = batch.iter().filter(|p| matches!(p.write, Write::Append { .. })).count();
            let statements = batch.len() - appends
                + insert_chunks(appends)
                + batch.iter().filter(|p| p.write.sets_status()).count()
                + usize::from(channel.is_some() && appends > 0);
            if statements == 1 {
                return Self::write_rows(conn, channel, batch).await;
            }
            let mut tx = sqlx::Connection::begin(conn).await?;
            let inserted = Self::write_rows(&mut *tx, channel, batch).await?;
            tx.commit().await?;
            Ok(inserted)
        }

        /// The statements of [`Self::write_batch`].
        async fn write_rows(
            tx: &mut <$db as sqlx::Database>::Connection,
            channel: Option<&str>,
            batch: &[Pending],
        ) -> Result<Vec<bool>, sqlx::Error> {
            let mut inserted = vec![true; batch.len()];
            for p in batch {
                if let Write::Create { id, game, config, seed, seats, created, status, seed_chosen, bot_secret, series, rules } = &p.write {
                    sqlx::query(INSERT_GAME)
                        .bind(id)
                        .bind(game)
                        .bind(config)
                        .bind(seed)
                        .bind(seats)
                        .bind(created)
                        .bind(status.as_str())
                        .bind(seed_chosen)
                        .bind(bot_secret)
                        .bind(series)
                        .bind(rules)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            // The actions, several rows a statement; a row not returned was taken. Of two
            // appends at one `(game, seq)` in the batch, the later is refused here.
            let mut appends: Vec<usize> = Vec::with_capacity(batch.len());
            for (i, p) in batch.iter().enumerate() {
                if let Write::Append { game, seq, .. } = &p.write {
                    let taken = appends.iter().any(|&j| {
                        matches!(&batch[j].write, Write::Append { game: g, seq: s, .. } if g == game && s == seq)
                    });
                    if taken {
                        inserted[i] = false;
                    } else {
                        appends.push(i);
                    }
                }
            }
            let now = now_ms();
            let mut rest = &appends[..];
            while !rest.is_empty() {
                let (rows, sql) = insert_actions(rest.len());
                let (chunk, tail) = rest.split_at(rows);
                rest = tail;
                let mut query = sqlx::query(sql);
                for &i in chunk {
                    if let Write::Append { game, seq, seat, action, .. } = &batch[i].write {
                        query = query.bind(game).bind(seq).bind(seat).bind(action).bind(now);
                    }
                }
                let stored = query
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|row| Ok((row.try_get::<String, _>(0)?, row.try_get::<i64, _>(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                for &i in chunk {
                    if let Write::Append { game, seq, .. } = &batch[i].write {
                        inserted[i] = stored.iter().any(|(g, s)| g == game && s == seq);
                    }
                }
            }
            for (p, fresh) in batch.iter().zip(&inserted) {
                if let Write::Append { game, status, .. } = &p.write {
                    if *fresh && p.write.sets_status() {
                        sqlx::query(SET_STATUS)
                            .bind(status.as_str())
                            .bind(game)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
            }
            if let Some(channel) = channel {
                // One notice for the batch: the games' ids, comma-separated.
                let mut games: Vec<&str> = batch
                    .iter()
                    .zip(&inserted)
                    .filter(|(_, fresh)| **fresh)
                    .filter_map(|(p, _)| match &p.write {
                        Write::Append { game, .. } => Some(game.as_str()),
                        Write::Create { .. } => None,
                    })
                    .collect();
                games.sort_unstable();
                games.dedup();
                if !games.is_empty() {
                    sqlx::query("SELECT pg_notify($1, $2)")
                        .bind(channel)
                        .bind(games.join(","))
                        .execute(&mut *tx)
                        .await?;
                }
            }
            Ok(inserted)
        }

        /// The task that commits writes: whatever is queued when it is free goes into
        /// one batch (group commit: one sync for many moves).
        ///
        /// With a `guard` (a SQLite file), a batch is acknowledged only if the file is
        /// still the one the server opened after its commit (one `stat` per batch).
        fn spawn_writer(
            pool: $pool,
            channel: Option<String>,
            hold: bool,
            mut guard: Option<FileGuard>,
        ) -> mpsc::Sender<Pending> {
            let (sender, mut queue) = mpsc::channel::<Pending>(4096);
            tokio::spawn(async move {
                let mut batch: Vec<Pending> = Vec::new();
                // With `hold`, the writer keeps one connection (its page cache stays warm);
                // a failed batch gives it back and the next takes a fresh one. (An
                // in-memory database has one connection: it must go back every time.)
                let mut held: Option<sqlx::pool::PoolConnection<$db>> = None;
                let mut last_commit = std::time::Instant::now();
                while let Some(first) = queue.recv().await {
                    batch.push(first);
                    take_queued(&mut queue, &mut batch);
                    if worth_waiting(&batch, last_commit) {
                        // Writes are streaming in: a moment's wait lets one commit serve many.
                        tokio::time::sleep(LINGER).await;
                        take_queued(&mut queue, &mut batch);
                    }
                    if let Some(gone) = guard.as_ref().and_then(FileGuard::gone) {
                        refuse_batch(&mut batch, &gone);
                        continue;
                    }
                    let conn = match held.take() {
                        Some(conn) => Ok(conn),
                        None => pool.acquire().await,
                    };
                    let mut conn = match conn {
                        Ok(conn) => conn,
                        Err(e) => {
                            let message = format!("no database connection: {e}");
                            for p in batch.drain(..) {
                                let _ = p.reply.send(Err(StoreError::Db(sqlx::Error::Protocol(message.clone()))));
                            }
                            continue;
                        }
                    };
                    let written = Self::write_batch(&mut *conn, channel.as_deref(), &batch).await;
                    last_commit = std::time::Instant::now();
                    if written.is_ok() && hold {
                        held = Some(conn);
                    }
                    if !file_holds(guard.as_mut(), &mut batch) {
                        continue;
                    }
                    match written {
                        Ok(inserted) => answer_batch(&mut batch, inserted),
                        Err(e) if batch.len() == 1 => {
                            if let Some(p) = batch.pop() {
                                let _ = p.reply.send(Err(StoreError::Db(e)));
                            }
                        }
                        Err(e) => {
                            // One bad row must not sink the others: write them one by one.
                            tracing::warn!("a batch of {} appends failed ({e}); retrying one by one", batch.len());
                            for p in batch.drain(..) {
                                let one = match pool.acquire().await {
                                    Ok(mut conn) => {
                                        Self::write_batch(&mut *conn, channel.as_deref(), std::slice::from_ref(&p)).await
                                    }
                                    Err(e) => Err(e),
                                };
                                let result = match one {
                                    Ok(inserted) if inserted.first() == Some(&true) => Ok(()),
                                    Ok(_) => Err(p.conflict()),
                                    Err(e) => Err(StoreError::Db(e)),
                                };
                                let _ = p.reply.send(result);
                            }
                        }
                    }
                }
            });
            sender
        }
    }
    };
}

/// The most writes committed in one batch.
pub(crate) const MAX_BATCH: usize = 256;

/// A write that comes within this time of the last commit's end finds the server busy
/// (moves streaming in); one that comes later is committed at once.
pub(crate) const BUSY: std::time::Duration = std::time::Duration::from_millis(2);
/// How long a write waits for others when the server is busy: every commit costs a sync
/// (SQLite) or a round of statements (PostgreSQL), and one for many moves costs far less
/// CPU than one each (a move's answer comes this much later).
pub(crate) const LINGER: std::time::Duration = std::time::Duration::from_millis(4);
/// A batch this big is committed without waiting.
pub(crate) const LINGER_BATCH: usize = 64;

/// A row for the writer: a new game, or an action appended.
pub(crate) enum Write {
    Create {
        id: String,
        game: String,
        config: String,
        seed: i64,
        seats: String,
        created: i64,
        status: Status,
        seed_chosen: i64,
        bot_secret: String,
        series: Option<String>,
        rules: String,
    },
    Append {
        game: String,
        seq: i64,
        seat: i64,
        action: String,
        status: Status,
    },
}

impl Write {
    /// An action that changes its game's status: the first (`open` to `running`) or the
    /// last (to `finished`). Other moves leave it `running`.
    pub(crate) fn sets_status(&self) -> bool {
        matches!(self, Write::Append { seq, status, .. } if *seq == 0 || *status != Status::Running)
    }
}

/// A write waiting for the writer, and where its result goes.
pub(crate) struct Pending {
    pub(crate) write: Write,
    pub(crate) reply: oneshot::Sender<Result<(), StoreError>>,
}

impl Pending {
    pub(crate) fn conflict(&self) -> StoreError {
        match &self.write {
            Write::Append { game, seq, .. } => StoreError::Conflict {
                game: game.clone(),
                seq: *seq as u64,
            },
            Write::Create { id, .. } => {
                StoreError::Corrupt(format!("game {id} could not be stored"))
            }
        }
    }
}

/// Answers each write of a committed `batch` by whether its row was stored, and empties
/// it.
pub(crate) fn answer_batch(batch: &mut Vec<Pending>, inserted: Vec<bool>) {
    for (p, fresh) in batch.drain(..).zip(inserted) {
        let result = if fresh { Ok(()) } else { Err(p.conflict()) };
        let _ = p.reply.send(result);
    }
}

/// Refuses every write of `batch` (the file at `gone` is not the one opened), and
/// empties it.
pub(crate) fn refuse_batch(batch: &mut Vec<Pending>, gone: &str) {
    for p in batch.drain(..) {
        let _ = p.reply.send(Err(StoreError::FileGone(gone.to_string())));
    }
}

/// After a commit: whether the SQLite file is still the one opened (always, without a
/// `guard`). If not, the batch is refused and logged.
pub(crate) fn file_holds(guard: Option<&mut FileGuard>, batch: &mut Vec<Pending>) -> bool {
    match guard.map(FileGuard::check) {
        Some(Err(gone)) => {
            tracing::error!(
                "{}; {} moves refused",
                StoreError::FileGone(gone.clone()),
                batch.len()
            );
            refuse_batch(batch, &gone);
            false
        }
        _ => true,
    }
}

/// Whether a writer holding `batch` waits [`LINGER`] for more before committing: writes
/// are streaming in (the last commit ended under [`BUSY`] ago) and the batch is small.
pub(crate) fn worth_waiting(batch: &[Pending], last_commit: std::time::Instant) -> bool {
    batch.len() < LINGER_BATCH && last_commit.elapsed() < BUSY
}

/// Moves what is queued into `batch`, up to [`MAX_BATCH`] writes.
pub(crate) fn take_queued(queue: &mut mpsc::Receiver<Pending>, batch: &mut Vec<Pending>) {
    while batch.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(p) => batch.push(p),
            Err(_) => break,
        }
    }
}

/// Queues `write` for the store's writer task and waits for its commit.
async fn queue(writer: &mpsc::Sender<Pending>, write: Write) -> Result<(), StoreError> {
    let (reply, answer) = oneshot::channel();
    writer
        .send(Pending { write, reply })
        .await
        .map_err(|_| StoreError::WriterGone)?;
    answer.await.map_err(|_| StoreError::WriterGone)?
}

/// The identity of the SQLite file a server opened: its device, inode and a length that
/// only grows (SQLite never shrinks the file without `VACUUM`, which the server never runs).
/// A file removed, replaced by another, or truncated no longer matches.
pub(crate) struct FileGuard {
    path: std::path::PathBuf,
    id: (u64, u64),
    len: u64,
    /// Set at the first mismatch, for good: the server must be restarted on its file.
    gone: Option<String>,
}

impl FileGuard {
    /// The file's identity now, or `None` for an in-memory database.
    fn new(path: &std::path::Path) -> Option<FileGuard> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileGuard {
            path: path.to_path_buf(),
            id: file_id(&meta),
            len: meta.len(),
            gone: None,
        })
    }

    pub(crate) fn gone(&self) -> Option<String> {
        self.gone.clone()
    }

    /// Compares the file at the path with the one opened.
    pub(crate) fn check(&mut self) -> Result<(), String> {
        if let Some(gone) = &self.gone {
            return Err(gone.clone());
        }
        let fine = match std::fs::metadata(&self.path) {
            Ok(meta) if file_id(&meta) == self.id && meta.len() >= self.len => {
                self.len = meta.len();
                true
            }
            _ => false,
        };
        if fine {
            Ok(())
        } else {
            let gone = self.path.display().to_string();
            self.gone = Some(gone.clone());
            Err(gone)
        }
    }
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    (0, u64::from(meta.is_file()))
}

/// SQLite storage (one file, WAL journal).
pub struct SqliteStore {
    pool: SqlitePool,
    writer: mpsc::Sender<Pending>,
}

impl SqliteStore {
    /// Opens (creating it if missing) and migrates the database at `url`
    /// (`sqlite://PATH`, `sqlite:PATH` or `sqlite::memory:`).
    ///
    /// # Errors
    /// The file cannot be opened or migrated.
    pub async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        let memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // A commit reaches the disk before the move is acknowledged.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let path = options.get_filename().to_path_buf();
        let pool = SqlitePoolOptions::new()
            // An in-memory database lives in one connection.
            .max_connections(if memory { 1 } else { 4 })
            .idle_timeout(if memory {
                None
            } else {
                Some(Duration::from_secs(600))
            })
            .max_lifetime(if memory {
                None
            } else {
                Some(Duration::from_secs(1800))
            })
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        let guard = if memory { None } else { FileGuard::new(&path) };
        let writer = if memory {
            SqliteStore::spawn_writer(pool.clone(), None, false, guard)
        } else {
            crate::sqlite_writer::spawn(&path, guard)?
        };
        Ok(SqliteStore { pool, writer })
    }
}

impl SqliteStore {
    /// One server uses a SQLite file: nobody else to tell.
    #[allow(clippy::unused_async)]
    async fn notify(&self, _game: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

sql_store!(
    SqliteStore,
    SqlitePool,
    sqlx::Sqlite,
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        Ok(None)
    }
);

/// PostgreSQL storage; servers sharing one database hear each other's moves by
/// LISTEN/NOTIFY.
pub struct PgStore {
    pool: PgPool,
    channel: String,
    writer: mpsc::Sender<Pending>,
}

impl PgStore {
    /// Tells the other servers that `game` changed (a seat taken, a chat line): they read
    /// it again as they do after its moves.
    async fn notify(&self, game: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(&self.channel)
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Connects to `url` and migrates the `public` schema (or the one the URL's
    /// `options=-c search_path=...` names).
    ///
    /// # Errors
    /// No connection, or migrations fail.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_schema(url, None).await
    }

    /// Connects to `url` and keeps everything in `schema` (created if missing), with its
    /// own notification channel: tests give each run its own schema.
    ///
    /// # Errors
    /// No connection, a schema name that is not `[a-z0-9_]+`, or migrations fail.
    pub async fn connect_schema(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let mut options = PgConnectOptions::from_str(url)?;
        let mut channel = "tabletop_actions".to_string();
        if let Some(schema) = schema {
            if schema.is_empty()
                || !schema
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                return Err(StoreError::Corrupt(format!("bad schema name `{schema}`")));
            }
            let setup = PgPoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await?;
            sqlx::query(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .execute(&setup)
                .await?;
            setup.close().await;
            options = options.options([("search_path", schema)]);
            channel = format!("tabletop_actions_{schema}");
        }
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        let writer = PgStore::spawn_writer(pool.clone(), Some(channel.clone()), true, None);
        Ok(PgStore {
            pool,
            channel,
            writer,
        })
    }
}

sql_store!(
    PgStore,
    PgPool,
    sqlx::Postgres,
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(&self.channel).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let notice = tokio::select! {
                    () = tx.closed() => return,
                    got = listener.try_recv() => got,
                };
                let sent = match notice {
                    // One notice a batch: the games' ids, comma-separated.
                    Ok(Some(n)) => n
                        .payload()
                        .split(',')
                        .try_for_each(|id| tx.send(Notice::Actions(id.to_string()))),
                    Ok(None) => tx.send(Notice::Resync),
                    Err(e) => {
                        tracing::warn!("notification listener: {e}");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        tx.send(Notice::Resync)
                    }
                };
                if sent.is_err() {
                    return;
                }
            }
        });
        Ok(Some(rx))
    }
);

impl PgStore {
    /// Drops a schema made by [`PgStore::connect_schema`] and everything in it (tests clean
    /// up after themselves with it).
    ///
    /// # Errors
    /// No connection, or a schema name that is not `[a-z0-9_]+`.
    pub async fn drop_schema(url: &str, schema: &str) -> Result<(), StoreError> {
        if schema.is_empty()
            || !schema
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(StoreError::Corrupt(format!("bad schema name `{schema}`")));
        }
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect_with(PgConnectOptions::from_str(url)?)
            .await?;
        sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .execute(&pool)
            .await?;
        pool.close().await;
        Ok(())
    }
}

/// Opens the store a database URL names: `sqlite://PATH` or `postgres://URL`.
///
/// # Errors
/// An unknown scheme, or the store cannot be opened.
pub async fn open(database: &str) -> anyhow::Result<std::sync::Arc<dyn Store>> {
    if database.starts_with("sqlite:") {
        Ok(std::sync::Arc::new(SqliteStore::connect(database).await?))
    } else if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(PgStore::connect(database).await?))
    } else {
        anyhow::bail!("unknown database `{database}`: expected sqlite://PATH or postgres://URL")
    }
}
