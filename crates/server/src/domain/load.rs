//! A table brought into memory: read from the store, brought up to its game's current
//! format, replayed, and read again when another server changed it.

use super::clock::Clocks;
use super::hub::{Hub, Live, SeatState, Seating, Table, TableError, CHAT_KEPT, RECENT};
use super::store::{ActionRow, ChatKind, ChatRow, GameRow, Status};
use engine::{GameRecord, Move, Session};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as StdMutex};
use tokio::sync::{broadcast, Mutex};

impl Hub {
    /// The table with this id, loaded from the store and replayed if not in memory.
    ///
    /// # Errors
    /// `game/not_found`, or an internal error when the store fails or the log does not
    /// replay.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, TableError> {
        if let Some(table) = self.cached(id) {
            self.kick_if_due(&table);
            return Ok(table);
        }
        if let Some(table) = self.ended(id) {
            return Ok(table);
        }
        if id.len() > 64 {
            return Err(TableError::table_not_found(id));
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(TableError::store)?
            .ok_or_else(|| TableError::table_not_found(id))?;
        let rows = self.store.actions(id, 0).await.map_err(TableError::store)?;
        let (row, rows) = self.upgraded(row, rows).await?;
        let chat = self.store.chat(id, 0).await.map_err(TableError::store)?;
        let table = self.build(row, rows, chat).await?;
        if table.row.status == Status::Finished {
            // A rated table that finished as a server stopped may not have been rated:
            // rating is once per table, so trying again is safe.
            self.rate_later(&table);
        }
        if self.notified {
            // A row stored between the read above and the table's entry among the live
            // ones was told while no table could take the notice: read it now. (On
            // PostgreSQL the last commit of a server killed with a move in flight may
            // land after the next server has read the table.)
            let mut live = table.live.lock().await;
            if matches!(live.status(), Status::Open | Status::Running) {
                self.catch_up(&table, &mut live).await?;
            }
        }
        Ok(table)
    }

    /// A table stored in an older format of its game brought up to the current one, by the
    /// game's own step (`DynGame::upgrade_record`), and written back over the stored one;
    /// a table in the current format as it is. Each action kept keeps its seat and time.
    /// When the table moves on meanwhile (another server), it is read again.
    ///
    /// # Errors
    /// An internal error when the store fails, or the game cannot upgrade the table.
    async fn upgraded(
        &self,
        mut row: GameRow,
        mut rows: Vec<ActionRow>,
    ) -> Result<(GameRow, Vec<ActionRow>), TableError> {
        let game = catalog::game(&row.game).map_err(TableError::internal)?;
        for _ in 0..3 {
            if row.format == game.format() {
                return Ok((row, rows));
            }
            let id = row.id.clone();
            let record = GameRecord {
                game: row.game.clone(),
                config: row.config.clone(),
                seed: row.seed,
                actions: rows.iter().map(|a| a.action.clone()).collect(),
                format: row.format,
            };
            let (record, sources) = game
                .upgrade_record(&record)
                .map_err(|e| TableError::internal(format!("table {id}: {e}")))?;
            let actions: Vec<ActionRow> = (record.actions.into_iter().zip(sources))
                .enumerate()
                .filter_map(|(seq, (action, from))| {
                    let was = rows.get(from)?;
                    Some(ActionRow {
                        seq: seq as u64,
                        seat: was.seat,
                        action,
                        at: was.at,
                    })
                })
                .collect();
            let upgrade = super::store::Upgrade {
                game: id.clone(),
                from: row.format,
                stored: rows.len() as u64,
                format: record.format,
                config: record.config,
                actions,
            };
            if self
                .store
                .upgrade(&upgrade)
                .await
                .map_err(TableError::store)?
            {
                tracing::info!(
                    "table {id} brought up from format {} to {} of {}",
                    upgrade.from,
                    upgrade.format,
                    row.game
                );
                row.format = upgrade.format;
                row.config = upgrade.config;
                return Ok((row, upgrade.actions));
            }
            row = (self.store.game(&id).await.map_err(TableError::store)?)
                .ok_or_else(|| TableError::table_not_found(&id))?;
            rows = (self.store.actions(&id, 0).await).map_err(TableError::store)?;
        }
        Err(TableError::internal(format!(
            "table {}: it kept changing while it was brought up to the current format",
            row.id
        )))
    }

    /// The table of `row` in memory with its stored actions and chat, among the live
    /// tables (or the ended ones), its bots started.
    pub(super) async fn build(
        self: &Arc<Self>,
        row: GameRow,
        rows: Vec<ActionRow>,
        chat: Vec<ChatRow>,
    ) -> Result<Arc<Table>, TableError> {
        let id = row.id.as_str();
        let game = catalog::game(&row.game).map_err(TableError::internal)?;
        let state = game
            .new_state(&row.config, row.seed)
            .map_err(|e| TableError::internal(format!("table {id}: {e}")))?;
        let mut actions = Vec::with_capacity(rows.len());
        let mut recent = VecDeque::with_capacity(RECENT);
        let moved = rows.last().map_or(row.created, |a| a.at);
        let keep_from = rows.len().saturating_sub(RECENT);
        let n = row.seats.len();
        let started = (row.seats.iter().filter_map(|s| s.joined)).fold(row.created, i64::max);
        let mut clocks = row.rules.clock.map(|c| Clocks::new(c, n, started));
        let mut session = Session::new(state);
        for (index, action) in rows.into_iter().enumerate() {
            if index >= keep_from {
                recent.push_back(session.state().clone_box());
            }
            if action.seq != index as u64 {
                return Err(TableError::internal(format!(
                    "table {id}: action rows skip from {index} to {}",
                    action.seq
                )));
            }
            // The stored notation, parsed once here: the table carries the move.
            let mv = (session.parse(&action.action))
                .and_then(|mv| session.play(&mv).map(|()| mv))
                .map_err(|e| {
                    TableError::internal(format!("table {id}: action {index} does not replay: {e}"))
                })?;
            // As `Live::advanced`: taking back or resigning starts no new turn.
            if let (Some(clocks), Move::Game(_)) = (&mut clocks, &mv) {
                clocks.moved(action.seat, action.at);
            }
            actions.push(mv);
        }
        // Who a bot plays for: the table's last note on each seat says.
        let mut away = vec![false; n];
        for line in &chat {
            if let Some(seat) = line.seat.filter(|&s| s < n) {
                match line.kind {
                    ChatKind::TookOver => away[seat] = true,
                    ChatKind::Back => away[seat] = false,
                    ChatKind::Chat | ChatKind::Hint => {}
                }
            }
        }
        let chat: VecDeque<ChatRow> = chat.into_iter().rev().take(CHAT_KEPT).rev().collect();
        let (changed, _) = broadcast::channel(64);
        let (chat_tx, _) = broadcast::channel(64);
        let abandoned = row.status == Status::Abandoned;
        let table = Arc::new(Table {
            seats: StdMutex::new(Seating::new(row.seats.clone())),
            chat: StdMutex::new(chat),
            chat_tx,
            rematch: StdMutex::new(row.rematch.clone()),
            paused: AtomicBool::new(false),
            row,
            live: Mutex::new(Live {
                session,
                actions,
                bot_running: false,
                abandoned,
                moved,
                recent,
                pushes: Vec::new(),
                pushes_version: 0,
                touches: 0,
                clocks,
                seats: (away.into_iter())
                    .map(|away| SeatState {
                        away,
                        seen: moved,
                        sockets: 0,
                        bot_memory: bots::TurnMemory::default(),
                    })
                    .collect(),
                watchers: 0,
                watched: moved,
            }),
            changed,
        });
        if matches!(
            table.live.lock().await.status(),
            Status::Finished | Status::Abandoned
        ) {
            // Finished and abandoned games change no more: they go to the bounded cache
            // of ended tables, not among the live ones.
            self.keep_ended(table.clone());
            return Ok(table);
        }
        let table = {
            let mut tables = self
                .tables
                .lock()
                .map_err(|_| TableError::internal("table cache poisoned"))?;
            tables
                .entry(table.row.id.clone())
                .or_insert_with(|| table.clone())
                .clone()
        };
        self.wake(&table);
        self.kick_bots(&table);
        Ok(table)
    }

    /// Reads `table`'s seats, rematch and chat again from the store (another server may
    /// have changed them).
    ///
    /// # Errors
    /// The store fails.
    pub async fn refresh(&self, table: &Arc<Table>) -> Result<(), TableError> {
        let row = self
            .store
            .game(&table.row.id)
            .await
            .map_err(TableError::store)?
            .ok_or_else(|| TableError::table_not_found(&table.row.id))?;
        let mut touched = false;
        if *table.seats() != row.seats {
            table.set_seats(row.seats);
            touched = true;
        }
        if row.rematch.is_some() && table.rematch() != row.rematch {
            if let Ok(mut r) = table.rematch.lock() {
                *r = row.rematch;
            }
            touched = true;
        }
        let lines = self
            .store
            .chat(&table.row.id, table.next_chat_seq())
            .await
            .map_err(TableError::store)?;
        for line in lines {
            table.keep_chat(line);
        }
        if touched {
            table.touched().await;
            self.wake(table);
        }
        Ok(())
    }
}
