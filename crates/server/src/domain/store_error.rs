//! A storage failure, as every store reports it (the tables' and the accounts' alike).

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row for this `(game, seq)` already exists: another move won.
    #[error("action {seq} of game {game} already exists")]
    Conflict { game: String, seq: u64 },
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The database failed (the store's own error, kept as its cause).
    #[error(transparent)]
    Db(Box<dyn std::error::Error + Send + Sync>),
    #[error("the storage writer has stopped")]
    WriterGone,
    /// The database cannot take the call now: it is stopped or unreachable, or its disk is
    /// full. Nothing was written; the call may go through later.
    #[error("{0}")]
    Unavailable(Box<dyn std::error::Error + Send + Sync>),
    /// A write got no answer: no answer in time, or the connection was cut while it was
    /// on its way. It may have been stored (a later write at its place then conflicts, and
    /// the table reads the stored row); the database is taken as unavailable meanwhile.
    #[error("{0}")]
    Unanswered(Box<dyn std::error::Error + Send + Sync>),
    /// The SQLite file under the running server was removed, replaced or truncated:
    /// whatever is written now would be lost, so nothing more is acknowledged.
    #[error("the database file {0} was removed, replaced or truncated while the server ran; moves are refused until the server restarts on its file")]
    FileGone(String),
}
