//! The coach at a table: a hint for the seat to act (at a table made with hints), and the
//! review of a finished game, made once in the background and kept in the store.

use super::hub::*;

/// How many moves a hint names.
pub const HINT_MOVES: usize = 3;

/// What a hint answers: the version it is for and the coach's best moves, best first.
pub struct Hint {
    pub version: u64,
    pub moves: Vec<bots::Advice>,
    /// Whole seconds until the seat may ask for another hint (0: at once).
    pub wait: u64,
}

/// Where a table's review stands.
pub enum ReviewStatus {
    /// Being made: `done` of `of` decisions reviewed.
    Running { done: usize, of: usize },
    /// Made: the review as stored (JSON text of [`bots::Review`]).
    Done(String),
}

/// The seed of a hint: from the table's id, the version and the seat alone (public
/// facts), never the game's seed or its random stream.
fn hint_seed(table: &str, version: u64, seat: Seat) -> u64 {
    let digest = Sha256::new()
        .chain_update(b"tabletop hint\0")
        .chain_update(table.as_bytes())
        .chain_update(version.to_le_bytes())
        .chain_update((seat as u64).to_le_bytes())
        .finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The seed of a review: from the table's id alone.
fn review_seed(table: &str) -> u64 {
    hint_seed(table, u64::MAX, usize::MAX)
}

impl Hub {
    /// The coach's best moves (at most [`HINT_MOVES`]) for `seat`, whose turn it is at
    /// `table`, searched from that seat's view only; the table's chat tells everyone that
    /// the seat asked (not what it was told).
    ///
    /// # Errors
    /// `hint/off` at a table made without hints; `table/waiting`, `game/abandoned`,
    /// `game/over` or `action/not_your_turn` when the seat has nothing to decide;
    /// `request/rate_limited` over the per-token rate.
    pub async fn hint(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<Hint, TableError> {
        if table.row.rules.rated {
            return Err(TableError::new(
                Refusal::Rated,
                "this table is rated: the coach gives no hints at it",
            ));
        }
        if !table.row.rules.hints_on(&table.seats()) {
            return Err(TableError::new(
                Refusal::HintsOff,
                "this table was made without hints",
            ));
        }
        let (state, version) = {
            let live = table.live.lock().await;
            if live.abandoned {
                return Err(TableError::abandoned());
            }
            if live.session.outcome().is_some() {
                return Err(TableError::new(
                    Refusal::GameOver,
                    "the game is over: there is nothing left to decide (the review tells how the game went)",
                ));
            }
            if !table.open_seats().is_empty() {
                return Err(TableError::new(
                    Refusal::Waiting,
                    "the game has not started: some seats are still open",
                ));
            }
            if !live.acting(Viewer::Seat(seat)) {
                return Err(TableError::new(
                    Refusal::NotYourTurn,
                    "it is not your turn: a hint is for the player whose turn it is",
                ));
            }
            (live.session.state().clone_box(), live.version())
        };
        if self.limits.rate_limits {
            self.hints
                .take(&(table.row.id.clone(), seat))
                .map_err(|wait| rate_limited(Rate::Hints, wait))?;
        }
        let options = bots::CoachOptions {
            iterations: self.limits.coach_budget(),
            seed: hint_seed(&table.row.id, version, seat),
        };
        let moves = {
            let _permit = self
                .coach
                .hints
                .acquire()
                .await
                .map_err(TableError::internal)?;
            tokio::task::spawn_blocking(move || catalog::hint(state.as_ref(), &options, HINT_MOVES))
                .await
                .map_err(TableError::internal)?
                .map_err(TableError::internal)?
        };
        self.add_note(table, seat, super::chat::Note::Hint).await?;
        Ok(Hint {
            version,
            moves,
            wait: self.hint_wait(table, seat),
        })
    }

    /// Whole seconds until `seat` may ask for a hint at `table` (0: it may now, or the
    /// server has no rates), so that a page waits instead of asking in vain.
    pub fn hint_wait(&self, table: &Table, seat: Seat) -> u64 {
        if !self.limits.rate_limits {
            return 0;
        }
        self.hints.wait(&(table.row.id.clone(), seat))
    }

    /// The review of `table`'s finished game: the stored one, or how far it is while it
    /// is made (the first call starts it, in the background).
    ///
    /// # Errors
    /// `game/not_over` before the game is over (and for an abandoned table); an internal
    /// error when the review failed or the store does.
    pub async fn review(self: &Arc<Self>, table: &Arc<Table>) -> Result<ReviewStatus, TableError> {
        let (actions, status, _) = table.progress().await;
        match status {
            Status::Finished => {}
            Status::Abandoned => {
                return Err(TableError::new(
                    Refusal::NotOver,
                    "this table was abandoned before its end: only a finished game has a review",
                ))
            }
            Status::Open | Status::Running => {
                return Err(TableError::new(
                    Refusal::NotOver,
                    "the review is made once the game is over",
                ))
            }
        }
        let id = table.row.id.clone();
        if let Some(job) = self.review_job(&id) {
            return job_status(&job);
        }
        if let Some(text) = self.store.review(&id).await.map_err(TableError::store)? {
            return Ok(ReviewStatus::Done(text));
        }
        let job = {
            let mut running = self
                .coach
                .running
                .lock()
                .map_err(|_| TableError::internal("review jobs poisoned"))?;
            if let Some(job) = running.get(&id) {
                return job_status(job);
            }
            let job = Arc::new(ReviewJob::default());
            running.insert(id.clone(), job.clone());
            job
        };
        let record = table.record(&actions);
        let hub = self.clone();
        tokio::spawn(async move { hub.make_review(id, record, job).await });
        Ok(ReviewStatus::Running { done: 0, of: 0 })
    }

    fn review_job(&self, id: &str) -> Option<Arc<ReviewJob>> {
        self.coach
            .running
            .lock()
            .ok()
            .and_then(|r| r.get(id).cloned())
    }

    /// Makes and stores the review of table `id`, telling `job` how far it is.
    async fn make_review(self: Arc<Self>, id: String, record: GameRecord, job: Arc<ReviewJob>) {
        let Ok(_permit) = self.coach.reviews.acquire().await else {
            return;
        };
        let options = bots::CoachOptions {
            iterations: self.limits.coach_budget(),
            seed: review_seed(&id),
        };
        let progress = job.clone();
        let started = std::time::Instant::now();
        let made = tokio::task::spawn_blocking(move || {
            let tell = |done: usize, of: usize| {
                progress.of.store(of, Ordering::Relaxed);
                progress.done.fetch_max(done, Ordering::Relaxed);
            };
            catalog::review(&record, &options, &tell)
        })
        .await;
        let stored = match made {
            Ok(Ok(review)) => match serde_json::to_string(&review) {
                Ok(text) => self
                    .store
                    .set_review(&id, &text)
                    .await
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            },
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match stored {
            Ok(()) => {
                tracing::info!("table {id}: reviewed in {:?}", started.elapsed());
                if let Ok(mut running) = self.coach.running.lock() {
                    running.remove(&id);
                }
            }
            Err(e) => {
                tracing::error!("table {id}: the review failed: {e}");
                job.failed.store(true, Ordering::Relaxed);
            }
        }
    }
}

fn job_status(job: &ReviewJob) -> Result<ReviewStatus, TableError> {
    if job.failed.load(Ordering::Relaxed) {
        return Err(TableError::Internal);
    }
    Ok(ReviewStatus::Running {
        done: job.done.load(Ordering::Relaxed),
        of: job.of.load(Ordering::Relaxed),
    })
}

impl Table {
    /// Why the game ended and each seat's score, naming the seats as the table does for a
    /// spectator (once the game is over).
    pub async fn ending(&self) -> Option<engine::Ending> {
        let live = self.live.lock().await;
        live.session.ending(&self.log_names(Viewer::Spectator))
    }

    /// The game as it was after its first `version` actions, as `viewer` saw it then, with
    /// the log of the action that led there: a finished game's moment (its record is
    /// public, so any seat's view is; docs/rulings.md, replays).
    ///
    /// # Errors
    /// `game/not_over` before the end; `request/malformed` past the last action.
    pub async fn moment(&self, version: u64, viewer: Viewer) -> Result<Moment, TableError> {
        let (actions, status, _) = self.progress().await;
        if status != Status::Finished {
            return Err(TableError::new(
                Refusal::NotOver,
                "past moments of a game are shown once it is over",
            ));
        }
        if version > actions.len() as u64 {
            return Err(TableError::malformed(format!(
                "the game has {} moves; there is no move {version}",
                actions.len()
            )));
        }
        if viewer.seat().is_some_and(|s| s >= self.row.seats.len()) {
            return Err(TableError::new(
                Refusal::SeatNotFound,
                format!("this table has {} seats", self.row.seats.len()),
            ));
        }
        let game = catalog::game(&self.row.game).map_err(TableError::internal)?;
        let state = game
            .new_state(&self.row.config, self.row.seed)
            .map_err(TableError::internal)?;
        let played = &actions[..version as usize];
        let mut session = Session::new(state);
        for mv in played {
            session.play(mv).map_err(TableError::internal)?;
        }
        // The move that led here, told as the table's log told it to this viewer (the
        // same replay as the log's, from its own first action).
        let events = match version.checked_sub(1) {
            None => Vec::new(),
            Some(last) => game
                .log(
                    &self.record(played),
                    viewer,
                    &self.log_names(viewer),
                    last as usize,
                )
                .map_err(TableError::internal)?,
        };
        Ok(Moment {
            version,
            of: actions.len() as u64,
            seat: viewer.seat(),
            to_act: session.to_act(),
            view: session.state().view_json(viewer),
            events,
            names: self.display_names(),
        })
    }
}

/// A finished game at one moment (see [`Table::moment`]).
#[derive(serde::Serialize)]
pub struct Moment {
    pub version: u64,
    /// How many actions the whole game has (its last moment).
    pub of: u64,
    /// Whose view it is (`None`: a spectator's).
    pub seat: Option<Seat>,
    pub to_act: Option<Seat>,
    pub view: serde_json::Value,
    /// The log entry of the action that led to this moment, as the viewer was told it
    /// (none at moment 0).
    pub events: Vec<LogEntry>,
    pub names: Vec<String>,
}
