//! What a server counts of itself for its operators (`GET /metrics`, docs/operations.md):
//! moves and tables stored, refusals by code, open sockets, the store's latency, errors
//! and outages. Every store call goes through [`Metered`], which times it, bounds it
//! ([`Limits::store_timeout`](super::Limits)) and logs an outage once, when it starts and
//! when it ends.

use super::account_store::{
    AccountRow, Accounts, ContactRow, HistoryRow, NoteRow, OwnedSeat, RatedGame, RatingRow,
    SessionRow,
};
use super::store::{
    ActionRow, Append, ChatRow, GameRow, Notice, Page, SeatChange, Status, Store, StoreError,
    Upgrade,
};
use super::tournament_store::{BoardRow, RoundRow, TournamentData, TournamentRow, Tournaments};
use async_trait::async_trait;
use engine::Seat;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::future::Future;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The upper bounds (seconds) of the store's latency buckets.
pub const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// A latency histogram: a count per bucket (the last one past every bound), the sum.
#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        let bucket = LATENCY_BUCKETS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(LATENCY_BUCKETS.len());
        self.counts[bucket].fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// The cumulative counts by bucket (as Prometheus writes them), the last being all.
    pub fn cumulative(&self) -> Vec<u64> {
        let mut total = 0;
        (self.counts.iter())
            .map(|c| {
                total += c.load(Ordering::Relaxed);
                total
            })
            .collect()
    }
}

/// The counters of one server process.
#[derive(Default)]
pub struct Metrics {
    /// Moves committed (and so acknowledged), bots' included.
    pub moves: AtomicU64,
    /// Tables created (committed).
    pub tables_created: AtomicU64,
    /// WebSockets open now.
    pub sockets: AtomicI64,
    /// WebSockets closed because their client took nothing for the send timeout.
    pub sockets_stalled: AtomicU64,
    /// Refusals answered, by code (HTTP and socket).
    refusals: Mutex<BTreeMap<&'static str, u64>>,
    /// Store calls that failed: the database was unavailable (or past its time).
    pub store_unavailable: AtomicU64,
    /// Store calls that failed otherwise (conflicts are no failure and are not counted).
    pub store_failed: AtomicU64,
    /// Times the store went from answering to unavailable.
    pub store_outages: AtomicU64,
    /// Set during an outage (from a call refused for want of the database until one
    /// answers); sockets watch it to tell their pages.
    pub store_down: tokio::sync::watch::Sender<bool>,
    /// How long writes (a create, a move) took to commit.
    pub write_latency: Histogram,
    /// How long reads took.
    pub read_latency: Histogram,
}

impl Metrics {
    /// Counts a refusal answered with `code`.
    pub fn refused(&self, code: &'static str) {
        if let Ok(mut refusals) = self.refusals.lock() {
            *refusals.entry(code).or_default() += 1;
        }
    }

    /// The refusals counted so far, by code.
    pub fn refusals(&self) -> BTreeMap<&'static str, u64> {
        self.refusals.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// The counters in Prometheus' text format (version 0.0.4), with `live_tables` (the
    /// tables in memory now).
    pub fn prometheus(&self, live_tables: usize) -> String {
        let mut out = String::new();
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut metric = |name: &str, kind: &str, help: &str, value: &str| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        metric(
            "tabletop_moves_total",
            "counter",
            "Moves committed to the store and acknowledged (bots' included).",
            &load(&self.moves).to_string(),
        );
        metric(
            "tabletop_tables_created_total",
            "counter",
            "Tables created and committed to the store.",
            &load(&self.tables_created).to_string(),
        );
        metric(
            "tabletop_tables_live",
            "gauge",
            "Tables open or running in this server's memory.",
            &live_tables.to_string(),
        );
        metric(
            "tabletop_sockets_open",
            "gauge",
            "WebSockets open now.",
            &self.sockets.load(Ordering::Relaxed).to_string(),
        );
        metric(
            "tabletop_sockets_stalled_total",
            "counter",
            "WebSockets closed because their client took nothing for --send-timeout.",
            &load(&self.sockets_stalled).to_string(),
        );
        metric(
            "tabletop_store_up",
            "gauge",
            "1 while the store answers, 0 during an outage (from its last call).",
            if *self.store_down.borrow() { "0" } else { "1" },
        );
        metric(
            "tabletop_store_outages_total",
            "counter",
            "Times the store went from answering to unavailable.",
            &load(&self.store_outages).to_string(),
        );
        let _ = writeln!(
            out,
            "# HELP tabletop_store_errors_total Store calls that failed, by kind.\n\
             # TYPE tabletop_store_errors_total counter\n\
             tabletop_store_errors_total{{kind=\"unavailable\"}} {}\n\
             tabletop_store_errors_total{{kind=\"other\"}} {}",
            load(&self.store_unavailable),
            load(&self.store_failed)
        );
        let _ = writeln!(
            out,
            "# HELP tabletop_refusals_total Calls and socket messages refused, by code.\n\
             # TYPE tabletop_refusals_total counter"
        );
        for (code, count) in self.refusals() {
            let _ = writeln!(out, "tabletop_refusals_total{{code=\"{code}\"}} {count}");
        }
        histogram(
            &mut out,
            "tabletop_store_write_seconds",
            "Time for a write (a move, a table) to commit, queue included.",
            &self.write_latency,
        );
        histogram(
            &mut out,
            "tabletop_store_read_seconds",
            "Time for a read of the store.",
            &self.read_latency,
        );
        out
    }
}

fn histogram(out: &mut String, name: &str, help: &str, h: &Histogram) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
    let counts = h.cumulative();
    for (bound, count) in LATENCY_BUCKETS.iter().zip(&counts) {
        let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {count}");
    }
    let all = counts.last().copied().unwrap_or(0);
    let sum = h.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
    let _ = writeln!(
        out,
        "{name}_bucket{{le=\"+Inf\"}} {all}\n{name}_sum {sum}\n{name}_count {all}"
    );
}

/// A store that times, bounds and counts every call of the one it wraps: a call past
/// `timeout` is [`StoreError::Unavailable`], and an outage is logged once when it starts
/// (with its cause) and once when the store answers again.
pub struct Metered {
    inner: Arc<dyn Store>,
    metrics: Arc<Metrics>,
    timeout: Duration,
    outage: Mutex<Outage>,
}

/// The store's state as its calls tell it.
struct Outage {
    /// When the outage going on started.
    down_since: Option<Instant>,
    /// When the last one ended (or the store was opened).
    up_since: Instant,
}

/// Whether a call reads or writes (its latency goes to one histogram or the other).
#[derive(Clone, Copy)]
enum Kind {
    Read,
    Write,
}

impl Metered {
    pub fn new(inner: Arc<dyn Store>, metrics: Arc<Metrics>, timeout: Duration) -> Metered {
        Metered {
            inner,
            metrics,
            timeout,
            outage: Mutex::new(Outage {
                down_since: None,
                up_since: Instant::now(),
            }),
        }
    }

    async fn call<T>(
        &self,
        kind: Kind,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let result = match tokio::time::timeout(self.timeout, call).await {
            Ok(result) => result,
            Err(_) => {
                let why = format!("the database gave no answer within {:?}", self.timeout);
                // A read changes nothing; a write may have left before the time ran out.
                Err(match kind {
                    Kind::Read => StoreError::Unavailable(why.into()),
                    Kind::Write => StoreError::Unanswered(why.into()),
                })
            }
        };
        match kind {
            Kind::Read => self.metrics.read_latency.observe(started.elapsed()),
            Kind::Write => self.metrics.write_latency.observe(started.elapsed()),
        }
        match &result {
            Ok(_) | Err(StoreError::Conflict { .. }) => self.answered(started),
            Err(e @ (StoreError::Unavailable(_) | StoreError::Unanswered(_))) => {
                self.metrics
                    .store_unavailable
                    .fetch_add(1, Ordering::Relaxed);
                self.unavailable(e, started);
            }
            Err(_) => {
                self.metrics.store_failed.fetch_add(1, Ordering::Relaxed);
            }
        }
        result
    }

    /// The store answered a call made at `started`: an outage going on is over (logged
    /// once), unless the call was made before it began.
    fn answered(&self, started: Instant) {
        if !*self.metrics.store_down.borrow() {
            return;
        }
        let Ok(mut outage) = self.outage.lock() else {
            return;
        };
        match outage.down_since {
            Some(since) if since <= started => {
                outage.down_since = None;
                outage.up_since = Instant::now();
                self.metrics.store_down.send_replace(false);
                tracing::warn!(
                    "the database answers again, after an outage of {:.1} s",
                    since.elapsed().as_secs_f64()
                );
            }
            _ => {}
        }
    }

    /// The store did not answer a call made at `started`: an outage starts unless one is
    /// going on, or the call was made before the last one ended (it is that outage's).
    /// Logged once, with its cause.
    fn unavailable(&self, cause: &StoreError, started: Instant) {
        let Ok(mut outage) = self.outage.lock() else {
            return;
        };
        if outage.down_since.is_none() && started >= outage.up_since {
            outage.down_since = Some(started);
            self.metrics.store_down.send_replace(true);
            self.metrics.store_outages.fetch_add(1, Ordering::Relaxed);
            tracing::error!("the database is unavailable: {cause}; writes are refused with 503 store/unavailable until it answers");
        }
    }
}

#[async_trait]
impl Accounts for Metered {
    async fn create_account(&self, account: &AccountRow) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.create_account(account))).await
    }
    async fn account_named(&self, skeleton: &str) -> Result<Option<AccountRow>, StoreError> {
        (self.call(Kind::Read, self.inner.account_named(skeleton))).await
    }
    async fn account(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        (self.call(Kind::Read, self.inner.account(id))).await
    }
    async fn set_password(
        &self,
        account: &str,
        password: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        (self.call(
            Kind::Write,
            self.inner.set_password(account, password, keep),
        ))
        .await
    }
    async fn add_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.add_session(session))).await
    }
    async fn session(
        &self,
        id_sha256: &str,
    ) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        (self.call(Kind::Read, self.inner.session(id_sha256))).await
    }
    async fn end_session(&self, id_sha256: &str) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.end_session(id_sha256))).await
    }
    async fn end_sessions(&self, account: &str) -> Result<u64, StoreError> {
        (self.call(Kind::Write, self.inner.end_sessions(account))).await
    }
    async fn add_owners(&self, game: &str, owners: &[(Seat, String)]) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.add_owners(game, owners))).await
    }
    async fn owned_seats(&self, account: &str, limit: u32) -> Result<Vec<OwnedSeat>, StoreError> {
        (self.call(Kind::Read, self.inner.owned_seats(account, limit))).await
    }
    async fn ratings(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        (self.call(Kind::Read, self.inner.ratings(account))).await
    }
    async fn leaderboard(
        &self,
        game: &str,
        limit: u32,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        (self.call(Kind::Read, self.inner.leaderboard(game, limit))).await
    }
    async fn rate(&self, rated: &RatedGame) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.rate(rated))).await
    }
    async fn history(&self, account: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        (self.call(Kind::Read, self.inner.history(account, limit))).await
    }
    async fn contact(&self, account: &str) -> Result<Option<ContactRow>, StoreError> {
        (self.call(Kind::Read, self.inner.contact(account))).await
    }
    async fn set_contact(&self, contact: &ContactRow) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.set_contact(contact))).await
    }
    async fn verify_email(&self, token: &str) -> Result<Option<String>, StoreError> {
        (self.call(Kind::Write, self.inner.verify_email(token))).await
    }
    async fn unsubscribe(&self, token: &str) -> Result<Option<String>, StoreError> {
        (self.call(Kind::Write, self.inner.unsubscribe(token))).await
    }
    async fn queue_notes(&self, notes: &[NoteRow]) -> Result<u64, StoreError> {
        (self.call(Kind::Write, self.inner.queue_notes(notes))).await
    }
    async fn claim_notes(
        &self,
        worker: &str,
        now: i64,
        until: i64,
        limit: u32,
    ) -> Result<Vec<NoteRow>, StoreError> {
        (self.call(
            Kind::Write,
            self.inner.claim_notes(worker, now, until, limit),
        ))
        .await
    }
    async fn note_done(
        &self,
        id: &str,
        worker: &str,
        at: i64,
        retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.note_done(id, worker, at, retry_at))).await
    }
}

#[async_trait]
impl Tournaments for Metered {
    async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.create_tournament(row))).await
    }
    async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentRow>, StoreError> {
        (self.call(Kind::Read, self.inner.tournaments(limit))).await
    }
    async fn tournament(&self, id: &str) -> Result<Option<TournamentData>, StoreError> {
        (self.call(Kind::Read, self.inner.tournament(id))).await
    }
    async fn join_tournament(
        &self,
        id: &str,
        account: &str,
        joined: i64,
        max: u32,
    ) -> Result<bool, StoreError> {
        let call = self.inner.join_tournament(id, account, joined, max);
        self.call(Kind::Write, call).await
    }
    async fn leave_tournament(&self, id: &str, account: &str) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.leave_tournament(id, account))).await
    }
    async fn set_tournament_status(
        &self,
        id: &str,
        from: &str,
        to: &str,
        rounds: u32,
    ) -> Result<bool, StoreError> {
        let call = self.inner.set_tournament_status(id, from, to, rounds);
        self.call(Kind::Write, call).await
    }
    async fn add_round(&self, id: &str, round: &RoundRow) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.add_round(id, round))).await
    }
    async fn add_board(&self, id: &str, board: &BoardRow) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.add_board(id, board))).await
    }
    async fn set_board_result(&self, table: &str, result: &str) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.set_board_result(table, result))).await
    }
    async fn tournament_of(&self, table: &str) -> Result<Option<String>, StoreError> {
        (self.call(Kind::Read, self.inner.tournament_of(table))).await
    }
}

#[async_trait]
impl Store for Metered {
    async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        let done = self.call(Kind::Write, self.inner.create(game)).await;
        if done.is_ok() {
            self.metrics.tables_created.fetch_add(1, Ordering::Relaxed);
        }
        done
    }
    async fn set_seats(&self, game: &str, seats: SeatChange<'_>) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.set_seats(game, seats))).await
    }
    async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError> {
        (self.call(Kind::Write, self.inner.set_rematch(game, rematch))).await
    }
    async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.chat_add(game, line))).await
    }
    async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError> {
        (self.call(Kind::Read, self.inner.chat(game, from_seq))).await
    }
    async fn append(&self, game: &str, next: Append<'_>) -> Result<(), StoreError> {
        let done = self.call(Kind::Write, self.inner.append(game, next)).await;
        if done.is_ok() {
            self.metrics.moves.fetch_add(1, Ordering::Relaxed);
        }
        done
    }
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        (self.call(Kind::Read, self.inner.game(id))).await
    }
    async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError> {
        (self.call(Kind::Read, self.inner.actions(game, from_seq))).await
    }
    async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError> {
        (self.call(Kind::Read, self.inner.list(statuses, limit))).await
    }
    async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError> {
        (self.call(Kind::Read, self.inner.page(page))).await
    }
    async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.abandon(game, seq))).await
    }
    async fn review(&self, game: &str) -> Result<Option<String>, StoreError> {
        (self.call(Kind::Read, self.inner.review(game))).await
    }
    async fn set_review(&self, game: &str, review: &str) -> Result<(), StoreError> {
        (self.call(Kind::Write, self.inner.set_review(game, review))).await
    }
    async fn upgrade(&self, upgrade: &Upgrade) -> Result<bool, StoreError> {
        (self.call(Kind::Write, self.inner.upgrade(upgrade))).await
    }
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        (self.call(Kind::Read, self.inner.subscribe())).await
    }
    async fn ping(&self) -> Result<(), StoreError> {
        (self.call(Kind::Read, self.inner.ping())).await
    }
}
