//! `tabletop serve` as a process: killed with SIGKILL at random moments during live games,
//! restarted on the same database; every acknowledged move is still there and every game
//! goes on to its end.

use crate::common;
use server::testkit::skip;

use rand::prelude::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use server::Store;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::process::Child;
use tokio::time::{timeout, Instant};

struct Server {
    child: Child,
    addr: SocketAddr,
}

/// Starts `tabletop serve` on a free port of 127.0.0.1 and waits for its address.
async fn start(database: &str) -> Server {
    let (child, addr) = common::serve(database).await;
    Server { child, addr }
}

impl Server {
    /// kill -9, and wait for the process to be gone.
    async fn kill(mut self) {
        self.child.start_kill().expect("SIGKILL");
        let _ = timeout(Duration::from_secs(10), self.child.wait()).await;
    }
}

#[derive(Clone)]
struct TableInfo {
    id: String,
    tokens: Vec<Option<String>>,
}

/// Acknowledged moves per table: `(seq, action)`.
type Acked = Arc<Mutex<HashMap<String, Vec<(u64, String)>>>>;

const TABLES: &[(&str, &str)] = &[
    ("dropsite", r#"{"players": 2, "target": 50}"#),
    ("distopia", "{}"),
    ("euphoria", r#"{"players": 2}"#),
    ("dropsite", r#"{"players": 3, "target": 50}"#),
];
const SEATS: &[&[&str]] = &[
    &["human", "human"],
    &["human", "random"],
    &["random", "human"],
    &["human", "random", "human"],
];

async fn create(http: &reqwest::Client, addr: SocketAddr, kind: usize, seed: u64) -> TableInfo {
    let (game, options) = TABLES[kind];
    let options: Value = serde_json::from_str(options).expect("options");
    let body = json!({"game": game, "options": options, "seed": seed, "seats": SEATS[kind]});
    let table = common::remote::create_table(http, addr, &body).await;
    TableInfo {
        id: table["id"].as_str().expect("id").to_string(),
        tokens: common::remote::tokens(&table),
    }
}

/// One human seat playing random legal actions until the game ends, the server dies, or
/// `max_moves`; records every move the server acknowledged.
async fn player(
    http: reqwest::Client,
    addr: SocketAddr,
    id: String,
    token: String,
    acked: Acked,
    seed: u64,
    max_moves: usize,
) {
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
    let mut moves = 0;
    for _ in 0..100_000 {
        if moves >= max_moves {
            return;
        }
        let Ok(response) = http
            .get(format!("http://{addr}/api/tables/{id}/view"))
            .bearer_auth(&token)
            .timeout(Duration::from_secs(10))
            .send()
            .await
        else {
            return; // the server is gone
        };
        let Ok(view) = response.json::<Value>().await else {
            return;
        };
        if view["status"] == "finished" {
            return;
        }
        let legal: Vec<String> = serde_json::from_value(view["legal"].clone()).unwrap_or_default();
        let Some(action) = legal.choose(&mut rng).cloned() else {
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        let version = view["version"].as_u64().expect("version");
        let Ok(response) = http
            .post(format!("http://{addr}/api/tables/{id}/actions"))
            .bearer_auth(&token)
            .json(&json!({"action": action, "version": version}))
            .timeout(Duration::from_secs(10))
            .send()
            .await
        else {
            return;
        };
        let status = response.status();
        let Ok(body) = response.json::<Value>().await else {
            return;
        };
        if status == 200 {
            acked
                .lock()
                .expect("lock")
                .entry(id.clone())
                .or_default()
                .push((version, action));
            moves += 1;
        } else {
            // Only a race (with a bot's move, or a restart) can refuse a move chosen on a
            // fresh view.
            assert!(
                body["code"] == "action/stale_version" || body["code"] == "action/game_over",
                "{body}"
            );
        }
    }
}

/// Every acknowledged move is stored at its place.
async fn check_acked(store: &Arc<dyn Store>, acked: &Acked) -> usize {
    let acked = acked.lock().expect("lock").clone();
    let mut count = 0;
    for (id, moves) in &acked {
        let rows = store.actions(id, 0).await.expect("rows");
        for (seq, action) in moves {
            let row = rows
                .get(usize::try_from(*seq).expect("seq"))
                .unwrap_or_else(|| panic!("table {id}: acknowledged move {seq} is lost"));
            assert_eq!(&row.action, action, "table {id}: move {seq} changed");
            count += 1;
        }
    }
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_dash_nine_loses_no_acknowledged_move_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = format!("sqlite://{}", dir.path().join("serve.sqlite").display());
    kill_and_restart(&database, 24).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_dash_nine_loses_no_acknowledged_move_on_postgres() {
    let Some(pg) = Pg::schema("serve").await else {
        return;
    };
    kill_and_restart(&pg.database, 20).await;
    pg.drop().await;
}

/// A schema of this run's own on the test PostgreSQL (`TABLETOP_TEST_PG`), created by the
/// first server, and the `--database` URL that keeps everything in it.
struct Pg {
    url: String,
    schema: String,
    database: String,
}

impl Pg {
    /// `None` (said loudly, or a failure under CI) when PostgreSQL does not answer.
    async fn schema(tag: &str) -> Option<Pg> {
        let url = std::env::var("TABLETOP_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string());
        let schema = format!("t_{tag}_{}_{:x}", std::process::id(), rand::random::<u32>());
        let connected = tokio::time::timeout(
            Duration::from_secs(5),
            server::PgStore::connect_schema(&url, Some(&schema)),
        )
        .await;
        let problem = match connected {
            Ok(Ok(store)) => {
                drop(store);
                None
            }
            Ok(Err(e)) => Some(e.to_string()),
            Err(_) => Some("no answer within 5 s".to_string()),
        };
        if let Some(problem) = problem {
            let msg = format!(
                "PostgreSQL at {url} does not answer ({problem}); start it, or set \
                 TABLETOP_TEST_PG to a database that does"
            );
            skip::skip_unless_ci("A POSTGRESQL TEST", &msg);
            return None;
        }
        let sep = if url.contains('?') { '&' } else { '?' };
        let database = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        Some(Pg {
            url,
            schema,
            database,
        })
    }

    async fn drop(self) {
        if let Err(e) = server::PgStore::drop_schema(&self.url, &self.schema).await {
            eprintln!("could not drop schema {}: {e}", self.schema);
        }
    }
}

/// Starts a [`player`] for every person's seat of `tables`, each with a seed of its own.
fn players(
    http: &reqwest::Client,
    addr: SocketAddr,
    tables: &[(usize, TableInfo)],
    acked: &Acked,
    seed: &mut u64,
    max_moves: usize,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut handles = Vec::new();
    for (_, table) in tables {
        for token in table.tokens.iter().flatten() {
            *seed += 1;
            handles.push(tokio::spawn(player(
                http.clone(),
                addr,
                table.id.clone(),
                token.clone(),
                acked.clone(),
                *seed,
                max_moves,
            )));
        }
    }
    handles
}

/// Starts the server, plays, kills it with SIGKILL at a random moment, `kills` times;
/// then plays every game to its end.
async fn kill_and_restart(database: &str, kills: usize) {
    let database = database.to_string();
    let http = reqwest::Client::new();
    let acked: Acked = Arc::default();
    let mut rng = rand::rng();
    let mut seed = 100;
    let mut tables: Vec<(usize, TableInfo)> = Vec::new();
    let mut finished = 0usize;
    let started = Instant::now();
    for round in 0..=kills {
        assert!(
            started.elapsed() < Duration::from_secs(480),
            "the durability run took too long"
        );
        let server = start(&database).await;
        let store = server::store::open(&database).await.expect("store");
        let checked = check_acked(&store, &acked).await;
        // Every game is back where its stored moves put it, and goes on.
        let mut live = Vec::new();
        for (kind, table) in tables.drain(..) {
            // The stored moves first: a bot may move between the two reads, and the
            // version only rises, so the summary read after them must be at least as far.
            // On PostgreSQL the killed server's last commit (a move it never answered) may
            // still land after the new server read the table: the new one is told and
            // reads it in, so the summary may trail the stored moves for a moment.
            let stored = store.actions(&table.id, 0).await.expect("rows").len() as u64;
            let mut summary = Value::Null;
            for _ in 0..50 {
                let response = http
                    .get(format!("http://{}/api/tables/{}", server.addr, table.id))
                    .send()
                    .await
                    .expect("table after restart");
                assert_eq!(response.status(), 200);
                summary = response.json().await.expect("JSON");
                if summary["version"].as_u64().expect("version") >= stored {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            assert!(
                summary["version"].as_u64().expect("version") >= stored,
                "table {} was rebuilt at version {} but {stored} moves are stored (after 5 s)",
                table.id,
                summary["version"]
            );
            if summary["status"] == "finished" {
                finished += 1;
            } else {
                live.push((kind, table));
            }
        }
        tables = live;
        while tables.len() < TABLES.len() {
            let kind = (0..TABLES.len())
                .find(|k| !tables.iter().any(|(t, _)| t == k))
                .unwrap_or(0);
            seed += 1;
            tables.push((kind, create(&http, server.addr, kind, seed).await));
        }
        if round == kills {
            // The last server stays up: every game plays to its end.
            let handles = players(&http, server.addr, &tables, &acked, &mut seed, usize::MAX);
            for handle in handles {
                timeout(Duration::from_secs(240), handle)
                    .await
                    .expect("the games end")
                    .expect("player");
            }
            for (_, table) in &tables {
                let record = common::remote::record(&http, server.addr, &table.id).await;
                let game = catalog::game(&record.game).expect("game");
                let state = game.replay(&record).expect("the record replays");
                assert!(state.outcome().is_some());
                finished += 1;
            }
            let total = check_acked(&store, &acked).await;
            assert!(total >= checked);
            eprintln!(
                "durability ({}): {kills} kills, {total} acknowledged moves all kept, {finished} games finished",
                database.split(':').next().unwrap_or("?")
            );
            assert!(finished >= TABLES.len());
            server.kill().await;
            return;
        }
        let handles = players(&http, server.addr, &tables, &acked, &mut seed, 10_000);
        // Kill at a random moment: sometimes at once, mostly mid-play.
        let wait = if rng.random_bool(0.2) {
            rng.random_range(0..30)
        } else {
            rng.random_range(50..600)
        };
        tokio::time::sleep(Duration::from_millis(wait)).await;
        server.kill().await;
        for handle in handles {
            timeout(Duration::from_secs(30), handle)
                .await
                .expect("players stop when the server dies")
                .expect("player");
        }
    }
}

/// SIGTERM under load: the process answers what is in flight, closes every socket with a
/// reason, ends by itself, and every acknowledged move is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_loses_nothing_and_closes_sockets_with_a_reason() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::Message;
    let dir = tempfile::tempdir().expect("tempdir");
    let database = format!("sqlite://{}", dir.path().join("term.sqlite").display());
    let mut server = start(&database).await;
    let http = reqwest::Client::new();
    let acked: Acked = Arc::default();
    let mut tables = Vec::new();
    for kind in 0..TABLES.len() {
        for seed in 0..2 {
            tables.push((kind, create(&http, server.addr, kind, 700 + seed).await));
        }
    }
    // A spectator's socket at every table.
    let mut sockets = Vec::new();
    for (_, table) in &tables {
        let url = format!("ws://{}/api/tables/{}/ws", server.addr, table.id);
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
        sockets.push(ws);
    }
    let mut seed = 900;
    let handles = players(&http, server.addr, &tables, &acked, &mut seed, 100_000);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before: usize = acked.lock().expect("lock").values().map(Vec::len).sum();
    assert!(before > 0, "no move before the signal");

    let pid = server.child.id().expect("pid");
    let signalled = Instant::now();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(sent.success());
    let status = timeout(Duration::from_secs(20), server.child.wait())
        .await
        .expect("the server ends by itself within 20 s")
        .expect("wait");
    let ended = signalled.elapsed();
    assert!(status.success(), "the server ended with {status}");

    // Every socket was told why it closed.
    for mut ws in sockets {
        let close = timeout(Duration::from_secs(5), async {
            while let Some(message) = ws.next().await {
                match message {
                    Ok(Message::Close(frame)) => return frame,
                    Ok(_) => {}
                    Err(e) => panic!("a socket ended without a close frame: {e}"),
                }
            }
            None
        })
        .await
        .expect("a close frame")
        .expect("a close frame with a code");
        assert_eq!(close.code, CloseCode::Restart);
        assert!(close.reason.contains("restarting"), "{}", close.reason);
    }
    for handle in handles {
        timeout(Duration::from_secs(30), handle)
            .await
            .expect("players stop when the server is gone")
            .expect("player");
    }
    let store = server::store::open(&database).await.expect("store");
    let total = check_acked(&store, &acked).await;
    assert!(total >= before);
    eprintln!(
        "SIGTERM under load: {total} acknowledged moves all stored ({before} before the signal); the process ended {ended:.2?} after it, every socket closed with 1012"
    );
}

/// One seat's player across a cluster: plays on its server, and when that server is gone
/// goes on through the next one, until its game is over. Returns how many times it
/// reconnected.
async fn cluster_player(
    http: reqwest::Client,
    servers: Vec<SocketAddr>,
    first: usize,
    id: String,
    token: String,
    acked: Acked,
    seed: u64,
) -> usize {
    let mut at = first;
    let mut reconnected = 0;
    for attempt in 0..servers.len() * 50 {
        let addr = servers[at % servers.len()];
        player(
            http.clone(),
            addr,
            id.clone(),
            token.clone(),
            acked.clone(),
            seed + attempt as u64,
            usize::MAX,
        )
        .await;
        // Over, or its server is gone: ask there, then elsewhere.
        let summary = http
            .get(format!("http://{addr}/api/tables/{id}"))
            .timeout(Duration::from_secs(10))
            .send()
            .await;
        match summary {
            Ok(answer) => {
                let summary: Value = answer.json().await.expect("JSON");
                if summary["status"] == "finished" {
                    return reconnected;
                }
            }
            Err(_) => {
                at += 1;
                reconnected += 1;
            }
        }
    }
    panic!("table {id}: the player never saw its game end");
}

/// Three servers on one PostgreSQL, clients playing on all of them; one server is killed
/// with SIGKILL. Its clients reconnect to the others and find their tables there; every
/// game ends, no acknowledged move is lost, and none is stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_servers_one_killed_every_game_ends() {
    let Some(pg) = Pg::schema("three").await else {
        return;
    };
    let mut cluster = Vec::new();
    for _ in 0..3 {
        cluster.push(start(&pg.database).await);
    }
    let servers: Vec<SocketAddr> = cluster.iter().map(|s| s.addr).collect();
    let http = reqwest::Client::new();
    let acked: Acked = Arc::default();
    // Two tables made on each server (each kind of table, bots among them), played there.
    let mut handles = Vec::new();
    let mut tables = Vec::new();
    for (s, &addr) in servers.iter().enumerate() {
        for k in 0..2 {
            let kind = (2 * s + k) % TABLES.len();
            let table = create(&http, addr, kind, 300 + (2 * s + k) as u64).await;
            for token in table.tokens.iter().flatten() {
                handles.push((
                    s,
                    tokio::spawn(cluster_player(
                        http.clone(),
                        servers.clone(),
                        s,
                        table.id.clone(),
                        token.clone(),
                        acked.clone(),
                        1000 + handles.len() as u64 * 100,
                    )),
                ));
            }
            tables.push(table);
        }
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    let before: usize = acked.lock().expect("lock").values().map(Vec::len).sum();
    let victim = cluster.remove(1);
    victim.kill().await;

    let mut reconnected = 0;
    let mut on_victim = 0;
    for (s, handle) in handles {
        let again = timeout(Duration::from_secs(240), handle)
            .await
            .expect("every game ends within 240 s")
            .expect("player");
        if s == 1 {
            on_victim += 1;
            assert!(
                again >= 1,
                "a player of the killed server never reconnected"
            );
        }
        reconnected += again;
    }
    // Every game ended, as its record replays; every acknowledged move is stored once.
    let store = server::store::open(&pg.database).await.expect("store");
    let total = check_acked(&store, &acked).await;
    for (id, moves) in acked.lock().expect("lock").iter() {
        let mut seqs: Vec<u64> = moves.iter().map(|(seq, _)| *seq).collect();
        seqs.sort_unstable();
        let count = seqs.len();
        seqs.dedup();
        assert_eq!(
            seqs.len(),
            count,
            "table {id}: a version acknowledged twice"
        );
    }
    for table in &tables {
        let record = common::remote::record(&http, servers[0], &table.id).await;
        let stored = store.actions(&table.id, 0).await.expect("rows");
        let actions: Vec<&str> = stored.iter().map(|r| r.action.as_str()).collect();
        assert_eq!(record.actions, actions, "table {}", table.id);
        let game = catalog::game(&record.game).expect("game");
        let state = game.replay(&record).expect("the record replays");
        assert!(state.outcome().is_some(), "table {} is not over", table.id);
    }
    eprintln!(
        "three servers, one killed: {} games finished, {total} acknowledged moves all stored once ({before} before the kill), {on_victim} players of the killed server reconnected ({reconnected} reconnections)",
        tables.len()
    );
    for server in cluster {
        server.kill().await;
    }
    pg.drop().await;
}
