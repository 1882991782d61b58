//! `tabletop load`: a load generator for `tabletop serve`, to size a server.
//!
//! The load model of `../shared/bench/tabletop-load` (the one the side-by-side benchmark
//! uses): `--tables` two-seat tables always in play, each seat on its own WebSocket, a
//! uniformly random legal move as soon as the server's pushed state says it is the seat's
//! turn, one move in flight per seat, and a new table through the lobby API for every
//! finished game. Each table has two lanes: while one plays, the next table is created and
//! both its sockets are connected and synced. A move counts when the mover receives a state
//! whose version is above the one it was chosen on; its latency runs from sending to that
//! state.
//!
//! Everything runs on one thread (a current-thread tokio runtime) so that the generator
//! costs one core at most and its own CPU per move can be compared with the server's.
use crate::options::{print_report, GameOptions};
use crate::user;
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

#[derive(Args)]
pub struct LoadArgs {
    /// The server, e.g. `http://127.0.0.1:8080`.
    #[arg(long)]
    addr: String,
    /// Tables always in play (each with two seats, one socket each).
    #[arg(long, default_value_t = 200)]
    tables: usize,
    /// Length of the measured window, after the warm-up.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Seconds of play before measuring.
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,
    /// The game every table plays (two seats).
    #[arg(long, default_value = "dropsite")]
    game: String,
    /// The server's process id: also report its CPU per move (read from /proc).
    #[arg(long)]
    server_pid: Option<u32>,
    /// A process of the database (e.g. PostgreSQL's main process): its CPU per move is
    /// reported too, with that of every process it forks (a worker per connection, also
    /// those opened during the run). May be repeated.
    #[arg(long = "db-pid")]
    db_pids: Vec<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The tables' options (default for Drop Site: one-round games, `--opt max_rounds=1`).
    #[command(flatten)]
    options: GameOptions,
}

/// What a run measured.
#[derive(Debug, Default, Serialize)]
pub struct LoadReport {
    pub tables: usize,
    pub seconds: f64,
    pub moves: u64,
    pub moves_per_s: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub games_finished: u64,
    pub errors: u64,
    pub error_codes: BTreeMap<String, u64>,
    /// CPU seconds this process used per move, in milliseconds.
    pub client_cpu_ms_per_move: f64,
    /// The same for `--server-pid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu_ms_per_move: Option<f64>,
    /// The server's CPU use over the window, in percent of one core.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu_pct: Option<f64>,
    /// The same for the `--db-pid` processes together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db_cpu_ms_per_move: Option<f64>,
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} tables, {:.1} s: {} moves, {:.0} moves/s, {} games finished",
            self.tables, self.seconds, self.moves, self.moves_per_s, self.games_finished
        )?;
        writeln!(
            f,
            "latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.p50_ms, self.p90_ms, self.p99_ms, self.max_ms
        )?;
        write!(f, "errors: {}", self.errors)?;
        for (code, n) in &self.error_codes {
            write!(f, " {code}={n}")?;
        }
        writeln!(f)?;
        write!(
            f,
            "CPU per move: load generator {:.4} ms",
            self.client_cpu_ms_per_move
        )?;
        if let Some(ms) = self.server_cpu_ms_per_move {
            write!(f, ", server {ms:.4} ms")?;
        }
        if let Some(pct) = self.server_cpu_pct {
            write!(f, " (server at {pct:.0}% of a core)")?;
        }
        if let Some(ms) = self.db_cpu_ms_per_move {
            write!(f, ", database {ms:.4} ms")?;
        }
        Ok(())
    }
}

pub fn run(args: LoadArgs) -> anyhow::Result<()> {
    if args.tables == 0 {
        return Err(user("--tables must be at least 1"));
    }
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(user("--seconds must be a positive number"));
    }
    if !(args.warmup >= 0.0 && args.warmup.is_finite()) {
        return Err(user("--warmup must be zero or more seconds"));
    }
    let mut config = args.options.to_config(&args.game)?;
    if let serde_json::Value::Object(map) = &mut config {
        let game = catalog::game(&args.game).map_err(user)?;
        let defaults = game.default_config();
        if args.options.players.is_none() {
            // The smallest table, unless --players says otherwise.
            game.with_players(map, game.about().players.min)
                .map_err(user)?;
        }
        if defaults.get("max_rounds").is_some() {
            map.entry("max_rounds").or_insert(1.into());
        }
    }
    let base = args.addr.trim_end_matches('/').to_string();
    let ws_base = if let Some(rest) = base.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if let Some(rest) = base.strip_prefix("https://") {
        format!("wss://{rest}")
    } else {
        return Err(user(format!(
            "--addr takes http://HOST:PORT, not `{}`",
            args.addr
        )));
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let run = Run {
        base,
        ws_base,
        create: serde_json::to_vec(&serde_json::json!({
            "game": args.game,
            "options": config,
            "seats": ["human", "human"],
        }))?,
        http: reqwest::Client::builder()
            .tcp_nodelay(true)
            .build()
            .map_err(anyhow::Error::new)?,
        stats: RefCell::new(Stats::default()),
        stopping: std::cell::Cell::new(false),
    };
    let report = runtime.block_on(tokio::task::LocalSet::new().run_until(drive(
        Rc::new(run),
        args.tables,
        Duration::from_secs_f64(args.seconds),
        Duration::from_secs_f64(args.warmup),
        args.server_pid,
        &args.db_pids,
    )))?;
    print_report(&report, args.json)
}

/// The shared, single-threaded state of a run.
struct Run {
    base: String,
    ws_base: String,
    /// The body of every table creation.
    create: Vec<u8>,
    http: reqwest::Client,
    stats: RefCell<Stats>,
    stopping: std::cell::Cell<bool>,
}

#[derive(Default)]
struct Stats {
    measuring: bool,
    moves: u64,
    games: u64,
    /// Latencies of the measured moves, in microseconds.
    latencies: Vec<u32>,
    errors: u64,
    error_codes: BTreeMap<String, u64>,
    /// The first failure that was not an error answer (a refused connection...).
    first_failure: Option<String>,
}

impl Run {
    fn fail(&self, what: String) {
        let mut stats = self.stats.borrow_mut();
        stats.errors += 1;
        stats.first_failure.get_or_insert(what);
    }
}

/// What `/proc/PID/stat` tells of a process: its parent and its CPU time so far (user +
/// system), in seconds.
fn proc_stat(pid: u32) -> anyhow::Result<(u32, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| user(format!("cannot read the CPU time of process {pid}: {e}")))?;
    // Fields after the command name (which may hold spaces): state is field 3, the parent
    // 4, utime 14, stime 15 (in clock ticks of 1/100 s, the USER_HZ Linux reports).
    let rest = stat
        .rsplit_once(") ")
        .map(|(_, r)| r)
        .ok_or_else(|| anyhow::anyhow!("unexpected /proc/{pid}/stat"))?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let number = |i: usize| -> anyhow::Result<f64> {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .ok_or_else(|| anyhow::anyhow!("unexpected /proc/{pid}/stat"))
    };
    Ok((number(1)? as u32, (number(11)? + number(12)?) / 100.0))
}

/// CPU seconds of every process in `pids` together.
fn cpu_of(pids: &[u32]) -> anyhow::Result<f64> {
    pids.iter().map(|&p| Ok(proc_stat(p)?.1)).sum()
}

/// CPU seconds so far of each of `roots` and of every process descending from them (a
/// database's workers, forked by its main process whenever a connection opens), by pid.
/// A root that cannot be read is an error; a descendant gone while reading is skipped.
fn tree_cpu(roots: &[u32]) -> anyhow::Result<BTreeMap<u32, f64>> {
    let mut cpu = BTreeMap::new();
    for &root in roots {
        cpu.insert(root, proc_stat(root)?.1);
    }
    if cpu.is_empty() {
        return Ok(cpu);
    }
    let mut others = Vec::new();
    for entry in std::fs::read_dir("/proc")?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if !cpu.contains_key(&pid) {
            if let Ok((parent, seconds)) = proc_stat(pid) {
                others.push((pid, parent, seconds));
            }
        }
    }
    // Parents may come after their children in /proc: repeat until nothing joins.
    loop {
        let before = cpu.len();
        others.retain(|&(pid, parent, seconds)| {
            let joins = cpu.contains_key(&parent);
            if joins {
                cpu.insert(pid, seconds);
            }
            !joins
        });
        if cpu.len() == before {
            return Ok(cpu);
        }
    }
}

/// CPU seconds the process trees used between two [`tree_cpu`] readings: a process born in
/// between counts from its start; one gone by the second reading is not counted.
fn tree_used(start: &BTreeMap<u32, f64>, end: &BTreeMap<u32, f64>) -> f64 {
    end.iter()
        .map(|(pid, seconds)| seconds - start.get(pid).copied().unwrap_or(0.0))
        .sum()
}

async fn drive(
    run: Rc<Run>,
    tables: usize,
    seconds: Duration,
    warmup: Duration,
    server_pid: Option<u32>,
    db_pids: &[u32],
) -> anyhow::Result<LoadReport> {
    let server: Vec<u32> = server_pid.into_iter().collect();
    cpu_of(&server)?;
    tree_cpu(db_pids)?;
    // Set up: every table's first lane created and synced, in groups of 50.
    let mut first = Vec::with_capacity(tables);
    for chunk in (0..tables).collect::<Vec<_>>().chunks(50) {
        let lanes = futures_util::future::join_all(chunk.iter().map(|_| Lane::open(&run))).await;
        for lane in lanes {
            first.push(lane?);
        }
    }
    let handles: Vec<_> = first
        .into_iter()
        .map(|lane| tokio::task::spawn_local(table_loop(run.clone(), lane)))
        .collect();
    tokio::time::sleep(warmup).await;
    let own = [std::process::id()];
    let (c0, s0, d0) = (cpu_of(&own)?, cpu_of(&server)?, tree_cpu(db_pids)?);
    run.stats.borrow_mut().measuring = true;
    let start = Instant::now();
    tokio::time::sleep(seconds).await;
    run.stats.borrow_mut().measuring = false;
    let elapsed = start.elapsed().as_secs_f64();
    let (c1, s1, d1) = (cpu_of(&own)?, cpu_of(&server)?, tree_cpu(db_pids)?);
    run.stopping.set(true);
    for handle in handles {
        handle.abort();
    }
    let mut stats = run.stats.take();
    if stats.moves == 0 {
        return Err(anyhow::anyhow!(
            "no move was played in the measured window ({} errors{})",
            stats.errors,
            stats
                .first_failure
                .map(|f| format!(", the first: {f}"))
                .unwrap_or_default()
        ));
    }
    stats.latencies.sort_unstable();
    let quantile = |q: f64| {
        let i = ((q * stats.latencies.len() as f64) as usize).min(stats.latencies.len() - 1);
        f64::from(stats.latencies[i]) / 1000.0
    };
    let per_move = |cpu: f64| cpu * 1000.0 / stats.moves as f64;
    Ok(LoadReport {
        tables,
        seconds: elapsed,
        moves: stats.moves,
        moves_per_s: stats.moves as f64 / elapsed,
        p50_ms: quantile(0.5),
        p90_ms: quantile(0.9),
        p99_ms: quantile(0.99),
        max_ms: quantile(1.0),
        games_finished: stats.games,
        errors: stats.errors,
        error_codes: stats.error_codes,
        client_cpu_ms_per_move: per_move(c1 - c0),
        server_cpu_ms_per_move: server_pid.map(|_| per_move(s1 - s0)),
        server_cpu_pct: server_pid.map(|_| (s1 - s0) / elapsed * 100.0),
        db_cpu_ms_per_move: (!db_pids.is_empty()).then(|| per_move(tree_used(&d0, &d1))),
    })
}

/// One table forever: plays its current lane while the next one is prepared.
async fn table_loop(run: Rc<Run>, mut lane: Lane) {
    loop {
        let next = tokio::task::spawn_local(Lane::open_retrying(run.clone()));
        lane.play(&run).await;
        if run.stopping.get() {
            return;
        }
        lane = match next.await {
            Ok(Some(lane)) => lane,
            _ => return,
        };
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What the load generator reads of a server message.
#[derive(Deserialize)]
struct Pushed<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    to_act: Option<usize>,
    #[serde(default, borrow)]
    status: Option<&'a str>,
    #[serde(default, borrow)]
    legal: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    code: Option<std::borrow::Cow<'a, str>>,
}

impl<'a> Pushed<'a> {
    /// Reads a server message. A `state` message has every field read here before its
    /// `view` (docs/http-api.md gives the order), so only the part before the view is
    /// parsed: the view and the events are most of the text and none of the playing. An
    /// unquoted `,"view":` can only be the field itself (quotes inside strings are
    /// escaped); anything else is parsed whole.
    fn read(text: &'a str) -> serde_json::Result<Pushed<'a>> {
        const VIEW: &str = ",\"view\":";
        if text.starts_with("{\"type\":\"state\"") {
            if let Some(at) = text.find(VIEW) {
                let mut head = String::with_capacity(at + 1);
                head.push_str(&text[..at]);
                head.push('}');
                if let Ok(pushed) = serde_json::from_str::<Pushed<'_>>(&head) {
                    return Ok(pushed.into_owned());
                }
            }
        }
        serde_json::from_str(text)
    }

    /// `self` without borrowing (read from a copy of part of the message): the kind and
    /// status as far as playing tells them apart, the legal actions and code copied.
    fn into_owned(self) -> Pushed<'static> {
        Pushed {
            kind: if self.kind == "state" {
                "state"
            } else {
                "other"
            },
            version: self.version,
            to_act: self.to_act,
            status: match self.status {
                Some("finished") => Some("finished"),
                Some(_) => Some("running"),
                None => None,
            },
            legal: (self.legal.into_iter())
                .map(|a| std::borrow::Cow::Owned(a.into_owned()))
                .collect(),
            code: self.code.map(|c| std::borrow::Cow::Owned(c.into_owned())),
        }
    }
}

/// One seat's last state, as far as playing needs it.
#[derive(Default)]
struct Seen {
    version: u64,
    to_act: Option<usize>,
    finished: bool,
    legal: Vec<String>,
}

/// One table's two sockets.
struct Lane {
    sockets: [Socket; 2],
    seen: [Seen; 2],
}

/// Socket buffers for small messages: tungstenite zero-fills its read buffer before every
/// read, so its 128 KiB default would cost more than the rest of a move.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

impl Lane {
    /// Creates a table and connects both seats, each synced with its first state.
    async fn open(run: &Run) -> anyhow::Result<Lane> {
        #[derive(Deserialize)]
        struct Created {
            id: String,
            seats: Vec<CreatedSeat>,
        }
        #[derive(Deserialize)]
        struct CreatedSeat {
            token: Option<String>,
        }
        let response = run
            .http
            .post(format!("{}/api/tables", run.base))
            .header("content-type", "application/json")
            .body(run.create.clone())
            .send()
            .await?;
        let status = response.status();
        let body = response.bytes().await?;
        if status != reqwest::StatusCode::CREATED {
            return Err(anyhow::anyhow!(
                "creating a table: {status} {}",
                String::from_utf8_lossy(&body)
            ));
        }
        let created: Created = serde_json::from_slice(&body)?;
        if created.seats.len() != 2 {
            return Err(user(format!(
                "the load model needs two-seat tables, but the server made {} seats",
                created.seats.len()
            )));
        }
        let mut sockets = Vec::with_capacity(2);
        let mut seen = [Seen::default(), Seen::default()];
        for (seat, info) in created.seats.iter().enumerate() {
            let token = info
                .token
                .as_deref()
                .ok_or_else(|| anyhow::anyhow!("the server gave seat {} no token", seat + 1))?;
            let url = format!("{}/api/tables/{}/ws?token={token}", run.ws_base, created.id);
            let (mut socket, _) =
                tokio_tungstenite::connect_async_with_config(url, Some(socket_config()), true)
                    .await?;
            loop {
                match socket.next().await {
                    Some(Ok(Message::Text(text))) => {
                        let pushed = Pushed::read(text.as_str())?;
                        if pushed.kind == "state" {
                            seen[seat].update(&pushed);
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(e.into()),
                    None => return Err(anyhow::anyhow!("the socket closed before its state")),
                }
            }
            sockets.push(socket);
        }
        let sockets: [Socket; 2] = sockets
            .try_into()
            .map_err(|_| anyhow::anyhow!("two sockets"))?;
        Ok(Lane { sockets, seen })
    }

    /// [`Lane::open`] until it works or the run stops; failures count as errors.
    async fn open_retrying(run: Rc<Run>) -> Option<Lane> {
        loop {
            if run.stopping.get() {
                return None;
            }
            match Lane::open(&run).await {
                Ok(lane) => return Some(lane),
                Err(e) => {
                    run.fail(format!("{e:#}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }

    /// Plays the table to its end (or until the run stops).
    async fn play(&mut self, run: &Run) {
        let mut pending: [Option<(u64, Instant)>; 2] = [None, None];
        for seat in 0..2 {
            if !self.offer(run, seat, &mut pending).await {
                return;
            }
        }
        while !(self.seen[0].finished && self.seen[1].finished) {
            let [a, b] = &mut self.sockets;
            let (seat, message) = tokio::select! {
                m = a.next() => (0, m),
                m = b.next() => (1, m),
            };
            let text = match message {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_))) | None => {
                    run.fail(format!("seat {} socket closed mid-game", seat + 1));
                    return;
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => {
                    run.fail(format!("seat {} socket: {e}", seat + 1));
                    return;
                }
            };
            let pushed = match Pushed::read(text.as_str()) {
                Ok(p) => p,
                Err(e) => {
                    run.fail(format!("unreadable message: {e}"));
                    continue;
                }
            };
            match pushed.kind {
                "error" => {
                    let mut stats = run.stats.borrow_mut();
                    stats.errors += 1;
                    let code = pushed.code.as_deref().unwrap_or("unknown").to_string();
                    *stats.error_codes.entry(code).or_default() += 1;
                    pending[seat] = None;
                }
                "state" => {
                    self.seen[seat].update(&pushed);
                    if let Some((version, sent)) = pending[seat] {
                        if pushed.version > version {
                            pending[seat] = None;
                            let mut stats = run.stats.borrow_mut();
                            if stats.measuring {
                                stats.moves += 1;
                                let micros = sent.elapsed().as_micros();
                                stats
                                    .latencies
                                    .push(u32::try_from(micros).unwrap_or(u32::MAX));
                            }
                        }
                    }
                    if self.seen[seat].finished {
                        if self.seen[1 - seat].finished {
                            let mut stats = run.stats.borrow_mut();
                            if stats.measuring {
                                stats.games += 1;
                            }
                        }
                        continue;
                    }
                }
                _ => continue,
            }
            if !self.offer(run, seat, &mut pending).await {
                return;
            }
        }
        for socket in &mut self.sockets {
            let _ = socket.close(None).await;
        }
    }

    /// Sends a random legal move for `seat` if it is to act and has none in flight;
    /// `false` when the socket failed or the run stops.
    async fn offer(
        &mut self,
        run: &Run,
        seat: usize,
        pending: &mut [Option<(u64, Instant)>; 2],
    ) -> bool {
        if run.stopping.get() {
            return false;
        }
        let seen = &self.seen[seat];
        if pending[seat].is_some() || seen.finished || seen.to_act != Some(seat) {
            return true;
        }
        if seen.legal.is_empty() {
            return true;
        }
        #[derive(Serialize)]
        struct Action<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            action: &'a str,
            version: u64,
        }
        let action = &seen.legal[rand::rng().random_range(0..seen.legal.len())];
        let message = serde_json::to_string(&Action {
            kind: "action",
            action,
            version: seen.version,
        })
        .unwrap_or_default();
        pending[seat] = Some((seen.version, Instant::now()));
        if let Err(e) = self.sockets[seat].send(Message::text(message)).await {
            run.fail(format!("seat {} send: {e}", seat + 1));
            return false;
        }
        true
    }
}

impl Seen {
    fn update(&mut self, pushed: &Pushed<'_>) {
        if pushed.version < self.version {
            return;
        }
        self.version = pushed.version;
        self.to_act = pushed.to_act;
        self.finished = pushed.status == Some("finished");
        self.legal.clear();
        self.legal
            .extend(pushed.legal.iter().map(|a| a.as_ref().to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_tree_takes_in_children_and_their_children() {
        // `sh` forks `sleep`: a child and a grandchild of this process.
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & wait"])
            .spawn()
            .expect("sh runs");
        let shell_pid = shell.id();
        let me = std::process::id();
        let mut grandchild = None;
        for _ in 0..200 {
            let tree = tree_cpu(&[me]).expect("readable");
            grandchild = tree
                .keys()
                .copied()
                .find(|&pid| proc_stat(pid).is_ok_and(|(p, _)| p == shell_pid));
            if grandchild.is_some() {
                assert!(tree.contains_key(&shell_pid), "the child is in the tree");
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = shell.kill();
        let _ = shell.wait();
        if let Some(pid) = grandchild {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
        }
        assert!(grandchild.is_some(), "the grandchild is in the tree");
    }

    #[test]
    fn a_process_born_between_readings_counts_from_its_start_and_one_gone_is_left_out() {
        let start = BTreeMap::from([(1, 5.0), (2, 1.0)]);
        let end = BTreeMap::from([(1, 7.5), (3, 0.25)]);
        assert_eq!(tree_used(&start, &end), 2.75);
    }

    #[test]
    fn a_database_pid_of_no_process_is_refused() {
        let refused = tree_cpu(&[u32::MAX]).expect_err("no such process");
        assert!(refused.to_string().contains("cannot read"), "{refused}");
    }
}
