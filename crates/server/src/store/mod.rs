//! Storage on SQLite and PostgreSQL: the domain's [`Store`] implemented over SQL.
//!
//! The same SQL (and the same embedded migrations) runs on both. A move is acknowledged
//! only after [`Store::append`] has committed its row; `UNIQUE (game_id, seq)` makes
//! exactly one of two conflicting moves win.

mod accounts;
mod commit;
mod migrations;
mod postgres;
mod sql;
mod sqlite;
mod tournaments;

pub use postgres::PgStore;
pub use sqlite::{settings as sqlite_settings, SqliteStore};

use crate::domain::Store;
use std::sync::Arc;

/// Opens the store a database URL names: `sqlite://PATH` or `postgres://URL`.
///
/// # Errors
/// An unknown scheme, or the store cannot be opened.
pub async fn open(database: &str) -> anyhow::Result<Arc<dyn Store>> {
    if database.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::connect(database).await?))
    } else if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        Ok(Arc::new(PgStore::connect(database).await?))
    } else {
        anyhow::bail!("unknown database `{database}`: expected sqlite://PATH or postgres://URL")
    }
}
