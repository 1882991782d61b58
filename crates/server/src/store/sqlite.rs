//! SQLite storage: one file, WAL journal; reads through sqlx's pool, every write through a
//! thread of its own (below).

use super::commit::{queue, run, Commit, Failed, FileGuard, Pending, Write};
use super::migrations::migrator;
use super::sql::*;
use crate::domain::{
    now_ms, ActionRow, Append, ChatRow, GameRow, Notice, Page, SeatChange, SeatRow, Status, Store,
    StoreError, Upgrade,
};
use async_trait::async_trait;
use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::mpsc;

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
        migrator().await?.run(&pool).await?;
        let guard = if memory { None } else { FileGuard::new(&path) };
        let writer = if memory {
            SqliteStore::spawn_writer(pool.clone(), None, false, guard)
        } else {
            writer(&path, guard)?
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

super::accounts::accounts_store!(SqliteStore);
super::tournaments::tournaments_store!(SqliteStore);

sql_store!(
    SqliteStore,
    SqlitePool,
    sqlx::Sqlite,
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        Ok(None)
    }
);

// The writer of a SQLite file: one thread of its own with its own connection, committing
// whatever is queued when it is free in one transaction (group commit: one sync for many
// moves), and answering each write after the commit. The other calls go through sqlx's
// pool; this path carries every game created and every move, and a thread that calls
// SQLite directly spends no wake-up per statement (sqlx runs each SQLite statement on a
// worker thread of its own and waits for it).

/// WAL pages between the writer's checkpoints (SQLite's default is 1,000).
const WAL_PAGES: u32 = 8_000;

const INSERT_ACTION: &str = "INSERT INTO actions (game_id, seq, seat, action, at) \
                             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, seq) DO NOTHING";

/// Opens the writer's connection to the (already migrated) file at `path` and starts its
/// thread; writes sent to the returned queue are committed in batches.
///
/// # Errors
/// The file cannot be opened or set up, or the thread not started.
fn writer(path: &Path, guard: Option<FileGuard>) -> Result<mpsc::Sender<Pending>, StoreError> {
    let conn = open(path).map_err(StoreError::from)?;
    let (sender, queue) = mpsc::channel::<Pending>(4096);
    // The thread runs the writer's loop on a runtime of its own, with nothing else on it:
    // the statements run right there, without a wake-up for each.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|e| StoreError::Corrupt(format!("the SQLite writer did not start: {e}")))?;
    std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || runtime.block_on(run(queue, guard, FileCommit(conn))))
        .map_err(|e| StoreError::Corrupt(format!("the SQLite writer did not start: {e}")))?;
    Ok(sender)
}

/// The writer's side of the group commit for a SQLite file: its own connection.
struct FileCommit(Connection);

impl Commit for FileCommit {
    async fn commit(&mut self, batch: &[Pending]) -> Result<Vec<bool>, Failed> {
        write_batch(&mut self.0, batch).map_err(|e| Failed::Batch(StoreError::from(e)))
    }
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    settings(&conn)?;
    Ok(conn)
}

/// The settings every connection of tabletop's SQLite store runs with (the null server
/// of the benchmarks, crates/server/examples/null_server.rs, takes the same, so that its
/// floor writes as tabletop does).
///
/// # Errors
/// SQLite refuses a setting.
pub fn settings(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // A commit reaches the disk before the move is acknowledged.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // The writer copies the WAL back into the file every this many pages: each copy
    // writes every page the WAL holds once, and the pages of live tables change again and
    // again, so a longer WAL writes each of them fewer times (about 32 MiB of WAL at most).
    conn.pragma_update(None, "wal_autocheckpoint", WAL_PAGES)
}

/// Writes `batch` in one transaction: `true` for each row stored, `false` for an action
/// whose `(game, seq)` was taken (by an earlier row, in the file or in the batch).
fn write_batch(conn: &mut Connection, batch: &[Pending]) -> rusqlite::Result<Vec<bool>> {
    // Immediate: the write lock is taken at once, never upgraded from a read.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut inserted = vec![true; batch.len()];
    let now = now_ms();
    for (i, p) in batch.iter().enumerate() {
        match &p.write {
            Write::Create {
                id,
                game,
                config,
                seed,
                seats,
                created,
                status,
                seed_chosen,
                bot_secret,
                series,
                rules,
                format,
            } => {
                tx.prepare_cached(INSERT_GAME)?.execute(params![
                    id,
                    game,
                    config,
                    seed,
                    seats,
                    created,
                    status.as_str(),
                    seed_chosen,
                    bot_secret,
                    series,
                    rules,
                    format
                ])?;
            }
            Write::Append {
                game,
                seq,
                seat,
                action,
                status,
            } => {
                let rows = tx
                    .prepare_cached(INSERT_ACTION)?
                    .execute(params![game, seq, seat, action, now])?;
                inserted[i] = rows == 1;
                if rows == 1 && p.write.sets_status() {
                    tx.prepare_cached(SET_STATUS)?
                        .execute(params![status.as_str(), game])?;
                }
            }
        }
    }
    tx.commit()?;
    Ok(inserted)
}
