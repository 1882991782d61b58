//! The live tables of one server process: their states in memory, rebuilt from the store
//! by replay, moves committed to the store before they are acknowledged, bots, and pushes.

pub(super) use super::clock::{Clocks, Due, OnTimeout};
pub(super) use super::error::{Refusal, TableError};
pub(super) use super::limits::{rate_limited, Limits, Rate, RateLimiter};
pub(super) use super::names::*;
pub(super) use super::secrets::*;
pub(super) use super::store::{
    Append, ChatKind, ChatRow, GameRow, Notice, Player, SeatChange, SeatRow, Series, Status, Store,
    StoreError,
};
pub(super) use super::text::truncate;
pub(super) use engine::{
    DynState, GameRecord, LogEntry, Move, Names, Outcome, Seat, Session, TableMove, Viewer,
};
pub(super) use sha2::{Digest, Sha256};
pub(super) use std::collections::HashMap;
pub(super) use std::collections::VecDeque;
pub(super) use std::net::IpAddr;
pub(super) use std::sync::atomic::{AtomicBool, Ordering};
pub(super) use std::sync::{Arc, Mutex as StdMutex};
pub(super) use std::time::Duration;
pub(super) use tokio::sync::{broadcast, Mutex};

/// The longest action text accepted.
pub const MAX_ACTION_LEN: usize = 200;
/// The most moves one call may play in order ([`Hub::play_sequence`]).
pub const MAX_SEQUENCE: usize = 32;

/// How many chat lines of a table are kept in memory (and served by `GET …/chat`).
pub const CHAT_KEPT: usize = 200;

/// One table in memory.
pub struct Table {
    /// The table as created (its seats as they were then: see [`Table::seats`]).
    pub row: GameRow,
    pub(super) live: Mutex<Live>,
    pub(super) changed: broadcast::Sender<u64>,
    /// Who sits where now (open seats get taken).
    pub(super) seats: StdMutex<Seating>,
    /// The last [`CHAT_KEPT`] chat lines.
    pub(super) chat: StdMutex<VecDeque<ChatRow>>,
    /// Every new chat line.
    pub(super) chat_tx: broadcast::Sender<ChatRow>,
    /// The rematch's id, once named.
    pub(super) rematch: StdMutex<Option<String>>,
    /// Paused: nobody has been at the table for the away time, so its bots wait (see
    /// [`Table::nobody_present`]). Read without the table's lock (the lobby lists it).
    pub(super) paused: AtomicBool,
}

/// Who sits where, and the names the log gives them (worked out when the seats change,
/// not for every push).
pub(super) struct Seating {
    pub(super) rows: Arc<Vec<SeatRow>>,
    pub(super) log_names: Arc<[String]>,
    /// The names shown by seat (see [`Table::display_names`]).
    pub(super) display: Vec<String>,
}

impl Seating {
    pub(super) fn new(rows: Vec<SeatRow>) -> Seating {
        let players: Vec<String> = rows.iter().map(|s| s.player.to_string()).collect();
        let display = super::store::display_names(&rows);
        // A given name wins; otherwise "seat N" or "seat N (bot)". The same function names
        // the seats of this table's published record in `tabletop log`.
        let log_names = engine::log::table_names(&players, &display);
        Seating {
            rows: Arc::new(rows),
            log_names,
            display,
        }
    }
}

pub(super) struct Live {
    /// The game with the table's moves (undo, resign).
    pub(super) session: Session,
    /// The moves so far, parsed once (the store keeps their notation).
    pub(super) actions: Vec<Move>,
    pub(super) bot_running: bool,
    /// Expired: takes no more moves.
    pub(super) abandoned: bool,
    /// When the last move was made (or the table created), in ms since the Unix epoch.
    pub(super) moved: i64,
    /// The states before the latest actions, oldest first: `recent[k]` is the state at
    /// version `version() - recent.len() + k`.
    pub(super) recent: VecDeque<Box<dyn DynState>>,
    /// The socket `state` messages written at version `pushes_version`, by viewer and the
    /// version their events start from: sockets of one viewer share one serialization.
    pub(super) pushes: Vec<(Viewer, u64, bytes::Bytes)>,
    pub(super) pushes_version: u64,
    /// How many times something besides the moves changed (a seat taken, a rematch).
    pub(super) touches: u64,
    /// The clocks, at a table that has one.
    pub(super) clocks: Option<Clocks>,
    /// Each seat's presence and its bot's memory, by seat.
    pub(super) seats: Vec<SeatState>,
    /// Spectators: their open sockets, and when one was last heard of (ms).
    pub(super) watchers: u32,
    pub(super) watched: i64,
}

/// One seat at a live table: who is there, and what its bot remembers.
#[derive(Clone, Debug)]
pub(super) struct SeatState {
    /// A bot plays for the seat until its player is back.
    pub(super) away: bool,
    /// When its player was last heard of (ms since the Unix epoch).
    pub(super) seen: i64,
    /// Its player's open sockets.
    pub(super) sockets: u32,
    /// What its bot remembers of its turn (a bot is made for each decision; this keeps
    /// it from going round in circles, see `bots::Guarded`). Not stored: a restarted
    /// server starts the turn's memory afresh.
    pub(super) bot_memory: bots::TurnMemory,
}

impl Live {
    /// Records that `action`, by `seat` at `at`, took `before` to the current state.
    pub(super) fn advanced(&mut self, before: Box<dyn DynState>, mv: Move, seat: Seat, at: i64) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(before);
        // Taking back or resigning starts no new turn on the clock.
        if let (Some(clocks), Move::Game(_)) = (&mut self.clocks, &mv) {
            clocks.moved(seat, at);
        }
        self.actions.push(mv);
        self.moved = at;
    }

    /// Whether the actions from `since` on are told from a replay of the record: some
    /// are further back than the states kept, or one is a table move (they are rare; a
    /// replay knows who undid).
    pub(super) fn told_by_replay(&self, since: u64) -> bool {
        let version = self.version();
        since + (self.recent.len() as u64) < version
            || (since..version).any(|i| matches!(self.actions[i as usize], Move::Table(_)))
    }

    /// Action `index` (one of the last `recent.len()`): the state before it, the action
    /// and the state after.
    pub(super) fn step(&self, index: u64) -> (&dyn DynState, &Move, &dyn DynState) {
        let at = (index + self.recent.len() as u64 - self.version()) as usize;
        let after: &dyn DynState = match self.recent.get(at + 1) {
            Some(next) => next.as_ref(),
            None => self.session.state(),
        };
        (
            self.recent[at].as_ref(),
            &self.actions[index as usize],
            after,
        )
    }

    pub(super) fn can_undo(&self, viewer: Viewer) -> bool {
        viewer.seat().is_some() && self.session.undoer() == viewer.seat()
    }

    pub(super) fn away_seats(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&s| self.seats[s].away)
            .collect()
    }

    /// Whether `viewer` is the seat to act, still playing: the one viewer given the legal
    /// moves.
    pub(super) fn acting(&self, viewer: Viewer) -> bool {
        let to_act = self.session.to_act();
        matches!(viewer.seat(), Some(seat) if to_act == Some(seat) && !self.session.is_resigned(seat))
    }

    pub(super) fn version(&self) -> u64 {
        self.actions.len() as u64
    }
    pub(super) fn status(&self) -> Status {
        if self.abandoned {
            Status::Abandoned
        } else if self.session.outcome().is_some() {
            Status::Finished
        } else if self.actions.is_empty() {
            Status::Open
        } else {
            Status::Running
        }
    }
}

/// How many states before the latest actions a table keeps, to tell those moves without
/// replaying the game (bots move in bursts; a client that fell further behind gets its
/// events from a replay).
pub(super) const RECENT: usize = 32;

/// Hints searched at once on this server (more wait their turn).
const HINTS_AT_ONCE: usize = 2;

/// The coach's searches at a table: hints running now, reviews being made.
pub(super) struct Coach {
    pub(super) hints: tokio::sync::Semaphore,
    /// Reviews are made one at a time (each uses every core).
    pub(super) reviews: tokio::sync::Semaphore,
    /// Reviews being made, by table id.
    pub(super) running: StdMutex<HashMap<String, Arc<ReviewJob>>>,
}

impl Default for Coach {
    fn default() -> Self {
        Coach {
            hints: tokio::sync::Semaphore::new(HINTS_AT_ONCE),
            reviews: tokio::sync::Semaphore::new(1),
            running: StdMutex::new(HashMap::new()),
        }
    }
}

/// A review being made: how far it is.
#[derive(Default)]
pub(super) struct ReviewJob {
    pub(super) done: std::sync::atomic::AtomicUsize,
    pub(super) of: std::sync::atomic::AtomicUsize,
    pub(super) failed: AtomicBool,
}

/// The tables of one server process.
pub struct Hub {
    pub(super) store: Arc<dyn Store>,
    pub(super) limits: Limits,
    /// Table creations by client address.
    pub(super) creates: RateLimiter<IpAddr>,
    /// Actions by table and seat (one seat, one token).
    pub(super) actions: RateLimiter<(String, Seat)>,
    /// Chat lines by table and writer (a seat, or a spectator's address).
    pub(super) chats: RateLimiter<(String, String)>,
    /// Hints by table and seat (one seat, one token).
    pub(super) hints: RateLimiter<(String, Seat)>,
    /// Sign-in attempts by account name (its skeleton), and by client address.
    pub(super) sign_in_names: RateLimiter<String>,
    pub(super) sign_in_addrs: RateLimiter<IpAddr>,
    /// The coach's hints and reviews.
    pub(super) coach: Coach,
    /// Held while a rematch is named.
    pub(super) rematches: Mutex<()>,
    /// Held while a tournament is moved on (its results kept, its next round made).
    pub(super) tournament_lock: Mutex<()>,
    pub(super) tables: StdMutex<HashMap<String, Arc<Table>>>,
    /// When each live table's clocks or presence next need a look: the ticker looks at
    /// those that are due, not at every table.
    pub(super) due: StdMutex<Due>,
    /// Finished and abandoned tables, with their final state: no replay per GET.
    pub(super) ended: StdMutex<Ended>,
    /// Set once the tables live at start are rebuilt.
    pub(super) rebuilt: tokio::sync::watch::Sender<bool>,
    /// Whether the store tells of other writers' moves (PostgreSQL): then rows may come
    /// in while a table is loaded, from another server or from a killed one's last commit.
    pub(super) notified: bool,
    /// What this server counts of itself (`GET /metrics`).
    pub(super) metrics: Arc<super::Metrics>,
    /// Set when the server shuts down: its sockets close with a reason.
    pub(super) stopping: tokio::sync::watch::Sender<bool>,
}

/// How often clocks and players' presence are looked at.
pub const CLOCK_TICK: Duration = Duration::from_millis(250);

/// Chat lines one writer may send at once, and then per second.
pub const CHAT_BURST: u32 = 5;
pub const CHAT_PER_SECOND: f64 = 0.5;

/// How many tables are rebuilt at once at start.
const REBUILD_AT_ONCE: usize = 16;

/// The most ended tables kept in memory (the oldest kept is dropped first).
pub const ENDED_CACHE: usize = 500;

/// The ended tables in memory, in the order they were kept.
#[derive(Default)]
pub(super) struct Ended {
    pub(super) tables: HashMap<String, Arc<Table>>,
    pub(super) order: std::collections::VecDeque<String>,
}

impl Ended {
    pub(super) fn insert(&mut self, table: Arc<Table>) {
        let id = table.row.id.clone();
        if self.tables.insert(id.clone(), table).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > ENDED_CACHE {
            if let Some(old) = self.order.pop_front() {
                self.tables.remove(&old);
            }
        }
    }
}

/// Who sends a move: a seat's player, or a bot (which also moves for a resigned seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Player,
    Bot,
}

/// What [`Hub::play`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub version: u64,
}

impl Hub {
    /// A hub over `store`: replays every open and running game, starts their bots, and
    /// listens to other servers' moves where the store can tell them.
    ///
    /// # Errors
    /// The store cannot list or load its games.
    pub async fn start(store: Arc<dyn Store>, limits: Limits) -> anyhow::Result<Arc<Hub>> {
        // Every store call is timed, bounded and counted.
        let metrics = Arc::new(super::Metrics::default());
        let store: Arc<dyn Store> = Arc::new(super::metrics::Metered::new(
            store,
            metrics.clone(),
            limits.store_timeout,
        ));
        // Listening starts before anything is read: a move stored after a read is told.
        let notices = store.subscribe().await?;
        let hub = Arc::new(Hub {
            notified: notices.is_some(),
            store,
            metrics,
            stopping: tokio::sync::watch::Sender::new(false),
            creates: RateLimiter::new(
                limits.create_burst,
                f64::from(limits.creates_per_minute) / 60.0,
            ),
            actions: RateLimiter::new(limits.action_burst, f64::from(limits.actions_per_second)),
            chats: RateLimiter::new(CHAT_BURST, CHAT_PER_SECOND),
            sign_in_names: RateLimiter::new(
                limits.sign_in_burst,
                f64::from(limits.sign_ins_per_minute) / 60.0,
            ),
            sign_in_addrs: RateLimiter::new(
                limits.address_sign_in_burst,
                f64::from(limits.address_sign_ins_per_minute) / 60.0,
            ),
            hints: RateLimiter::new(limits.hint_burst, f64::from(limits.hints_per_minute) / 60.0),
            coach: Coach::default(),
            rematches: Mutex::new(()),
            tournament_lock: Mutex::new(()),
            limits,
            tables: StdMutex::new(HashMap::new()),
            due: StdMutex::new(Due::default()),
            ended: StdMutex::new(Ended::default()),
            rebuilt: tokio::sync::watch::Sender::new(false),
        });
        let rows = hub
            .store
            .list(&[Status::Open, Status::Running], u32::MAX)
            .await?;
        // The live tables are rebuilt in the background, several at once: the server
        // answers meanwhile, and a request for a table not rebuilt yet loads that one.
        // Each table's bots and expiry resume as soon as it is in memory.
        let weak = Arc::downgrade(&hub);
        let rebuilt = hub.rebuilt.clone();
        tokio::spawn(async move {
            use futures_util::StreamExt;
            let started = std::time::Instant::now();
            let total = rows.len();
            let loads = futures_util::stream::iter(rows).map(|row| {
                let weak = weak.clone();
                async move {
                    let Some(hub) = weak.upgrade() else {
                        return false;
                    };
                    match hub.table(&row.id).await {
                        Ok(_) => true,
                        Err(e) => {
                            tracing::error!("table {} cannot be rebuilt: {e}", row.id);
                            false
                        }
                    }
                }
            });
            let count = loads
                .buffer_unordered(REBUILD_AT_ONCE)
                .filter(|ok| std::future::ready(*ok))
                .count()
                .await;
            tracing::info!(
                "rebuilt {count} of {total} live tables by replay in {:?}",
                started.elapsed()
            );
            rebuilt.send_replace(true);
        });
        hub.spawn_expiry();
        hub.spawn_clocks();
        if let Some(mut notices) = notices {
            let weak = Arc::downgrade(&hub);
            tokio::spawn(async move {
                while let Some(notice) = notices.recv().await {
                    let Some(hub) = weak.upgrade() else { return };
                    hub.on_notice(notice).await;
                }
            });
        }
        Ok(hub)
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// What this server counts of itself.
    pub fn metrics(&self) -> &super::Metrics {
        &self.metrics
    }

    /// The server is shutting down: every socket is told so and closed.
    pub fn shut_down(&self) {
        self.stopping.send_replace(true);
    }

    /// Set once the server shuts down ([`Hub::shut_down`]).
    pub fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// Waits until every table that was live at start is back in memory (or failed).
    pub async fn wait_rebuilt(&self) {
        let mut rebuilt = self.rebuilt.subscribe();
        let _ = rebuilt.wait_for(|done| *done).await;
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Counts a table creation from `client` (none when the address is unknown).
    ///
    /// # Errors
    /// `429 request/rate_limited` over the per-address rate.
    pub fn count_create(&self, client: Option<IpAddr>) -> Result<(), TableError> {
        match client {
            Some(ip) if self.limits.rate_limits => self
                .creates
                .take(&ip)
                .map_err(|wait| rate_limited(Rate::Creates, wait)),
            _ => Ok(()),
        }
    }

    /// Abandons the tables in memory whose time ran out (see [`Limits::expire_unstarted`]
    /// and [`Limits::expire_idle`]); returns how many.
    pub async fn expire(self: &Arc<Self>) -> usize {
        let now = super::store::now_ms();
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let mut count = 0;
        for table in self.all_cached() {
            let mut live = table.live.lock().await;
            let limit = if live.actions.is_empty() {
                ms(self.limits.expire_unstarted)
            } else {
                ms(self.limits.expire_idle)
            };
            // A started table with a clock goes by its clock (the take-over bot moves when
            // time runs out), never by the idle limit.
            let clocked = table.row.rules.clock.is_some() && !live.actions.is_empty();
            if live.abandoned
                || clocked
                || live.session.outcome().is_some()
                || now - live.moved < limit
            {
                continue;
            }
            match self.store.abandon(&table.row.id, live.version()).await {
                Ok(true) => {
                    live.abandoned = true;
                    count += 1;
                    let version = live.version();
                    drop(live);
                    tracing::info!("table {} abandoned: no move in time", table.row.id);
                    let _ = table.changed.send(version);
                    self.forget(&table.row.id);
                    self.tournament_table_over(&table);
                }
                // Another server moved it on: read its moves.
                Ok(false) => {
                    if let Err(e) = self.catch_up(&table, &mut live).await {
                        tracing::warn!("catching up table {}: {e}", table.row.id);
                    }
                }
                Err(e) => tracing::warn!("abandoning table {}: {e}", table.row.id),
            }
        }
        count
    }

    /// Runs [`Hub::expire`] every so often while the hub lives.
    pub(super) fn spawn_expiry(self: &Arc<Self>) {
        let shortest = self.limits.expire_unstarted.min(self.limits.expire_idle);
        let every = (shortest / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(hub) = weak.upgrade() else { return };
                hub.expire().await;
            }
        });
    }

    pub(super) fn cached(&self, id: &str) -> Option<Arc<Table>> {
        self.tables.lock().ok().and_then(|t| t.get(id).cloned())
    }

    /// Why the table `id` is paused, if it is in memory and paused.
    pub fn paused_reason(&self, id: &str) -> Option<String> {
        self.cached(id).and_then(|t| t.paused_reason())
    }

    pub(super) fn all_cached(&self) -> Vec<Arc<Table>> {
        self.tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Drops a finished table from memory (clients that hold it keep their copy).
    pub(super) fn forget(&self, id: &str) {
        let table = self.tables.lock().ok().and_then(|mut t| t.remove(id));
        if let Ok(mut due) = self.due.lock() {
            due.forget(id);
        }
        if let Some(table) = table {
            self.keep_ended(table);
        }
    }

    /// Keeps an ended table in the bounded cache of ended tables.
    pub(super) fn keep_ended(&self, table: Arc<Table>) {
        if let Ok(mut ended) = self.ended.lock() {
            ended.insert(table);
        }
    }

    pub(super) fn ended(&self, id: &str) -> Option<Arc<Table>> {
        self.ended
            .lock()
            .ok()
            .and_then(|e| e.tables.get(id).cloned())
    }

    /// The number of tables in memory.
    pub fn live_tables(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }
}
