//! The tournaments' SQL (docs/accounts.md, Tournaments), the same on both databases:
//! `tournaments_store!` implements the domain's [`crate::domain::Tournaments`] for each
//! database's store, through its sqlx pool.

/// The columns of a tournament, in the order [`tournament_at`] reads them.
macro_rules! tournament_columns {
    () => {
        "id, name, game, format, rounds, table_size, max_players, settings, creator_id, \
         status, created, entrants"
    };
}

/// A tournament from the columns of [`tournament_columns`].
macro_rules! tournament_at {
    ($row:expr) => {
        crate::domain::TournamentRow {
            id: $row.try_get(0)?,
            name: $row.try_get(1)?,
            game: $row.try_get(2)?,
            format: $row.try_get(3)?,
            rounds: super::tournaments::small($row.try_get(4)?, "rounds")?,
            table_size: super::tournaments::small($row.try_get(5)?, "table_size")?,
            max_players: super::tournaments::small($row.try_get(6)?, "max_players")?,
            settings: $row.try_get(7)?,
            creator: $row.try_get(8)?,
            status: $row.try_get(9)?,
            created: $row.try_get(10)?,
            players: super::tournaments::small($row.try_get(11)?, "entrants")?,
        }
    };
}

/// A small count read from the database.
pub(super) fn small(n: i64, what: &str) -> Result<u32, crate::domain::StoreError> {
    u32::try_from(n).map_err(|e| crate::domain::StoreError::Corrupt(format!("{what} {n}: {e}")))
}

/// Implements [`crate::domain::Tournaments`] for `$store` (which has a sqlx `pool`).
macro_rules! tournaments_store {
    ($store:ty) => {
        #[async_trait]
        impl crate::domain::Tournaments for $store {
            async fn create_tournament(
                &self,
                t: &crate::domain::TournamentRow,
            ) -> Result<(), StoreError> {
                sqlx::query(concat!(
                    "INSERT INTO tournaments (",
                    super::tournaments::tournament_columns!(),
                    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                ))
                .bind(&t.id)
                .bind(&t.name)
                .bind(&t.game)
                .bind(&t.format)
                .bind(i64::from(t.rounds))
                .bind(i64::from(t.table_size))
                .bind(i64::from(t.max_players))
                .bind(&t.settings)
                .bind(&t.creator)
                .bind(&t.status)
                .bind(t.created)
                .bind(i64::from(t.players))
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn tournaments(
                &self,
                limit: u32,
            ) -> Result<Vec<crate::domain::TournamentRow>, StoreError> {
                let rows = sqlx::query(concat!(
                    "SELECT ",
                    super::tournaments::tournament_columns!(),
                    " FROM tournaments ORDER BY created DESC, id DESC LIMIT $1"
                ))
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|row| Ok(super::tournaments::tournament_at!(row)))
                    .collect()
            }

            async fn tournament(
                &self,
                id: &str,
            ) -> Result<Option<crate::domain::TournamentData>, StoreError> {
                let Some(row) = sqlx::query(concat!(
                    "SELECT ",
                    super::tournaments::tournament_columns!(),
                    " FROM tournaments WHERE id = $1"
                ))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
                else {
                    return Ok(None);
                };
                let row = super::tournaments::tournament_at!(row);
                let entrants = sqlx::query(
                    "SELECT p.account_id, a.name, p.joined FROM tournament_players p \
                     JOIN accounts a ON a.id = p.account_id WHERE p.tournament_id = $1 \
                     ORDER BY p.joined, p.account_id",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| {
                    Ok(crate::domain::EntrantRow {
                        account: r.try_get(0)?,
                        name: r.try_get(1)?,
                        joined: r.try_get(2)?,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
                let rounds = sqlx::query(
                    "SELECT round, pairing, created FROM tournament_rounds \
                     WHERE tournament_id = $1 ORDER BY round",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| {
                    Ok(crate::domain::RoundRow {
                        round: super::tournaments::small(r.try_get(0)?, "round")?,
                        pairing: r.try_get(1)?,
                        created: r.try_get(2)?,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
                let boards = sqlx::query(
                    "SELECT round, board, game_id, result FROM tournament_tables \
                     WHERE tournament_id = $1 ORDER BY round, board",
                )
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| {
                    Ok(crate::domain::BoardRow {
                        round: super::tournaments::small(r.try_get(0)?, "round")?,
                        board: super::tournaments::small(r.try_get(1)?, "board")?,
                        table: r.try_get(2)?,
                        result: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
                Ok(Some(crate::domain::TournamentData {
                    row,
                    entrants,
                    rounds,
                    boards,
                }))
            }

            async fn join_tournament(
                &self,
                id: &str,
                account: &str,
                joined: i64,
                max: u32,
            ) -> Result<bool, StoreError> {
                let mut tx = self.pool.begin().await?;
                // The count's row is written first: a start on another connection waits
                // for it, and a join after a start finds the tournament running.
                let room = sqlx::query(
                    "UPDATE tournaments SET entrants = entrants + 1 \
                     WHERE id = $1 AND status = 'open' AND entrants < $2",
                )
                .bind(id)
                .bind(i64::from(max))
                .execute(&mut *tx)
                .await?;
                if room.rows_affected() != 1 {
                    return Ok(false);
                }
                // The order of joining is the order of the `joined` times: two joins in
                // one millisecond are told apart by the later one's time a step after the
                // last (the count's row above holds the other joins back meanwhile).
                let (last,): (Option<i64>,) = sqlx::query_as(
                    "SELECT MAX(joined) FROM tournament_players WHERE tournament_id = $1",
                )
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                let joined = last.map_or(joined, |last| joined.max(last + 1));
                let added = sqlx::query(
                    "INSERT INTO tournament_players (tournament_id, account_id, joined) \
                     VALUES ($1, $2, $3) ON CONFLICT (tournament_id, account_id) DO NOTHING",
                )
                .bind(id)
                .bind(account)
                .bind(joined)
                .execute(&mut *tx)
                .await?;
                if added.rows_affected() != 1 {
                    return Ok(false);
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn leave_tournament(&self, id: &str, account: &str) -> Result<bool, StoreError> {
                let mut tx = self.pool.begin().await?;
                let open = sqlx::query(
                    "UPDATE tournaments SET entrants = entrants - 1 \
                     WHERE id = $1 AND status = 'open'",
                )
                .bind(id)
                .execute(&mut *tx)
                .await?;
                if open.rows_affected() != 1 {
                    return Ok(false);
                }
                let gone = sqlx::query(
                    "DELETE FROM tournament_players WHERE tournament_id = $1 AND account_id = $2",
                )
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
                if gone.rows_affected() != 1 {
                    return Ok(false);
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn set_tournament_status(
                &self,
                id: &str,
                from: &str,
                to: &str,
                rounds: u32,
            ) -> Result<bool, StoreError> {
                let done = sqlx::query(
                    "UPDATE tournaments SET status = $1, rounds = $2 WHERE id = $3 AND status = $4",
                )
                .bind(to)
                .bind(i64::from(rounds))
                .bind(id)
                .bind(from)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn add_round(
                &self,
                id: &str,
                round: &crate::domain::RoundRow,
            ) -> Result<bool, StoreError> {
                let done = sqlx::query(
                    "INSERT INTO tournament_rounds (tournament_id, round, pairing, created) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, round) DO NOTHING",
                )
                .bind(id)
                .bind(i64::from(round.round))
                .bind(&round.pairing)
                .bind(round.created)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn add_board(
                &self,
                id: &str,
                board: &crate::domain::BoardRow,
            ) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO tournament_tables (tournament_id, round, board, game_id, result) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(id)
                .bind(i64::from(board.round))
                .bind(i64::from(board.board))
                .bind(&board.table)
                .bind(&board.result)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn set_board_result(&self, table: &str, result: &str) -> Result<(), StoreError> {
                sqlx::query(
                    "UPDATE tournament_tables SET result = $1 WHERE game_id = $2 AND result IS NULL",
                )
                .bind(result)
                .bind(table)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn tournament_of(&self, table: &str) -> Result<Option<String>, StoreError> {
                let row = sqlx::query(
                    "SELECT tournament_id FROM tournament_tables WHERE game_id = $1",
                )
                .bind(table)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(row) => Some(row.try_get(0)?),
                    None => None,
                })
            }
        }
    };
}

pub(super) use {tournament_at, tournament_columns, tournaments_store};
