//! Clocks and presence: who is at the table, a seat whose time ran out or whose player
//! left, and pausing a table nobody is at.

use super::*;

impl Hub {
    /// The player of `seat` was heard from (a request or a socket with its token): a bot
    /// playing for it hands the seat back, and the log says so.
    ///
    /// # Errors
    /// The store fails to keep the note.
    pub async fn seen(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) -> Result<(), TableError> {
        let back = {
            let mut live = table.live.lock().await;
            if let Some(at) = live.seen.get_mut(seat) {
                *at = crate::store::now_ms();
            }
            live.away.get(seat) == Some(&true)
        };
        self.set_paused(table, false).await;
        if back {
            let name = table.display_names()[seat].clone();
            self.add_line(
                table,
                Some(seat),
                "table".into(),
                format!("{name} is back and plays again"),
                ChatKind::Back,
            )
            .await?;
            let mut live = table.live.lock().await;
            live.away[seat] = false;
            drop(live);
            table.touched().await;
        }
        Ok(())
    }

    /// A spectator was heard from: a socket opened (`Some(true)`) or closed
    /// (`Some(false)`), or a call (`None`). A paused table goes on.
    pub async fn watch(self: &Arc<Self>, table: &Arc<Table>, socket: Option<bool>) {
        {
            let mut live = table.live.lock().await;
            match socket {
                Some(true) => live.watchers += 1,
                Some(false) => live.watchers = live.watchers.saturating_sub(1),
                None => {}
            }
            live.watched = crate::store::now_ms();
        }
        self.set_paused(table, false).await;
    }

    /// Pauses `table` or lets it go on; a change is told to the pages, and a table that
    /// goes on starts its bots again.
    pub(super) async fn set_paused(self: &Arc<Self>, table: &Arc<Table>, paused: bool) {
        if table.paused.swap(paused, Ordering::Relaxed) != paused {
            table.touched().await;
            if !paused {
                self.kick_if_due(table);
            }
        }
    }

    /// A socket of `seat` opened (`true`) or closed.
    pub async fn socket(&self, table: &Table, seat: Seat, open: bool) {
        let mut live = table.live.lock().await;
        if let Some(count) = live.sockets.get_mut(seat) {
            *count = if open {
                *count + 1
            } else {
                count.saturating_sub(1)
            };
        }
        if let Some(at) = live.seen.get_mut(seat) {
            *at = crate::store::now_ms();
        }
    }

    /// Applies `table`'s clock and presence rules now: a seat to act whose time ran out
    /// (or, without a clock, whose player has been away its whole allowance) is taken by
    /// the table's bot, or resigns where the table says so.
    pub async fn check_time(self: &Arc<Self>, table: &Arc<Table>) {
        let now = crate::store::now_ms();
        let rules = &table.row.rules;
        let (due, paused) = {
            let live = table.live.lock().await;
            let paused = table.nobody_present(&live, now);
            let seat = live.session.to_act();
            let due = match seat {
                _ if live.abandoned || !table.open_seats().is_empty() => None,
                Some(seat) if table.bot_spec(&live, seat).is_none() => {
                    let timed_out = live
                        .clocks
                        .as_ref()
                        .is_some_and(|c| now >= c.deadline(seat));
                    let away_ms =
                        i64::try_from(rules.away_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
                    let left = rules.clock.is_none()
                        && rules.away_seconds > 0
                        && live.sockets[seat] == 0
                        && now - live.seen[seat].max(live.moved) >= away_ms;
                    (timed_out || left).then_some((seat, timed_out))
                }
                _ => None,
            };
            (due, paused)
        };
        self.set_paused(table, paused).await;
        let Some((seat, timed_out)) = due else {
            return;
        };
        let name = table.display_names()[seat].clone();
        if timed_out && rules.on_timeout == OnTimeout::Resign {
            if let Err(e) = self.resign_for_time(table, seat).await {
                tracing::warn!("table {}: seat {seat} ran out of time: {e}", table.row.id);
            }
            return;
        }
        if paused {
            // Nobody is at the table: handing the seat to a bot waits until someone is.
            return;
        }
        let why = if timed_out {
            "the time ran out"
        } else {
            "the player left"
        };
        let text = format!(
            "a bot ({}) plays for {name}: {why}; coming back with the seat's link takes the seat back",
            rules.takeover
        );
        match self
            .add_line(table, Some(seat), "table".into(), text, ChatKind::TookOver)
            .await
        {
            Ok(_) => {
                let mut live = table.live.lock().await;
                live.away[seat] = true;
                drop(live);
                table.touched().await;
                self.kick_bots(table);
            }
            Err(e) => tracing::warn!("table {}: taking seat {seat} over: {e}", table.row.id),
        }
    }

    /// Runs [`Hub::check_time`] over the tables in memory every [`CLOCK_TICK`].
    pub(super) fn spawn_clocks(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(CLOCK_TICK).await;
                let Some(hub) = weak.upgrade() else { return };
                // Every table: one without a clock or take-over still pauses.
                for table in hub.all_cached() {
                    hub.check_time(&table).await;
                }
            }
        });
    }

    /// `seat` ran out of time at a table whose rule is to resign then.
    pub(super) async fn resign_for_time(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(), TableError> {
        let version = table.live.lock().await.version();
        self.play(
            table,
            seat,
            &TableMove::Resign(seat).to_string(),
            version,
            By::Player,
        )
        .await
        .map(|_| ())
    }
}
