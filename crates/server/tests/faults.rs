//! Faults the server survives (docs/operations.md): a full disk under SQLite, PostgreSQL
//! stopped and started during play. Writes are refused with `503 store/unavailable` and
//! `Retry-After`, nothing changes in memory, and play resumes at the same version once
//! the store is back, without a restart.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use server::AppState;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A call's status, `Retry-After` and JSON body.
async fn call(
    state: &AppState,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: &Value,
) -> (StatusCode, Option<String>, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request.body(Body::from(body.to_string())).expect("request");
    let (status, headers, bytes) = common::send_raw(state, request).await;
    let retry = headers
        .get("retry-after")
        .map(|v| v.to_str().expect("ASCII").to_string());
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, retry, json)
}

/// Checks a refusal for want of a store: 503, the code, words, and `Retry-After`.
fn assert_unavailable(answer: &(StatusCode, Option<String>, Value)) {
    assert_eq!(answer.0, StatusCode::SERVICE_UNAVAILABLE, "{answer:?}");
    common::assert_coded(&answer.2, "store/unavailable");
    assert_eq!(answer.1.as_deref(), Some("5"), "Retry-After of {answer:?}");
    assert_eq!(answer.2["retry_after"], 5);
}

/// The move seat `seat` would make at table `id` now: the version and a legal action;
/// `None` while a bot (a seat without a token) is to act.
async fn next_move(state: &AppState, id: &str, tokens: &[String]) -> Option<(usize, u64, String)> {
    let view = common::seat_view(state, id, &tokens[0]).await;
    let seat = view["to_act"].as_u64()? as usize;
    if tokens[seat].is_empty() {
        return None;
    }
    let view = common::seat_view(state, id, &tokens[seat]).await;
    let legal = view["legal"].as_array().expect("legal");
    let pick = (view["version"].as_u64().expect("version") as usize * 7) % legal.len();
    let action = legal[pick].as_str().expect("text").to_string();
    Some((seat, view["version"].as_u64().expect("version"), action))
}

/// A seat's view during an outage: it says `"storage": "unavailable"`; the rest of it is
/// returned.
async fn unchanged(state: &AppState, id: &str, token: &str) -> Value {
    let mut view = common::seat_view(state, id, token).await;
    let said = view.as_object_mut().and_then(|v| v.remove("storage"));
    assert_eq!(said, Some(json!("unavailable")));
    view
}

/// A 2 MiB tmpfs mounted on a scratch folder, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// `None` (said on stderr) where this process may not mount (not root, or in a
    /// container without the right).
    fn mount() -> Option<Tmpfs> {
        let dir = tempfile::Builder::new()
            .prefix("tabletop-full-")
            .tempdir()
            .expect("scratch");
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
            .arg(dir.path())
            .output();
        match out {
            Ok(out) if out.status.success() => Some(Tmpfs { dir }),
            Ok(out) => {
                eprintln!(
                    "\n!!!!!!!!!! SKIPPING THE FULL-DISK TEST: mount -t tmpfs failed ({}); run the tests as root (see docs/operations.md) !!!!!!!!!!\n",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("\n!!!!!!!!!! SKIPPING THE FULL-DISK TEST: no mount ({e}) !!!!!!!!!!\n");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Fills the file system of `dir` with one file, until it refuses another byte.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).expect("filler");
    let chunk = vec![0xa5u8; 4096];
    loop {
        match file.write(&chunk) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.raw_os_error() == Some(28) => break, // ENOSPC
            Err(e) => panic!("filling the disk: {e}"),
        }
    }
    let _ = file.sync_all();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_creates_and_moves_then_takes_the_same_move() {
    let Some(disk) = Tmpfs::mount() else { return };
    let file = disk.path().join("tabletop.sqlite");
    let url = format!("sqlite://{}", file.display());
    let state = common::open_unlimited(&url).await;
    let (id, tokens) = common::table_on(
        &state,
        json!({"game": "distopia", "seed": 11, "seats": ["human", "human"]}),
    )
    .await;
    for _ in 0..4 {
        let (seat, version, action) = next_move(&state, &id, &tokens).await.expect("a move");
        let (status, body) = common::act(&state, &id, &tokens[seat], &action, version).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    let filler = fill(disk.path());
    let (seat, version, action) = next_move(&state, &id, &tokens).await.expect("a move");
    let before = common::seat_view(&state, &id, &tokens[seat]).await;
    let uri = format!("/api/tables/{id}/actions");
    let body = json!({"action": action, "version": version});
    let refused = call(&state, "POST", &uri, Some(&tokens[seat]), &body).await;
    assert_unavailable(&refused);
    assert_eq!(
        refused.2["message"],
        "the game's storage cannot be reached just now, so nothing was changed: try again in a few seconds"
    );
    // Nothing changed: the same view, the same version, and it says storage is away.
    assert_eq!(unchanged(&state, &id, &tokens[seat]).await, before);
    let created = call(
        &state,
        "POST",
        "/api/tables",
        None,
        &json!({"game": "dropsite"}),
    )
    .await;
    assert_unavailable(&created);
    // Reads are served meanwhile.
    let (status, _) = common::get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);

    std::fs::remove_file(filler).expect("free the space");
    let (status, played) = common::act(&state, &id, &tokens[seat], &action, version).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the refused move, once space is back: {played}"
    );
    assert_eq!(played["version"], version + 1);
    let (status, _) =
        common::post_json(&state, "/api/tables", None, &json!({"game": "dropsite"})).await;
    assert_eq!(status, StatusCode::CREATED);

    // The file is whole, and holds every acknowledged move once.
    let db = rusqlite::Connection::open(&file).expect("open");
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check");
    assert_eq!(check, "ok");
    let stored: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?1",
            [&id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(stored as u64, version + 1);
    drop(db);
    drop(state);
}

/// What one table's player saw: the moves acknowledged (version, action), those refused
/// for want of a store, and those refused whose row was stored all the same (the
/// database went away between its commit and its answer: the table reads it back).
#[derive(Default)]
struct Seen {
    acked: Vec<(u64, String)>,
    refused: usize,
    stored_unanswered: Vec<(u64, String)>,
    finished: bool,
    /// A bot plays the other seat.
    bot: bool,
}

/// Plays table `id` until `stop` is set: a move at a time; a move refused with the coded
/// 503 is sent again, the same at the same version, until the store takes it.
async fn player(
    state: AppState,
    id: String,
    tokens: Vec<String>,
    seen: Arc<Mutex<Seen>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) {
    let uri = format!("/api/tables/{id}/actions");
    let mut pending: Option<(usize, u64, String)> = None;
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        let (seat, version, action) = match pending.take() {
            Some(p) => p,
            None => {
                let view = common::seat_view(&state, &id, &tokens[0]).await;
                if view["status"] == "finished" {
                    seen.lock().expect("seen").finished = true;
                    return;
                }
                match next_move(&state, &id, &tokens).await {
                    Some(next) => next,
                    None => {
                        // The bot's turn: it moves by itself, once the store takes it.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                }
            }
        };
        let body = json!({"action": action, "version": version});
        let answer = call(&state, "POST", &uri, Some(&tokens[seat]), &body).await;
        match answer.0 {
            StatusCode::OK => {
                assert_eq!(answer.2["version"], version + 1);
                seen.lock().expect("seen").acked.push((version, action));
                // At a person's pace, fast: the games last through the outage.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                assert_unavailable(&answer);
                seen.lock().expect("seen").refused += 1;
                pending = Some((seat, version, action));
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            StatusCode::CONFLICT if answer.2["code"] == "action/stale_version" => {
                // Only after a refusal: its row was stored though its answer was lost.
                let refused_before = seen.lock().expect("seen").refused > 0;
                assert!(
                    refused_before,
                    "a stale version with one player: {answer:?}"
                );
                seen.lock()
                    .expect("seen")
                    .stored_unanswered
                    .push((version, action));
            }
            _ => panic!("table {id}: {answer:?}"),
        }
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next text message of a socket, as JSON (within 10 s).
async fn next_text(ws: &mut Ws) -> Value {
    use futures_util::StreamExt;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("open")
            .expect("a message");
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).expect("JSON");
        }
    }
}

/// Reads a socket for good, keeping its `storage` messages in `heard`.
async fn storage_messages(mut ws: Ws, heard: Arc<Mutex<Vec<Value>>>) {
    use futures_util::StreamExt;
    while let Some(Ok(message)) = ws.next().await {
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            let message: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if message["type"] == "storage" {
                heard.lock().expect("heard").push(message);
            }
        }
    }
}

/// Plays `tables` tables while the private PostgreSQL is stopped and started again.
async fn postgres_outage(tables: usize) {
    let Some(cluster) = common::cluster::Cluster::start() else {
        return;
    };
    let store = server::PgStore::connect(&cluster.url())
        .await
        .expect("the cluster");
    let state = AppState::with_limits(Arc::new(store), common::unlimited())
        .await
        .expect("state");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut players = Vec::new();
    let mut seen = Vec::new();
    for t in 0..tables {
        // Every fourth table has a bot: it must go on by itself after the outage.
        let seats = if t % 4 == 3 {
            json!(["human", "random"])
        } else {
            json!(["human", "human"])
        };
        let table = common::create_table(
            &state,
            json!({"game": "distopia", "seed": t, "seats": seats}),
        )
        .await;
        let id = common::table_id(&table);
        let log = Arc::new(Mutex::new(Seen {
            bot: t % 4 == 3,
            ..Seen::default()
        }));
        seen.push((id.clone(), log.clone()));
        players.push(tokio::spawn(player(
            state.clone(),
            id,
            common::seat_tokens(&table),
            log,
            stop.clone(),
        )));
    }
    let acked = |seen: &[(String, Arc<Mutex<Seen>>)]| -> usize {
        seen.iter()
            .map(|(_, s)| s.lock().expect("seen").acked.len())
            .sum()
    };
    // A spectator's socket at the first table hears of the outage and of its end.
    let addr = common::spawn(state.clone()).await;
    let watch = format!("ws://{addr}/api/tables/{}/ws", seen[0].0);
    let (ws, _) = tokio_tungstenite::connect_async(&watch).await.expect("ws");
    let heard: Arc<Mutex<Vec<Value>>> = Arc::default();
    let told = tokio::spawn(storage_messages(ws, heard.clone()));
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = acked(&seen);
    assert!(before >= tables, "{before} moves before the outage");

    let stopped = Instant::now();
    cluster.stop();
    // During the outage: tables are read from memory, the server is alive, not ready.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (status, _) = common::get(&state, "/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = common::get(&state, "/readyz", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (status, _) = common::get(&state, &format!("/api/tables/{}", seen[0].0), None).await;
    assert_eq!(status, StatusCode::OK);
    // A snapshot asked for over HTTP says so too.
    let spectate = format!("/api/tables/{}/spectate", seen[0].0);
    let (status, snapshot) = common::get(&state, &spectate, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(snapshot["storage"], "unavailable");
    assert!(snapshot["view"].is_object(), "{snapshot}");
    let during = acked(&seen);
    // A page that connects during the outage is told at once.
    let (mut late, _) = tokio_tungstenite::connect_async(&watch).await.expect("ws");
    let first = next_text(&mut late).await;
    assert_eq!(first["type"], "storage", "{first}");
    assert_eq!(first["available"], false);
    assert_eq!(
        first["message"],
        "Reconnecting to storage: moves wait until it is back."
    );
    cluster.start_again();
    let outage = stopped.elapsed();

    // Play goes on, without a restart: every table moves again.
    let resumed = Instant::now();
    let at_restart: Vec<usize> = (seen.iter())
        .map(|(_, s)| s.lock().expect("seen").acked.len())
        .collect();
    loop {
        let moved = seen
            .iter()
            .zip(&at_restart)
            .filter(|((_, s), &n)| {
                let s = s.lock().expect("seen");
                s.acked.len() >= n + 3 || s.finished
            })
            .count();
        if moved == tables {
            break;
        }
        assert!(
            resumed.elapsed() < Duration::from_secs(60),
            "{moved} of {tables} tables moved again within 60 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let back_in = resumed.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for p in players {
        p.await.expect("a player");
    }
    told.abort();
    let _ = told.await;
    let told: Vec<Value> = heard.lock().expect("heard").clone();
    let availability: Vec<bool> = (told.iter())
        .map(|m| m["available"].as_bool().expect("available"))
        .collect();
    assert_eq!(availability, [false, true], "{told:?}");
    let (_, snapshot) = common::get(&state, &spectate, None).await;
    assert!(snapshot.get("storage").is_none(), "{snapshot}");
    // One outage, counted once; every refusal counted by its code.
    let request = Request::get("/metrics")
        .body(Body::empty())
        .expect("request");
    let (_, _, bytes) = common::send_raw(&state, request).await;
    let metrics = crate::health::parse(std::str::from_utf8(&bytes).expect("UTF-8"));
    assert_eq!(metrics["tabletop_store_outages_total"], 1.0);
    assert_eq!(metrics["tabletop_store_up"], 1.0);
    let refusals = metrics["tabletop_refusals_total{code=\"store/unavailable\"}"];

    // Every acknowledged move is stored once, at its version; nothing else is stored but
    // the moves whose answer was lost with the connection.
    let check = server::PgStore::connect(&cluster.url())
        .await
        .expect("the cluster again");
    let (mut refused, mut unanswered, mut total) = (0, 0, 0);
    for (id, log) in &seen {
        let rows = server::domain::Store::actions(&check, id, 0)
            .await
            .expect("rows");
        let log = log.lock().expect("seen");
        let mut expected: Vec<(u64, String)> = log.acked.clone();
        expected.extend(log.stored_unanswered.iter().cloned());
        expected.sort();
        let stored: Vec<(u64, String)> = rows.into_iter().map(|r| (r.seq, r.action)).collect();
        if log.bot {
            // The bot's moves are stored too: the player's are each at their place.
            for mine in &expected {
                assert!(stored.contains(mine), "table {id}: {mine:?} is not stored");
            }
            let seqs: std::collections::BTreeSet<u64> = stored.iter().map(|r| r.0).collect();
            assert_eq!(
                seqs.len(),
                stored.len(),
                "table {id}: a version stored twice"
            );
        } else {
            assert_eq!(stored, expected, "table {id}");
        }
        refused += log.refused;
        unanswered += log.stored_unanswered.len();
        total += log.acked.len();
    }
    let finished = (seen.iter())
        .filter(|(_, s)| s.lock().expect("seen").finished)
        .count();
    // The players' refusals, and the one of `/readyz` during the outage.
    assert_eq!(refusals, refused as f64 + 1.0, "refusals counted");
    assert!(
        refused > 0,
        "no move was refused during the outage ({total} moves, {finished} games finished)"
    );
    println!(
        "postgres outage at {tables} tables: {before} moves before, {} during the stop ({outage:.1?} down), {total} acknowledged in all, {refused} refused with 503 store/unavailable, {unanswered} stored though unanswered, every table moving again {back_in:.1?} after the restart",
        during - before,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_during_play_refuses_then_resumes() {
    postgres_outage(4).await;
}

/// The issue's size: `cargo nextest run -p server --run-ignored only -E
/// 'test(/faults::postgres_outage_at_200_tables/)' --no-capture` (docs/operations.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "200 tables: about a minute; run by hand (docs/operations.md)"]
async fn postgres_outage_at_200_tables() {
    postgres_outage(200).await;
}

/// This process's resident memory, in KiB (`VmRSS`).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// A client's text frame (masked, as a client's must be) of `text`, under 126 bytes.
fn masked_text_frame(text: &str) -> Vec<u8> {
    let mask = [0x37u8, 0xfa, 0x21, 0x3d];
    let mut frame = vec![0x81, 0x80 | u8::try_from(text.len()).expect("short")];
    frame.extend_from_slice(&mask);
    frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_cut_off_with_its_memory_bounded() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut state = common::memory_state().await;
    state.limits.send_timeout = Duration::from_secs(1);
    let addr = common::spawn(state.clone()).await;
    let table = common::create_table(
        &state,
        json!({"game": "euphoria", "seed": 2, "seats": ["human", "human"]}),
    )
    .await;
    let id = common::table_id(&table);
    // A client with a small receive buffer, that upgrades and then reads nothing more.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    let mut tcp = socket.connect(addr).await.expect("connect");
    let head = format!(
        "GET /api/tables/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.expect("upgrade");
    let mut answer = Vec::new();
    while !answer.ends_with(b"\r\n\r\n") {
        answer.push(tcp.read_u8().await.expect("the answer's head"));
    }
    assert!(
        answer.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let before = rss_kib();
    let metrics = |state: AppState| async move {
        let request = Request::get("/metrics")
            .body(Body::empty())
            .expect("request");
        let (_, _, bytes) = common::send_raw(&state, request).await;
        crate::health::parse(std::str::from_utf8(&bytes).expect("UTF-8"))
    };
    assert_eq!(metrics(state.clone()).await["tabletop_sockets_open"], 1.0);

    // Each `sync` asks for the whole state again; the client never takes one.
    let sync = masked_text_frame(r#"{"type":"sync"}"#);
    let started = Instant::now();
    let mut sent = 0u64;
    while sent < 1_000_000 {
        match tokio::time::timeout(Duration::from_secs(2), tcp.write_all(&sync)).await {
            Ok(Ok(())) => sent += 1,
            // The server stopped reading (its sends wait), or closed the socket.
            Ok(Err(_)) | Err(_) => break,
        }
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let cut_off = loop {
        let now = metrics(state.clone()).await;
        if now["tabletop_sockets_open"] == 0.0 {
            assert_eq!(now["tabletop_sockets_stalled_total"], 1.0);
            break started.elapsed();
        }
        assert!(Instant::now() < deadline, "the socket is still open");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let grown = rss_kib().saturating_sub(before);
    // The socket is closed: what was sent is drained, then the stream ends (or is reset).
    let mut sink = vec![0u8; 64 * 1024];
    let mut drained = 0usize;
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match tcp.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(n) => drained += n,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the stream never ended");
    println!(
        "a client that never reads: {sent} syncs sent, cut off after {cut_off:.1?}; \
         the process grew {grown} KiB meanwhile; {drained} bytes were left in the buffers"
    );
    assert!(grown < 16 * 1024, "the process grew {grown} KiB");
}

/// A TCP proxy to `target` that can be frozen: while frozen it takes bytes from both
/// sides and passes none on, as a network that hangs does.
async fn freezable_proxy(
    target: std::net::SocketAddr,
) -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicBool>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let frozen = Arc::new(AtomicBool::new(false));
    let pumps = frozen.clone();
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let Ok(outbound) = tokio::net::TcpStream::connect(target).await else {
                continue;
            };
            let (ri, wi) = inbound.into_split();
            let (ro, wo) = outbound.into_split();
            for (mut from, mut to) in [(ri, wo), (ro, wi)].map(|(r, w)| {
                (
                    Box::new(r) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
                    Box::new(w) as Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
                )
            }) {
                let frozen = pumps.clone();
                tokio::spawn(async move {
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    let mut buf = vec![0u8; 16 * 1024];
                    loop {
                        let n = match from.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        while frozen.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                        if to.write_all(&buf[..n]).await.is_err() {
                            return;
                        }
                    }
                });
            }
        }
    });
    (addr, frozen)
}

/// A database that hangs (the network to it frozen, nothing refused): each call is
/// bounded by `--store-timeout`, the move is refused in words, and the same move goes
/// through once the network is back, or is found stored (its commit was on the wire
/// when the time ran out): never lost, never twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_hangs_is_bounded_by_the_store_timeout() {
    let Some(cluster) = common::cluster::Cluster::start() else {
        return;
    };
    let target = std::net::SocketAddr::from(([127, 0, 0, 1], cluster.port));
    let (proxy, frozen) = freezable_proxy(target).await;
    let url = format!("postgres://postgres@{proxy}/postgres");
    let store = server::PgStore::connect(&url)
        .await
        .expect("through the proxy");
    let limits = server::Limits {
        store_timeout: Duration::from_secs(1),
        ..common::unlimited()
    };
    let state = AppState::with_limits(Arc::new(store), limits)
        .await
        .expect("state");
    let table = common::create_table(
        &state,
        json!({"game": "distopia", "seed": 21, "seats": ["human", "human"]}),
    )
    .await;
    let id = common::table_id(&table);
    let tokens = common::seat_tokens(&table);
    for _ in 0..3 {
        let (seat, version, action) = next_move(&state, &id, &tokens).await.expect("a move");
        let (status, body) = common::act(&state, &id, &tokens[seat], &action, version).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    frozen.store(true, std::sync::atomic::Ordering::SeqCst);
    let (seat, version, action) = next_move(&state, &id, &tokens).await.expect("a move");
    let before = common::seat_view(&state, &id, &tokens[seat]).await;
    let uri = format!("/api/tables/{id}/actions");
    let body = json!({"action": action, "version": version});
    let started = Instant::now();
    let refused = call(&state, "POST", &uri, Some(&tokens[seat]), &body).await;
    let took = started.elapsed();
    assert_unavailable(&refused);
    // The write left, and no answer came: the player is not told that nothing changed.
    assert_eq!(
        refused.2["message"],
        "the game's storage did not answer in time, so this may not have been done: the table shows it if it was; if not, try again in a few seconds"
    );
    assert!(took < Duration::from_secs(3), "refused after {took:?}");
    // Read from memory meanwhile, unchanged.
    assert_eq!(unchanged(&state, &id, &tokens[seat]).await, before);

    frozen.store(false, std::sync::atomic::Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(20);
    let outcome = loop {
        let answer = call(&state, "POST", &uri, Some(&tokens[seat]), &body).await;
        match answer.0 {
            StatusCode::OK => break "accepted when sent again",
            StatusCode::CONFLICT if answer.2["code"] == "action/stale_version" => {
                break "found stored (its commit had left before the time ran out)"
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(Instant::now() < deadline, "still refused: {answer:?}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            _ => panic!("{answer:?}"),
        }
    };
    // Either way the move is stored once, at its version, and the table is past it.
    let check = server::PgStore::connect(&cluster.url())
        .await
        .expect("direct");
    let rows = server::domain::Store::actions(&check, &id, 0)
        .await
        .expect("rows");
    assert_eq!(rows.len() as u64, version + 1);
    assert_eq!(rows[version as usize].action, action);
    let now = common::seat_view(&state, &id, &tokens[seat]).await;
    assert_eq!(now["version"], version + 1);
    println!("a database that hangs: refused after {took:.2?} (--store-timeout 1 s); the move was then {outcome}");
}
