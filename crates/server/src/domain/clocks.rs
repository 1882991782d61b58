//! Clocks and presence: who is at the table, a seat whose time ran out or whose player
//! left, and pausing a table nobody is at.

use super::hub::*;

impl Table {
    /// The earliest time at which [`Hub::check_time`] could act at this table if nothing
    /// else happens (no one comes or goes, no move): `None` while nothing can come due.
    /// It mirrors `check_time`'s rules; anything that changes what they read wakes the
    /// table ([`Hub::wake`]).
    pub(super) fn next_check(&self, live: &Live, now: i64) -> Option<i64> {
        if live.abandoned || !self.open_seats().is_empty() {
            return None;
        }
        let seat = live.session.to_act()?;
        let mut next: Option<i64> = None;
        let mut at = |time: i64| next = Some(next.map_or(time, |n: i64| n.min(time)));
        let paused = self.is_paused();
        if !paused && live.watchers == 0 && live.seats.iter().all(|s| s.sockets == 0) {
            // Nobody present for the away time pauses the table.
            let last = live
                .seats
                .iter()
                .map(|s| s.seen)
                .fold(live.watched, i64::max);
            at(last.saturating_add(self.away_ms()));
        }
        if self.bot_spec(live, seat).is_none() {
            let rules = &self.row.rules;
            // A paused table waits for people, but a seat out of time still resigns.
            if let Some(clocks) = &live.clocks {
                if !paused || rules.on_timeout == OnTimeout::Resign {
                    at(clocks.deadline(seat));
                }
            }
            if !paused
                && rules.clock.is_none()
                && rules.away_seconds > 0
                && live.seats.get(seat).is_some_and(|s| s.sockets == 0)
            {
                let away =
                    i64::try_from(rules.away_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
                let since = live.seats.get(seat).map_or(0, |s| s.seen).max(live.moved);
                at(since.saturating_add(away));
            }
        }
        next.map(|time| time.max(now))
    }
}

impl Hub {
    /// `table` needs a look at the next tick: something changed that its clocks or its
    /// players' presence depend on.
    pub(super) fn wake(&self, table: &Table) {
        if let Ok(mut due) = self.due.lock() {
            due.set(&table.row.id, super::store::now_ms());
        }
    }

    /// How many live tables wait for a look of the clock ticker (for tests and
    /// measurements).
    pub fn clock_watch(&self) -> usize {
        self.due.lock().map_or(0, |due| due.len())
    }

    /// The player of `seat` was heard from (a request or a socket with its token): a bot
    /// playing for it hands the seat back, and the log says so.
    ///
    /// # Errors
    /// The store fails to keep the note.
    pub async fn seen(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) -> Result<(), TableError> {
        let back = {
            let mut live = table.live.lock().await;
            if let Some(at) = live.seats.get_mut(seat).map(|s| &mut s.seen) {
                *at = super::store::now_ms();
            }
            live.seats.get(seat).is_some_and(|s| s.away)
        };
        self.wake(table);
        self.set_paused(table, false).await;
        if back {
            self.add_note(table, seat, super::chat::Note::Back).await?;
            let mut live = table.live.lock().await;
            if let Some(state) = live.seats.get_mut(seat) {
                state.away = false;
            }
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
            live.watched = super::store::now_ms();
        }
        self.wake(table);
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
        if let Some(count) = live.seats.get_mut(seat).map(|s| &mut s.sockets) {
            *count = if open {
                *count + 1
            } else {
                count.saturating_sub(1)
            };
        }
        if let Some(at) = live.seats.get_mut(seat).map(|s| &mut s.seen) {
            *at = super::store::now_ms();
        }
        drop(live);
        self.wake(table);
    }

    /// Applies `table`'s clock and presence rules now: a seat to act whose time ran out
    /// (or, without a clock, whose player has been away its whole allowance) is taken by
    /// the table's bot, or resigns where the table says so.
    pub async fn check_time(self: &Arc<Self>, table: &Arc<Table>) {
        self.apply_time(table).await;
        let next = {
            let live = table.live.lock().await;
            table.next_check(&live, super::store::now_ms())
        };
        self.check_at(table, next);
    }

    /// `table` needs a look of the ticker at `next` (or earlier if it already did);
    /// `None`: nothing can come due there until something changes.
    pub(super) fn check_at(&self, table: &Table, next: Option<i64>) {
        if let (Some(at), Ok(mut due)) = (next, self.due.lock()) {
            due.set(&table.row.id, at);
        }
    }

    /// [`Hub::check_time`]'s rules, applied now.
    async fn apply_time(self: &Arc<Self>, table: &Arc<Table>) {
        let now = super::store::now_ms();
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
                        && live.seats[seat].sockets == 0
                        && now - live.seats[seat].seen.max(live.moved) >= away_ms;
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
        let note = super::chat::Note::TookOver {
            bot: &rules.takeover,
            timed_out,
        };
        match self.add_note(table, seat, note).await {
            Ok(_) => {
                let mut live = table.live.lock().await;
                live.seats[seat].away = true;
                drop(live);
                table.touched().await;
                self.kick_bots(table);
            }
            Err(e) => tracing::warn!("table {}: taking seat {seat} over: {e}", table.row.id),
        }
    }

    /// Runs [`Hub::check_time`] every [`CLOCK_TICK`] at the tables that are due.
    pub(super) fn spawn_clocks(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(CLOCK_TICK).await;
                let Some(hub) = weak.upgrade() else { return };
                let due = match hub.due.lock() {
                    Ok(mut due) => due.take(super::store::now_ms()),
                    Err(_) => return,
                };
                for id in due {
                    if let Some(table) = hub.cached(&id) {
                        hub.check_time(&table).await;
                    }
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
            &Move::Table(TableMove::Resign(seat)),
            version,
            By::Player,
        )
        .await
        .map(|_| ())
    }
}
