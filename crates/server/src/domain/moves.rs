//! Moves: checked, committed to the store before they are acknowledged, and told to every
//! page; moves other servers made, caught up.

use super::hub::*;

impl Hub {
    /// Counts an action sent with the token of `seat` at `table`.
    ///
    /// # Errors
    /// `429 request/rate_limited` over the per-token rate.
    pub fn count_action(&self, table: &Table, seat: Seat) -> Result<(), TableError> {
        if !self.limits.rate_limits {
            return Ok(());
        }
        self.actions
            .take(&(table.row.id.clone(), seat))
            .map_err(|wait| rate_limited(Rate::Actions, wait))
    }

    /// `text` read as a move at `table`, chosen on `version` (a table move or its game's
    /// action, not yet checked against the rules): the one place a client's move text
    /// is read. A table that takes no move on `version` says so first, whatever the text.
    ///
    /// # Errors
    /// Game over, abandoned, stale version or open seats (as [`Hub::play`]);
    /// `action/malformed` for text that is empty or too long, or no move of this game
    /// (the game says what a move looks like).
    pub async fn parse_move(
        &self,
        table: &Arc<Table>,
        text: &str,
        version: u64,
    ) -> Result<Move, TableError> {
        let mut live = table.live.lock().await;
        self.takes_moves(table, &mut live, version).await?;
        let text = text.trim();
        if text.is_empty() || text.len() > MAX_ACTION_LEN {
            return Err(TableError::new(
                Refusal::ActionMalformed,
                format!("an action is 1 to {MAX_ACTION_LEN} bytes of text"),
            ));
        }
        Ok(live.session.parse(text)?)
    }

    /// Whether `table` takes a move chosen on `version`: not over, not abandoned, at that
    /// version (another server's moves read first) and with every seat taken.
    ///
    /// # Errors
    /// `action/game_over`, `game/abandoned`, `action/stale_version`, `table/waiting`.
    async fn takes_moves(
        &self,
        table: &Arc<Table>,
        live: &mut Live,
        version: u64,
    ) -> Result<(), TableError> {
        if version > live.version() {
            // Another server may have moved on: read its rows first.
            self.catch_up(table, live).await?;
        }
        if live.session.outcome().is_some() {
            return Err(engine::EngineError::GameOver.into());
        }
        if live.abandoned {
            return Err(TableError::abandoned());
        }
        if version != live.version() {
            return Err(TableError::stale(version, live.version()));
        }
        if let Some(&open) = table.open_seats().first() {
            return Err(TableError::new(
                Refusal::Waiting,
                format!(
                    "the game starts once every seat is taken: seat {} is still open",
                    open + 1
                ),
            ));
        }
        Ok(())
    }

    /// Plays `mv` for `seat` on `table`, chosen on `version`: checks it on a copy of the
    /// session, commits its row, then makes it in memory and tells every client.
    ///
    /// # Errors
    /// Stale version, not this seat's turn, game over, illegal move, or the store fails
    /// (nothing changes then).
    pub async fn play(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        mv: &Move,
        version: u64,
        by: By,
    ) -> Result<Played, TableError> {
        let mut live = table.live.lock().await;
        self.takes_moves(table, &mut live, version).await?;
        let mut next = live.session.clone();
        match mv {
            Move::Table(table_move) => {
                if let TableMove::Resign(other) = *table_move {
                    if other != seat {
                        return Err(TableError::new(
                            Refusal::NotYours,
                            format!(
                                "a seat resigns only for itself: this token is seat {}'s",
                                seat + 1
                            ),
                        ));
                    }
                }
                match *table_move {
                    TableMove::Undo if table.row.rules.rated => {
                        return Err(TableError::new(
                            Refusal::Rated,
                            "this table is rated: a move cannot be taken back",
                        ))
                    }
                    TableMove::Undo => next.undo(seat)?,
                    TableMove::Resign(seat) => next.resign(seat)?,
                }
            }
            Move::Game(_) => {
                may_act(&live.session, seat, by)?;
                next.play(mv)?;
            }
        }
        let status = self
            .commit(table, &mut live, version, seat, mv.clone(), next)
            .await?;
        Ok(self.moved_on(table, live, status))
    }

    /// Plays the game moves `texts` of `seat` at `table` in order, chosen on `version`, as
    /// one decision of the player (a trade composed in one dialog, every die retrieved):
    /// each is read on the position the one before leaves, and all are checked before
    /// any is kept; then each is committed and told as a move of its own.
    ///
    /// # Errors
    /// What [`Hub::parse_move`] or [`Hub::play`] answers for the first move that fails
    /// (nothing changes then); `action/malformed` for an empty list, one of more than
    /// [`MAX_SEQUENCE`] moves, or a table move in it. Should the store fail part way,
    /// the moves committed before stay (each is a move of its own).
    pub async fn play_sequence(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        texts: &[String],
        version: u64,
    ) -> Result<Played, TableError> {
        if texts.is_empty() || texts.len() > MAX_SEQUENCE {
            return Err(TableError::new(
                Refusal::ActionMalformed,
                format!("a list of moves has 1 to {MAX_SEQUENCE} of them"),
            ));
        }
        let mut live = table.live.lock().await;
        self.takes_moves(table, &mut live, version).await?;
        let mut moves = Vec::with_capacity(texts.len());
        let mut next = live.session.clone();
        for text in texts {
            let text = text.trim();
            if text.is_empty() || text.len() > MAX_ACTION_LEN {
                return Err(TableError::new(
                    Refusal::ActionMalformed,
                    format!("an action is 1 to {MAX_ACTION_LEN} bytes of text"),
                ));
            }
            let mv = next.parse(text)?;
            if let Move::Table(table_move) = mv {
                return Err(TableError::new(
                    Refusal::ActionMalformed,
                    format!(
                        "`{table_move}` is a move of the table, sent on its own, not in a list"
                    ),
                ));
            }
            may_act(&next, seat, By::Player)?;
            next.play(&mv)?;
            moves.push(mv);
        }
        let mut status = Status::Running;
        for (mv, version) in moves.into_iter().zip(version..) {
            let mut next = live.session.clone();
            next.play(&mv)?;
            status = self
                .commit(table, &mut live, version, seat, mv, next)
                .await?;
        }
        Ok(self.moved_on(table, live, status))
    }

    /// Keeps `mv` of `seat` at `version` (checked: `next` is the session after it), then
    /// makes it the table's; answers whether the game goes on.
    ///
    /// # Errors
    /// The store fails, or another server's move came first (nothing changes then).
    async fn commit(
        &self,
        table: &Arc<Table>,
        live: &mut Live,
        version: u64,
        seat: Seat,
        mv: Move,
        next: Session,
    ) -> Result<Status, TableError> {
        let status = if next.outcome().is_some() {
            Status::Finished
        } else {
            Status::Running
        };
        // The move's own notation is what is stored and pushed (`5  DEBT` is `5 debt`).
        self.store_entry(table, live, version, seat, &mv.to_string(), status)
            .await?;
        let was_to_act = live.session.to_act();
        let before = std::mem::replace(&mut live.session, next).into_state();
        live.advanced(before, mv, seat, super::store::now_ms());
        if let Some(to_act) = live.session.to_act().filter(|_| status == Status::Running) {
            if was_to_act != Some(to_act) {
                self.notify_turn(table, live.version(), seat, to_act);
            }
        }
        Ok(status)
    }

    /// Stores entry `text` of `seat` at `version`: a conflict (another server's move came
    /// first) reads that move in and answers that the version is stale.
    pub(super) async fn store_entry(
        &self,
        table: &Arc<Table>,
        live: &mut Live,
        version: u64,
        seat: Seat,
        text: &str,
        status: Status,
    ) -> Result<(), TableError> {
        match self
            .store
            .append(
                &table.row.id,
                Append {
                    seq: version,
                    seat,
                    action: text,
                    status,
                },
            )
            .await
        {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict { .. }) => {
                self.catch_up(table, live).await?;
                Err(TableError::stale(version, live.version()))
            }
            Err(e) => Err(TableError::store(e)),
        }
    }

    /// Tells every client of `table` about the entry just made, and puts the table away
    /// if it is over or its bots to work if not.
    pub(super) fn moved_on(
        self: &Arc<Self>,
        table: &Arc<Table>,
        live: tokio::sync::MutexGuard<'_, Live>,
        status: Status,
    ) -> Played {
        let now = live.version();
        // A bot is due only if none drives the table already (a bot's own move comes
        // back to its driver's loop).
        let bot_due = !live.bot_running
            && (live.session.to_act()).is_some_and(|seat| table.bot_spec(&live, seat).is_some());
        // When the clocks or the players' presence can next matter, read while the table
        // is at hand (the ticker need not look at every table after every move).
        let next = table.next_check(&live, super::store::now_ms());
        drop(live);
        let _ = table.changed.send(now);
        self.check_at(table, next);
        if status == Status::Finished {
            self.forget(&table.row.id);
            self.rate_later(table);
            self.tournament_table_over(table);
        } else if bot_due {
            self.kick_bots(table);
        }
        Played { version: now }
    }

    /// Applies the action rows this process has not seen yet (written by another server).
    pub(super) async fn catch_up(
        &self,
        table: &Arc<Table>,
        live: &mut Live,
    ) -> Result<bool, TableError> {
        let rows = self
            .store
            .actions(&table.row.id, live.version())
            .await
            .map_err(TableError::store)?;
        let mut changed = false;
        for row in rows {
            if row.seq != live.version() {
                return Err(TableError::internal(format!(
                    "table {}: expected action {} but read {}",
                    table.row.id,
                    live.version(),
                    row.seq
                )));
            }
            let before = live.session.state().clone_box();
            let mv = (live.session.parse(&row.action))
                .and_then(|mv| live.session.play(&mv).map(|()| mv))
                .map_err(|e| {
                    TableError::internal(format!(
                        "table {}: stored action {} does not apply: {e}",
                        table.row.id, row.seq
                    ))
                })?;
            live.advanced(before, mv, row.seat, row.at);
            changed = true;
        }
        if changed {
            let _ = table.changed.send(live.version());
            if live.status() == Status::Finished {
                self.forget(&table.row.id);
            }
        }
        if changed {
            self.wake(table);
        }
        Ok(changed)
    }

    pub(super) async fn on_notice(self: &Arc<Self>, notice: Notice) {
        let tables = match notice {
            Notice::Actions(id) => self.cached(&id).into_iter().collect(),
            Notice::Resync => self.all_cached(),
        };
        for table in tables {
            // A database gone away again ends the round (the outage is logged where it is
            // met): the listener asks for everything again once it is back.
            match self.refresh(&table).await {
                Err(TableError::Unavailable { .. }) => return,
                Err(e) => tracing::warn!("reading table {} again: {e}", table.row.id),
                Ok(()) => {}
            }
            let changed = {
                let mut live = table.live.lock().await;
                self.catch_up(&table, &mut live).await
            };
            match changed {
                Ok(true) => self.kick_bots(&table),
                Ok(false) => {}
                Err(TableError::Unavailable { .. }) => return,
                Err(e) => tracing::warn!("catching up table {}: {e}", table.row.id),
            }
        }
    }
}

/// Whether `seat` may make a game move in `session` now: it is to act, and (for its
/// player) has not resigned.
///
/// # Errors
/// `action/not_your_turn`, saying who is to act.
fn may_act(session: &Session, seat: Seat, by: By) -> Result<(), TableError> {
    let to_act = session.to_act();
    if to_act == Some(seat) && !(session.is_resigned(seat) && by == By::Player) {
        return Ok(());
    }
    Err(TableError::new(
        Refusal::NotYourTurn,
        match to_act {
            Some(s) if s == seat => format!("seat {} resigned: a bot makes its moves", seat + 1),
            _ => format!(
                "seat {} cannot act now: {} is to act",
                seat + 1,
                to_act.map_or("nobody".into(), |s| format!("seat {}", s + 1))
            ),
        },
    ))
}
