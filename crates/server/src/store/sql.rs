//! The SQL both databases run: the statements, the rows they read, and the [`Store`]
//! methods that are the same on both (`sql_store!`, instantiated by each database's
//! module).

use crate::domain::{ActionRow, ChatKind, ChatRow, GameRow, Page, Status, StoreError};
use sqlx::Row;

pub(super) const INSERT_GAME: &str = "INSERT INTO games \
                           (id, game, config, seed, seats, created, status, seed_chosen, bot_secret, series, rules, format) \
                           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
/// The columns [`game_from_row`] reads, in its order.
pub(super) const GAME_COLUMNS: &str =
    "id, game, config, seed, seats, created, status, seed_chosen, bot_secret, rematch, series, rules, format";
/// Rewrites a table's config and format if it is still in format `$4` (NULL is 1) with
/// `$5` actions.
pub(super) const UPGRADE_GAME: &str = "UPDATE games SET config = $1, format = $2 \
                       WHERE id = $3 AND COALESCE(format, 1) = $4 \
                       AND (SELECT COUNT(*) FROM actions WHERE game_id = $3) = $5";
pub(super) const DELETE_ACTIONS: &str = "DELETE FROM actions WHERE game_id = $1";
pub(super) const UPGRADE_ACTION: &str =
    "INSERT INTO actions (game_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)";
pub(super) const SET_SEATS: &str = "UPDATE games SET seats = $1 WHERE id = $2 AND seats = $3";
pub(super) const SET_REMATCH: &str =
    "UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL";
pub(super) const INSERT_CHAT: &str = "INSERT INTO chat (game_id, seq, at, seat, name, text, kind) \
                           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, seq) DO NOTHING";
pub(super) const SELECT_CHAT: &str = "SELECT seq, at, seat, name, text, kind FROM chat \
                           WHERE game_id = $1 AND seq >= $2 ORDER BY seq";
/// The most action rows one insert statement takes. Each row count up to it has its own
/// statement text (prepared once on the writer's connection), so that a batch is one
/// statement as long as it is no bigger.
pub(super) const INSERT_ROWS: usize = 32;

/// The number of insert statements for `appends` rows.
pub(super) fn insert_chunks(appends: usize) -> usize {
    appends.div_ceil(INSERT_ROWS)
}

/// The insert of `min(pending, INSERT_ROWS)` rows, and that count. It returns the rows
/// stored (`ON CONFLICT DO NOTHING` skips a taken `(game_id, seq)`).
pub(super) fn insert_actions(pending: usize) -> (usize, &'static str) {
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
pub(super) const ABANDON: &str = "UPDATE games SET status = 'abandoned' WHERE id = $1 \
                       AND status IN ('open', 'running') \
                       AND (SELECT COUNT(*) FROM actions WHERE game_id = $1) = $2";
pub(super) const SET_STATUS: &str =
    "UPDATE games SET status = $1 WHERE id = $2 AND status <> 'abandoned'";
pub(super) const INSERT_REVIEW: &str = "INSERT INTO reviews (game_id, review, at) \
                           VALUES ($1, $2, $3) ON CONFLICT (game_id) DO NOTHING";
pub(super) const SELECT_REVIEW: &str = "SELECT review FROM reviews WHERE game_id = $1";
pub(super) const SELECT_ACTIONS: &str = "SELECT seq, seat, action, at FROM actions \
                              WHERE game_id = $1 AND seq >= $2 ORDER BY seq";

pub(super) fn game_from_row<R: Row>(row: &R) -> Result<GameRow, StoreError>
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
    let format: Option<i64> = row.try_get(12)?;
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
            None => crate::domain::TableRules::default(),
        },
        format: match format {
            None => 1,
            Some(f) => u32::try_from(f).map_err(|e| corrupt("format", &e))?,
        },
        id,
    })
}

pub(super) fn chat_from_row<R: Row>(row: &R) -> Result<ChatRow, StoreError>
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
        name: crate::domain::stored_text(&row.try_get::<String, _>(3)?)
            .unwrap_or_else(|| "someone".into()),
        text: crate::domain::stored_text(&row.try_get::<String, _>(4)?).unwrap_or_default(),
        kind: match row.try_get::<String, _>(5)?.as_str() {
            "took_over" => ChatKind::TookOver,
            "back" => ChatKind::Back,
            "hint" => ChatKind::Hint,
            _ => ChatKind::Chat,
        },
    })
}

pub(super) fn action_from_row<R: Row>(row: &R) -> Result<ActionRow, StoreError>
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

pub(super) fn list_sql(statuses: &[Status]) -> String {
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
pub(super) fn page_sql(page: &Page) -> String {
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

pub(super) fn seq_i64(seq: u64) -> Result<i64, StoreError> {
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
                format: i64::from(game.format),
            })
            .await
        }

        async fn upgrade(&self, upgrade: &Upgrade) -> Result<bool, StoreError> {
            let mut tx = self.pool.begin().await?;
            let done = sqlx::query(UPGRADE_GAME)
                .bind(upgrade.config.to_string())
                .bind(i64::from(upgrade.format))
                .bind(&upgrade.game)
                .bind(i64::from(upgrade.from))
                .bind(seq_i64(upgrade.stored)?)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            sqlx::query(DELETE_ACTIONS)
                .bind(&upgrade.game)
                .execute(&mut *tx)
                .await?;
            for action in &upgrade.actions {
                sqlx::query(UPGRADE_ACTION)
                    .bind(&upgrade.game)
                    .bind(seq_i64(action.seq)?)
                    .bind(action.seat as i64)
                    .bind(&action.action)
                    .bind(action.at)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(true)
        }

        async fn set_seats(&self, game: &str, seats: SeatChange<'_>) -> Result<bool, StoreError> {
            let text = |rows: &[SeatRow]| {
                serde_json::to_string(rows).map_err(|e| StoreError::Corrupt(e.to_string()))
            };
            let done = sqlx::query(SET_SEATS)
                .bind(text(seats.after)?)
                .bind(game)
                .bind(text(seats.before)?)
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

        async fn append(&self, game: &str, next: Append<'_>) -> Result<(), StoreError> {
            self.write(Write::Append {
                game: game.to_string(),
                seq: seq_i64(next.seq)?,
                seat: next.seat as i64,
                action: next.action.to_string(),
                status: next.status,
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

        async fn review(&self, game: &str) -> Result<Option<String>, StoreError> {
            let row = sqlx::query(SELECT_REVIEW)
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
            Ok(match row {
                Some(row) => Some(row.try_get(0)?),
                None => None,
            })
        }

        async fn set_review(&self, game: &str, review: &str) -> Result<(), StoreError> {
            sqlx::query(INSERT_REVIEW)
                .bind(game)
                .bind(review)
                .bind(now_ms())
                .execute(&self.pool)
                .await?;
            Ok(())
        }

        async fn ping(&self) -> Result<(), StoreError> {
            sqlx::query("SELECT 1").execute(&self.pool).await?;
            Ok(())
        }

        $($subscribe)*
    }

    /// The writer's side of the group commit for this database, through sqlx.
    struct SqlxCommit {
        pool: $pool,
        channel: Option<String>,
        hold: bool,
        held: Option<sqlx::pool::PoolConnection<$db>>,
    }

    impl super::commit::Commit for SqlxCommit {
        async fn commit(&mut self, batch: &[Pending]) -> Result<Vec<bool>, super::commit::Failed> {
            let conn = match self.held.take() {
                Some(conn) => Ok(conn),
                None => self.pool.acquire().await,
            };
            let mut conn = conn.map_err(|e| super::commit::Failed::Unreached(e.to_string()))?;
            let written = <$store>::write_batch(&mut *conn, self.channel.as_deref(), batch).await;
            if written.is_ok() && self.hold {
                self.held = Some(conn);
            }
            written.map_err(|e| {
                // No answer came (the connection failed under the batch): it may be stored.
                let lost = matches!(
                    e,
                    sqlx::Error::Io(_) | sqlx::Error::Protocol(_) | sqlx::Error::WorkerCrashed
                );
                super::commit::Failed::Batch(if lost {
                    StoreError::Unanswered(Box::new(e))
                } else {
                    StoreError::from(e)
                })
            })
        }
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
                if let Write::Create { id, game, config, seed, seats, created, status, seed_chosen, bot_secret, series, rules, format } = &p.write {
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
                        .bind(format)
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

        /// Starts the task that commits writes through `pool` ([`super::commit::run`]).
        /// With `hold`, the writer keeps one connection (its page cache stays warm); a
        /// failed batch gives it back and the next takes a fresh one. (An in-memory
        /// database has one connection: it must go back every time.)
        fn spawn_writer(
            pool: $pool,
            channel: Option<String>,
            hold: bool,
            guard: Option<FileGuard>,
        ) -> mpsc::Sender<Pending> {
            let (sender, queue) = mpsc::channel::<Pending>(4096);
            let db = SqlxCommit { pool, channel, hold, held: None };
            tokio::spawn(super::commit::run(queue, guard, db));
            sender
        }
    }
    };
}

pub(super) use sql_store;

// The databases' own errors, kept as the cause of the domain's `StoreError::Db`, or of
// `StoreError::Unavailable` when the database cannot take the call now.
impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        if unavailable(&error) {
            StoreError::Unavailable(Box::new(error))
        } else {
            StoreError::Db(Box::new(error))
        }
    }
}

/// Whether a database's error says that it cannot take calls now (stopped, unreachable,
/// out of disk) rather than that this call was wrong.
fn unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            let code = code.as_ref();
            // SQLite: a primary result code (the low byte of an extended one).
            if let Ok(number) = code.parse::<i32>() {
                return sqlite_unavailable(number);
            }
            // PostgreSQL SQLSTATE: 08 connection exception, 53 insufficient resources
            // (disk full, out of memory, too many connections), 57P01-57P05 the server
            // shutting down or not yet up, 58 system error (I/O).
            code.starts_with("08")
                || code.starts_with("53")
                || code.starts_with("57P")
                || code.starts_with("58")
        }),
        _ => false,
    }
}

/// Whether a SQLite result code (extended or primary) is the disk's or the file's failure:
/// `SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_CANTOPEN`, or busy past the timeout.
fn sqlite_unavailable(code: i32) -> bool {
    const BUSY: i32 = 5;
    const LOCKED: i32 = 6;
    const IOERR: i32 = 10;
    const FULL: i32 = 13;
    const CANTOPEN: i32 = 14;
    matches!(code & 0xff, BUSY | LOCKED | IOERR | FULL | CANTOPEN)
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Db(Box::new(error))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        match &error {
            rusqlite::Error::SqliteFailure(e, _) if sqlite_unavailable(e.extended_code) => {
                StoreError::Unavailable(Box::new(error))
            }
            _ => StoreError::Db(Box::new(error)),
        }
    }
}
