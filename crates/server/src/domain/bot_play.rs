//! The table's bots: they move when it is their seat's turn, with their memory of the turn
//! kept between decisions.

use super::hub::*;

/// How long a bot waits after its first failure (doubling after each next one).
pub(super) const BOT_RETRY_FIRST: Duration = Duration::from_millis(50);

/// The longest a bot waits between two tries.
pub(super) const BOT_RETRY_MAX: Duration = Duration::from_secs(2);

impl Hub {
    /// Starts the bot driver of `table` if a bot is due and its driver is not running
    /// (a cheap check for every load and view of a table).
    pub(super) fn kick_if_due(self: &Arc<Self>, table: &Arc<Table>) {
        let due = match table.live.try_lock() {
            Ok(live) => {
                !live.bot_running
                    && !live.abandoned
                    && !table.is_paused()
                    && live
                        .session
                        .to_act()
                        .is_some_and(|seat| table.bot_spec(&live, seat).is_some())
            }
            // Someone holds the table: whoever it is kicks the bots when done.
            Err(_) => false,
        };
        if due {
            self.kick_bots(table);
        }
    }

    /// Starts the bot driver of `table` if a bot is to act and none is running.
    pub(super) fn kick_bots(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move { hub.drive_bots(table).await });
    }

    pub(super) async fn drive_bots(self: Arc<Self>, table: Arc<Table>) {
        {
            let mut live = table.live.lock().await;
            if live.bot_running {
                return;
            }
            live.bot_running = true;
        }
        let mut failures = 0u32;
        loop {
            let job = {
                let mut live = table.live.lock().await;
                let job = live
                    .session
                    .to_act()
                    .filter(|_| !live.abandoned && !table.is_paused())
                    .and_then(|seat| {
                        table
                            .bot_spec(&live, seat)
                            .map(|spec| (seat, spec, live.version()))
                    });
                match job {
                    Some((seat, spec, version)) => (
                        seat,
                        spec,
                        version,
                        live.session.state().clone_box(),
                        live.seats
                            .get(seat)
                            .map(|s| s.bot_memory.clone())
                            .unwrap_or_default(),
                    ),
                    None => {
                        live.bot_running = false;
                        return;
                    }
                }
            };
            let (seat, spec, version, state, memory) = job;
            let game = table.row.game.clone();
            let seed = bot_seed(&table.row, seat, version);
            let limits = self.limits.clone();
            let choice = tokio::task::spawn_blocking(move || {
                let spec = limits.clamp_bot(spec.parse().ok()?);
                let mut bot = catalog::bot(&game, &spec, seed).ok()?;
                bot.remember(memory);
                let mv = Move::Game(bot.choose(state.as_ref())?);
                Some((mv, bot.memory()))
            })
            .await;
            let outcome = match choice {
                Ok(Some((mv, memory))) => {
                    let played = self.play(&table, seat, &mv, version, By::Bot).await;
                    if played.is_ok() {
                        if let Some(m) = table
                            .live
                            .lock()
                            .await
                            .seats
                            .get_mut(seat)
                            .map(|s| &mut s.bot_memory)
                        {
                            *m = memory;
                        }
                    }
                    played.map(|_| ())
                }
                Ok(None) => Err(TableError::internal(format!(
                    "table {}: the bot of seat {seat} chose nothing",
                    table.row.id
                ))),
                Err(e) => Err(TableError::internal(e)),
            };
            match outcome {
                Ok(()) => failures = 0,
                Err(TableError::Refused(Refusal::StaleVersion, _)) => {}
                Err(e) => {
                    // A bot never gives up: the store may be back in a moment. It waits
                    // longer after each failure, up to BOT_RETRY_MAX.
                    failures = failures.saturating_add(1);
                    let wait = BOT_RETRY_FIRST
                        .saturating_mul(1 << failures.min(16))
                        .min(BOT_RETRY_MAX);
                    if matches!(e, TableError::Unavailable { .. }) {
                        // The outage is logged once, where the store's calls are counted.
                        tracing::debug!(
                            "table {} bot seat {seat}: {e} (retrying in {wait:?})",
                            table.row.id
                        );
                    } else {
                        tracing::warn!(
                            "table {} bot seat {seat}: {e} (failure {failures}; retrying in {wait:?})",
                            table.row.id
                        );
                    }
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }
}
