//! The accounts' SQL (docs/accounts.md), the same on both databases: `accounts_store!`
//! implements the domain's [`crate::domain::Accounts`] for each database's store, through
//! its sqlx pool.

pub(super) const ACCOUNT_COLUMNS: &str = "id, name, skeleton, password, created";

/// An account from the columns [`ACCOUNT_COLUMNS`] names, from `at` on.
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
                let sql = format!(
                    "SELECT {} FROM accounts WHERE skeleton = $1",
                    super::accounts::ACCOUNT_COLUMNS
                );
                let row = sqlx::query(&sql).bind(skeleton).fetch_optional(&self.pool).await?;
                Ok(match row {
                    Some(row) => Some(super::accounts::account_at!(row, 0)),
                    None => None,
                })
            }

            async fn account(
                &self,
                id: &str,
            ) -> Result<Option<crate::domain::AccountRow>, StoreError> {
                let sql = format!(
                    "SELECT {} FROM accounts WHERE id = $1",
                    super::accounts::ACCOUNT_COLUMNS
                );
                let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
                Ok(match row {
                    Some(row) => Some(super::accounts::account_at!(row, 0)),
                    None => None,
                })
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
        }
    };
}

pub(super) use account_at;
pub(super) use accounts_store;
pub(super) use rating_at;
