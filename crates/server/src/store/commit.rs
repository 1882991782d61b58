//! The group commit every store writes through: writes queue up, and whatever is queued
//! when the writer is free is committed at once (one sync for many moves). The writers
//! (SQLite's thread, the sqlx task of PostgreSQL and in-memory SQLite) share what is here:
//! the rows, the batching, the answers, and the guard on the SQLite file.

use crate::domain::{Status, StoreError};
use tokio::sync::{mpsc, oneshot};

/// The most writes committed in one batch.
const MAX_BATCH: usize = 256;

/// A write that comes within this time of the last commit's end finds the server busy
/// (moves streaming in); one that comes later is committed at once.
const BUSY: std::time::Duration = std::time::Duration::from_millis(2);
/// How long a write waits for others when the server is busy: every commit costs a sync
/// (SQLite) or a round of statements (PostgreSQL), and one for many moves costs far less
/// CPU than one each (a move's answer comes this much later).
const LINGER: std::time::Duration = std::time::Duration::from_millis(4);
/// A batch this big is committed without waiting.
const LINGER_BATCH: usize = 64;

/// A row for the writer: a new game, or an action appended.
pub(super) enum Write {
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
        format: i64,
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
    pub(super) fn sets_status(&self) -> bool {
        matches!(self, Write::Append { seq, status, .. } if *seq == 0 || *status != Status::Running)
    }
}

/// A write waiting for the writer, and where its result goes.
pub(super) struct Pending {
    pub(super) write: Write,
    pub(super) reply: oneshot::Sender<Result<(), StoreError>>,
}

impl Pending {
    pub(super) fn conflict(&self) -> StoreError {
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
fn answer_batch(batch: &mut Vec<Pending>, inserted: Vec<bool>) {
    for (p, fresh) in batch.drain(..).zip(inserted) {
        let result = if fresh { Ok(()) } else { Err(p.conflict()) };
        let _ = p.reply.send(result);
    }
}

/// Refuses every write of `batch` (the file at `gone` is not the one opened), and
/// empties it.
fn refuse_batch(batch: &mut Vec<Pending>, gone: &str) {
    for p in batch.drain(..) {
        let _ = p.reply.send(Err(StoreError::FileGone(gone.to_string())));
    }
}

/// After a commit: whether the SQLite file is still the one opened (always, without a
/// `guard`). If not, the batch is refused and logged.
fn file_holds(guard: Option<&mut FileGuard>, batch: &mut Vec<Pending>) -> bool {
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
fn worth_waiting(batch: &[Pending], last_commit: std::time::Instant) -> bool {
    batch.len() < LINGER_BATCH && last_commit.elapsed() < BUSY
}

/// Moves what is queued into `batch`, up to [`MAX_BATCH`] writes.
fn take_queued(queue: &mut mpsc::Receiver<Pending>, batch: &mut Vec<Pending>) {
    while batch.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(p) => batch.push(p),
            Err(_) => break,
        }
    }
}

/// Drops the writes nobody waits for any more: their callers gave up (the store's time
/// ran out, during an outage) and were told the write was refused, so it must not be
/// stored later behind their backs.
fn drop_abandoned(batch: &mut Vec<Pending>) {
    batch.retain(|p| !p.reply.is_closed());
}

/// Queues `write` for the store's writer task and waits for its commit.
pub(super) async fn queue(writer: &mpsc::Sender<Pending>, write: Write) -> Result<(), StoreError> {
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
pub(super) struct FileGuard {
    path: std::path::PathBuf,
    id: (u64, u64),
    len: u64,
    /// Set at the first mismatch, for good: the server must be restarted on its file.
    gone: Option<String>,
}

impl FileGuard {
    /// The file's identity now, or `None` for an in-memory database.
    pub(super) fn new(path: &std::path::Path) -> Option<FileGuard> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileGuard {
            path: path.to_path_buf(),
            id: file_id(&meta),
            len: meta.len(),
            gone: None,
        })
    }

    pub(super) fn gone(&self) -> Option<String> {
        self.gone.clone()
    }

    /// Compares the file at the path with the one opened.
    pub(super) fn check(&mut self) -> Result<(), String> {
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

/// Why a batch was not committed.
pub(super) enum Failed {
    /// The batch failed: its writes are tried again one by one, so that one bad row does
    /// not sink the others.
    Batch(StoreError),
    /// Nothing could be tried (no connection to the database): every write is refused.
    Unreached(String),
}

/// A database's side of the group commit: writes a batch in one transaction.
pub(super) trait Commit {
    /// Writes `batch`: `true` for each row stored, `false` for an action whose
    /// `(game, seq)` was taken (by an earlier row, in the database or in the batch).
    async fn commit(&mut self, batch: &[Pending]) -> Result<Vec<bool>, Failed>;
}

/// The writer's loop, the same for every database: whatever is queued when it is free
/// goes into one batch (one sync for many moves), and each write is answered after the
/// commit. With a `guard` (a SQLite file), a batch is acknowledged only if the file is
/// still the one the server opened (one `stat` per batch).
pub(super) async fn run(
    mut queue: mpsc::Receiver<Pending>,
    mut guard: Option<FileGuard>,
    mut db: impl Commit,
) {
    let mut batch: Vec<Pending> = Vec::with_capacity(MAX_BATCH);
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
        drop_abandoned(&mut batch);
        if batch.is_empty() {
            continue;
        }
        let written = db.commit(&batch).await;
        last_commit = std::time::Instant::now();
        if !file_holds(guard.as_mut(), &mut batch) {
            continue;
        }
        match written {
            Ok(inserted) => answer_batch(&mut batch, inserted),
            Err(Failed::Unreached(why)) => {
                unreached(&mut batch, &format!("no database connection: {why}"));
            }
            // The database cannot take writes now (its disk full, its connection lost):
            // trying each again would fail the same way.
            Err(Failed::Batch(StoreError::Unavailable(e))) => unreached(&mut batch, &e.to_string()),
            // The connection was cut while the batch was on its way: it may be stored.
            Err(Failed::Batch(StoreError::Unanswered(e))) => {
                let why = e.to_string();
                for p in batch.drain(..) {
                    let _ = p
                        .reply
                        .send(Err(StoreError::Unanswered(why.clone().into())));
                }
            }
            Err(Failed::Batch(e)) if batch.len() == 1 => {
                if let Some(p) = batch.pop() {
                    let _ = p.reply.send(Err(e));
                }
            }
            Err(Failed::Batch(e)) => {
                tracing::warn!(
                    "a batch of {} writes failed ({e}); retrying one by one",
                    batch.len()
                );
                for p in batch.drain(..) {
                    let result = match db.commit(std::slice::from_ref(&p)).await {
                        Ok(inserted) if inserted.first() == Some(&true) => Ok(()),
                        Ok(_) => Err(p.conflict()),
                        Err(Failed::Batch(e)) => Err(e),
                        Err(Failed::Unreached(why)) => Err(no_connection(&why)),
                    };
                    let _ = p.reply.send(result);
                }
            }
        }
    }
}

fn no_connection(why: &str) -> StoreError {
    StoreError::Unavailable(format!("no database connection: {why}").into())
}

/// Refuses every write of `batch`: the database could not take it, for `why`.
fn unreached(batch: &mut Vec<Pending>, why: &str) {
    for p in batch.drain(..) {
        let _ = p.reply.send(Err(StoreError::Unavailable(why.into())));
    }
}
