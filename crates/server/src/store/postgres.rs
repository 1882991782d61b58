//! PostgreSQL storage: several servers may share one database, and hear each other's
//! moves by LISTEN/NOTIFY.

use super::commit::{queue, FileGuard, Pending, Write};
use super::migrations::migrator;
use super::sql::*;
use crate::domain::{
    now_ms, ActionRow, Append, ChatRow, GameRow, Notice, Page, SeatChange, SeatRow, Status, Store,
    StoreError, Upgrade,
};
use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::mpsc;

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
            check_schema(schema)?;
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
            // Under the hub's bound on a store call (5 s by default): during an outage the
            // writer refuses a batch itself, before its callers give up on it.
            .acquire_timeout(Duration::from_secs(2))
            .connect_with(options)
            .await?;
        migrator().await?.run(&pool).await?;
        let writer = PgStore::spawn_writer(pool.clone(), Some(channel.clone()), true, None);
        Ok(PgStore {
            pool,
            channel,
            writer,
        })
    }
}

super::accounts::accounts_store!(PgStore);
super::tournaments::tournaments_store!(PgStore);

sql_store!(
    PgStore,
    PgPool,
    sqlx::Postgres,
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        let mut listener = listen(&self.pool, &self.channel).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        let (pool, channel) = (self.pool.clone(), self.channel.clone());
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
                    // The connection was lost (notices with it): listen again on a fresh
                    // one, then read everything again. The outage is logged once.
                    Ok(None) | Err(_) => {
                        tracing::warn!(
                            "notification listener: the connection was lost; listening again once the database answers"
                        );
                        let started = std::time::Instant::now();
                        listener = loop {
                            if tx.is_closed() {
                                return;
                            }
                            tokio::time::sleep(Duration::from_millis(500)).await;
                            if let Ok(listener) = listen(&pool, &channel).await {
                                break listener;
                            }
                        };
                        tracing::warn!(
                            "notification listener: listening again after {:.1} s; reading every live table again",
                            started.elapsed().as_secs_f64()
                        );
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

/// A listener on `channel`, on a connection of its own.
async fn listen(pool: &PgPool, channel: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(channel).await?;
    Ok(listener)
}

impl PgStore {
    /// Drops a schema made by [`PgStore::connect_schema`] and everything in it (tests clean
    /// up after themselves with it).
    ///
    /// # Errors
    /// No connection, or a schema name that is not `[a-z0-9_]+`.
    pub async fn drop_schema(url: &str, schema: &str) -> Result<(), StoreError> {
        check_schema(schema)?;
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

/// A schema name goes into SQL text (it cannot be bound): only `[a-z0-9_]+` is taken.
fn check_schema(schema: &str) -> Result<(), StoreError> {
    let plain = (schema.bytes()).all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if schema.is_empty() || !plain {
        return Err(StoreError::Corrupt(format!("bad schema name `{schema}`")));
    }
    Ok(())
}
