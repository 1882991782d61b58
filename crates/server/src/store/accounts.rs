//! The accounts' SQL (docs/accounts.md), the same on both databases: `accounts_store!`
//! implements the domain's [`crate::domain::Accounts`] for each database's store, through
//! its sqlx pool.

/// The query of one account by the column `$key` (its id or its name's skeleton): the
/// columns [`account_at`] reads, as one static text.
macro_rules! account_by {
    ($key:literal) => {
        concat!(
            "SELECT id, name, skeleton, password, created FROM accounts WHERE ",
            $key,
            " = $1"
        )
    };
}

/// An account from the columns `id, name, skeleton, password, created`, from `at` on.
macro_rules! account_at {
    ($row:expr, $at:expr) => {
        crate::domain::AccountRow {
            id: $row.try_get($at)?,
            name: $row.try_get($at + 1)?,
            skeleton: $row.try_get($at + 2)?,
            password: $row.try_get($at + 3)?,
            created: $row.try_get($at + 4)?,
        }
    };
}

/// A count read from the database, which is never negative.
pub(super) fn count(n: i64, what: &str) -> Result<u64, crate::domain::StoreError> {
    u64::try_from(n).map_err(|e| crate::domain::StoreError::Corrupt(format!("{what} {n}: {e}")))
}

/// A rating row from `account_id, game, mu, sigma, games, at` starting at column `$at`.
macro_rules! rating_at {
    ($row:expr, $at:expr) => {
        crate::domain::RatingRow {
            account: $row.try_get($at)?,
            game: $row.try_get($at + 1)?,
            mu: $row.try_get($at + 2)?,
            sigma: $row.try_get($at + 3)?,
            games: super::accounts::count($row.try_get($at + 4)?, "games")?,
            at: $row.try_get($at + 5)?,
        }
    };
}

/// Implements [`crate::domain::Accounts`] for `$store` (which has a sqlx `pool`).
macro_rules! accounts_store {
    ($store:ty) => {
        impl $store {
            /// The account the query `sql` ([`account_by`]) finds for `key`.
            async fn account_where(
                &self,
                sql: &'static str,
                key: &str,
            ) -> Result<Option<crate::domain::AccountRow>, StoreError> {
                let row = sqlx::query(sql).bind(key).fetch_optional(&self.pool).await?;
                Ok(match row {
                    Some(row) => Some(super::accounts::account_at!(row, 0)),
                    None => None,
                })
            }
        }

        #[async_trait]
        impl crate::domain::Accounts for $store {
            async fn create_account(
                &self,
                a: &crate::domain::AccountRow,
            ) -> Result<bool, StoreError> {
                let done = sqlx::query(
                    "INSERT INTO accounts (id, name, skeleton, password, created) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (skeleton) DO NOTHING",
                )
                .bind(&a.id)
                .bind(&a.name)
                .bind(&a.skeleton)
                .bind(&a.password)
                .bind(a.created)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn account_named(
                &self,
                skeleton: &str,
            ) -> Result<Option<crate::domain::AccountRow>, StoreError> {
                (self.account_where(super::accounts::account_by!("skeleton"), skeleton)).await
            }

            async fn account(
                &self,
                id: &str,
            ) -> Result<Option<crate::domain::AccountRow>, StoreError> {
                self.account_where(super::accounts::account_by!("id"), id).await
            }

            async fn set_password(
                &self,
                account: &str,
                password: &str,
                keep: &str,
            ) -> Result<(), StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
                    .bind(password)
                    .bind(account)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id_sha256 <> $2")
                    .bind(account)
                    .bind(keep)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn add_session(
                &self,
                session: &crate::domain::SessionRow,
            ) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO sessions (id_sha256, account_id, created) VALUES ($1, $2, $3)",
                )
                .bind(&session.id_sha256)
                .bind(&session.account)
                .bind(session.created)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn session(
                &self,
                id_sha256: &str,
            ) -> Result<Option<(crate::domain::SessionRow, crate::domain::AccountRow)>, StoreError>
            {
                let row = sqlx::query(
                    "SELECT s.id_sha256, s.account_id, s.created, \
                     a.id, a.name, a.skeleton, a.password, a.created \
                     FROM sessions s JOIN accounts a ON a.id = s.account_id \
                     WHERE s.id_sha256 = $1",
                )
                .bind(id_sha256)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(row) => Some((
                        crate::domain::SessionRow {
                            id_sha256: row.try_get(0)?,
                            account: row.try_get(1)?,
                            created: row.try_get(2)?,
                        },
                        super::accounts::account_at!(row, 3),
                    )),
                    None => None,
                })
            }

            async fn end_session(&self, id_sha256: &str) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM sessions WHERE id_sha256 = $1")
                    .bind(id_sha256)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn end_sessions(&self, account: &str) -> Result<u64, StoreError> {
                let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                    .bind(account)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected())
            }

            async fn add_owners(
                &self,
                game: &str,
                owners: &[(engine::Seat, String)],
            ) -> Result<(), StoreError> {
                let mut tx = self.pool.begin().await?;
                for (seat, account) in owners {
                    sqlx::query(
                        "INSERT INTO seat_owners (game_id, seat, account_id) VALUES ($1, $2, $3) \
                         ON CONFLICT (game_id, seat) DO UPDATE SET account_id = excluded.account_id",
                    )
                    .bind(game)
                    .bind(*seat as i64)
                    .bind(account)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn owned_seats(
                &self,
                account: &str,
                limit: u32,
            ) -> Result<Vec<crate::domain::OwnedSeat>, StoreError> {
                let rows = sqlx::query(
                    "SELECT games.id, seat_owners.seat FROM seat_owners \
                     JOIN games ON games.id = seat_owners.game_id \
                     WHERE seat_owners.account_id = $1 \
                     ORDER BY games.created DESC, games.id DESC LIMIT $2",
                )
                .bind(account)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let seat: i64 = row.try_get(1)?;
                        Ok(crate::domain::OwnedSeat {
                            table: row.try_get(0)?,
                            seat: usize::try_from(seat)
                                .map_err(|e| StoreError::Corrupt(format!("seat {seat}: {e}")))?,
                        })
                    })
                    .collect()
            }

            async fn ratings(
                &self,
                account: &str,
            ) -> Result<Vec<crate::domain::RatingRow>, StoreError> {
                let rows = sqlx::query(
                    "SELECT account_id, game, mu, sigma, games, at FROM ratings \
                     WHERE account_id = $1 ORDER BY game",
                )
                .bind(account)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| Ok(super::accounts::rating_at!(row, 0)))
                    .collect()
            }

            async fn leaderboard(
                &self,
                game: &str,
                limit: u32,
            ) -> Result<Vec<(String, crate::domain::RatingRow)>, StoreError> {
                let rows = sqlx::query(
                    "SELECT a.name, r.account_id, r.game, r.mu, r.sigma, r.games, r.at \
                     FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE r.game = $1 \
                     ORDER BY r.mu - 3 * r.sigma DESC, a.name LIMIT $2",
                )
                .bind(game)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| Ok((row.try_get(0)?, super::accounts::rating_at!(row, 1))))
                    .collect()
            }

            async fn rate(&self, rated: &crate::domain::RatedGame) -> Result<bool, StoreError> {
                let mut tx = self.pool.begin().await?;
                for s in &rated.seats {
                    let kept = sqlx::query(
                        "INSERT INTO rating_history (game_id, account_id, game, seat, place, \
                         mu_before, sigma_before, mu_after, sigma_after, at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                         ON CONFLICT (game_id, account_id) DO NOTHING",
                    )
                    .bind(&rated.game_id)
                    .bind(&s.account)
                    .bind(&rated.game)
                    .bind(s.seat as i64)
                    .bind(i64::from(s.place))
                    .bind(s.mu_before)
                    .bind(s.sigma_before)
                    .bind(s.mu_after)
                    .bind(s.sigma_after)
                    .bind(rated.at)
                    .execute(&mut *tx)
                    .await?;
                    if kept.rows_affected() != 1 {
                        return Ok(false);
                    }
                    let games = i64::try_from(s.games_before)
                        .map_err(|e| StoreError::Corrupt(format!("games: {e}")))?;
                    let moved = if games == 0 {
                        sqlx::query(
                            "INSERT INTO ratings (account_id, game, mu, sigma, games, at) \
                             VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (account_id, game) DO NOTHING",
                        )
                        .bind(&s.account)
                        .bind(&rated.game)
                        .bind(s.mu_after)
                        .bind(s.sigma_after)
                        .bind(rated.at)
                        .execute(&mut *tx)
                        .await?
                    } else {
                        sqlx::query(
                            "UPDATE ratings SET mu = $1, sigma = $2, games = games + 1, at = $3 \
                             WHERE account_id = $4 AND game = $5 AND games = $6",
                        )
                        .bind(s.mu_after)
                        .bind(s.sigma_after)
                        .bind(rated.at)
                        .bind(&s.account)
                        .bind(&rated.game)
                        .bind(games)
                        .execute(&mut *tx)
                        .await?
                    };
                    if moved.rows_affected() != 1 {
                        return Ok(false);
                    }
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn history(
                &self,
                account: &str,
                limit: u32,
            ) -> Result<Vec<crate::domain::HistoryRow>, StoreError> {
                let rows = sqlx::query(
                    "SELECT game_id, game, seat, place, mu_before, sigma_before, mu_after, \
                     sigma_after, at FROM rating_history WHERE account_id = $1 \
                     ORDER BY at DESC, game_id DESC LIMIT $2",
                )
                .bind(account)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let seat: i64 = row.try_get(2)?;
                        let place: i64 = row.try_get(3)?;
                        Ok(crate::domain::HistoryRow {
                            game_id: row.try_get(0)?,
                            game: row.try_get(1)?,
                            seat: usize::try_from(seat)
                                .map_err(|e| StoreError::Corrupt(format!("seat {seat}: {e}")))?,
                            place: u8::try_from(place)
                                .map_err(|e| StoreError::Corrupt(format!("place {place}: {e}")))?,
                            mu_before: row.try_get(4)?,
                            sigma_before: row.try_get(5)?,
                            mu_after: row.try_get(6)?,
                            sigma_after: row.try_get(7)?,
                            at: row.try_get(8)?,
                        })
                    })
                    .collect()
            }

            async fn contact(
                &self,
                account: &str,
            ) -> Result<Option<crate::domain::ContactRow>, StoreError> {
                let row = sqlx::query(
                    "SELECT account_id, email, email_verified, verify_token, webhook, \
                     webhook_secret, notifications, unsubscribe_token FROM contacts \
                     WHERE account_id = $1",
                )
                .bind(account)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(row) => {
                        let verified: i64 = row.try_get(2)?;
                        let on: i64 = row.try_get(6)?;
                        Some(crate::domain::ContactRow {
                            account: row.try_get(0)?,
                            email: row.try_get(1)?,
                            email_verified: verified != 0,
                            verify_token: row.try_get(3)?,
                            webhook: row.try_get(4)?,
                            webhook_secret: row.try_get(5)?,
                            notifications: on != 0,
                            unsubscribe_token: row.try_get(7)?,
                        })
                    }
                    None => None,
                })
            }

            async fn set_contact(
                &self,
                c: &crate::domain::ContactRow,
            ) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO contacts (account_id, email, email_verified, verify_token, \
                     webhook, webhook_secret, notifications, unsubscribe_token) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id) DO UPDATE \
                     SET email = excluded.email, email_verified = excluded.email_verified, \
                     verify_token = excluded.verify_token, webhook = excluded.webhook, \
                     webhook_secret = excluded.webhook_secret, \
                     notifications = excluded.notifications, \
                     unsubscribe_token = excluded.unsubscribe_token",
                )
                .bind(&c.account)
                .bind(&c.email)
                .bind(i64::from(c.email_verified))
                .bind(&c.verify_token)
                .bind(&c.webhook)
                .bind(&c.webhook_secret)
                .bind(i64::from(c.notifications))
                .bind(&c.unsubscribe_token)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn verify_email(&self, token: &str) -> Result<Option<String>, StoreError> {
                let row = sqlx::query(
                    "UPDATE contacts SET email_verified = 1, verify_token = NULL \
                     WHERE verify_token = $1 AND email IS NOT NULL RETURNING account_id",
                )
                .bind(token)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(row) => Some(row.try_get(0)?),
                    None => None,
                })
            }

            async fn unsubscribe(&self, token: &str) -> Result<Option<String>, StoreError> {
                let row = sqlx::query(
                    "UPDATE contacts SET notifications = 0 WHERE unsubscribe_token = $1 \
                     RETURNING account_id",
                )
                .bind(token)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(row) => Some(row.try_get(0)?),
                    None => None,
                })
            }

            async fn queue_notes(&self, notes: &[crate::domain::NoteRow]) -> Result<u64, StoreError> {
                let mut tx = self.pool.begin().await?;
                let mut added = 0;
                for n in notes {
                    let done = sqlx::query(
                        "INSERT INTO notifications (id, account_id, game_id, seq, channel, \
                         target, created, attempts, next_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $7) \
                         ON CONFLICT (game_id, seq, account_id, channel) DO NOTHING",
                    )
                    .bind(&n.id)
                    .bind(&n.account)
                    .bind(&n.game_id)
                    .bind(n.seq)
                    .bind(n.channel.as_str())
                    .bind(&n.target)
                    .bind(n.created)
                    .execute(&mut *tx)
                    .await?;
                    added += done.rows_affected();
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn claim_notes(
                &self,
                worker: &str,
                now: i64,
                until: i64,
                limit: u32,
            ) -> Result<Vec<crate::domain::NoteRow>, StoreError> {
                // The claim's condition is on the UPDATE itself, not only in the subquery:
                // PostgreSQL checks it again on a row another transaction just claimed,
                // and leaves that row out.
                let rows = sqlx::query(
                    "UPDATE notifications SET claimed_by = $1, claim_until = $2, \
                     attempts = attempts + 1 \
                     WHERE sent IS NULL AND next_at <= $3 \
                     AND (claimed_by IS NULL OR claim_until < $3) \
                     AND id IN (SELECT id FROM notifications WHERE sent IS NULL \
                     AND next_at <= $3 AND (claimed_by IS NULL OR claim_until < $3) \
                     ORDER BY next_at LIMIT $4) \
                     RETURNING id, account_id, game_id, seq, channel, target, created, attempts",
                )
                .bind(worker)
                .bind(until)
                .bind(now)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| {
                        let channel: String = row.try_get(4)?;
                        let attempts: i64 = row.try_get(7)?;
                        Ok(crate::domain::NoteRow {
                            id: row.try_get(0)?,
                            account: row.try_get(1)?,
                            game_id: row.try_get(2)?,
                            seq: row.try_get(3)?,
                            channel: crate::domain::Channel::parse(&channel).ok_or_else(|| {
                                StoreError::Corrupt(format!("notification channel `{channel}`"))
                            })?,
                            target: row.try_get(5)?,
                            created: row.try_get(6)?,
                            attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                        })
                    })
                    .collect()
            }

            async fn note_done(
                &self,
                id: &str,
                worker: &str,
                at: i64,
                retry_at: Option<i64>,
            ) -> Result<(), StoreError> {
                let query = match retry_at {
                    None => sqlx::query(
                        "UPDATE notifications SET sent = $3, claimed_by = NULL, \
                         claim_until = NULL WHERE id = $1 AND claimed_by = $2",
                    )
                    .bind(id)
                    .bind(worker)
                    .bind(at),
                    Some(next) => sqlx::query(
                        "UPDATE notifications SET next_at = $3, claimed_by = NULL, \
                         claim_until = NULL WHERE id = $1 AND claimed_by = $2",
                    )
                    .bind(id)
                    .bind(worker)
                    .bind(next),
                };
                query.execute(&self.pool).await?;
                Ok(())
            }
        }
    };
}

pub(super) use account_at;
pub(super) use account_by;
pub(super) use accounts_store;
pub(super) use rating_at;
