//! Ten thousand sockets on one server, by hand (docs/operations.md):
//! `cargo nextest run -p cli -E 'test(/^many::/)' --run-ignored only --no-capture`.
//!
//! Starts `tabletop serve` (`MANY_SERVER`, an absolute path, for a release build) with
//! room for the connections, makes `MANY_TABLES` (1,000) two-seat Drop Site tables, and
//! opens `MANY_SOCKETS` (10) sockets at each: both seats' and spectators'. Then both seats
//! of every table play random legal moves over their sockets for `MANY_SECONDS` (20), every
//! spectator reading every push. Prints the server's memory, its CPU a move, the moves a
//! second and the latency from an action sent to its `ack`.

use crate::common::{self, env_or, rss_kib};

use futures_util::{SinkExt, StreamExt};
use rand::prelude::IndexedRandom;
use serde::Deserialize;
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What a seat reads of a message (the view itself is skipped).
#[derive(Deserialize)]
struct Pushed {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    to_act: Option<usize>,
    #[serde(default)]
    legal: Vec<String>,
}

#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    pushes: AtomicU64,
    latency_us: Mutex<Vec<u64>>,
}

/// The CPU time process `pid` has used (user and system), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // The fields after the command's closing parenthesis; utime and stime are 14 and 15.
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 =
        (fields[11].parse::<f64>().expect("utime")) + fields[12].parse::<f64>().expect("stime");
    ticks / 100.0
}

async fn connect(url: String) -> Ws {
    for _ in 0..20 {
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await {
            // The first state, at once.
            if let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(30), ws.next()).await
            {
                return ws;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("no socket at {url}");
}

/// A spectator: reads every push until `stop`.
async fn spectator(mut ws: Ws, stop: Arc<AtomicBool>, stats: Arc<Stats>) {
    while !stop.load(Ordering::Relaxed) {
        match tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
            Ok(Some(Ok(_))) => {
                stats.pushes.fetch_add(1, Ordering::Relaxed);
            }
            Ok(_) => return,
            Err(_) => {}
        }
    }
    let _ = ws.close(None).await;
}

/// A seat: asks for its state, then plays a random legal move whenever it is to act,
/// timing each from its sending to its `ack`, until `stop`.
async fn seat(mut ws: Ws, seat: usize, seed: u64, stop: Arc<AtomicBool>, stats: Arc<Stats>) {
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
    let mut sent: Option<Instant> = None;
    let sync = Message::text(json!({"type": "sync"}).to_string());
    if ws.send(sync).await.is_err() {
        return;
    }
    while !stop.load(Ordering::Relaxed) {
        let message = match tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(_))) | Err(_) => continue,
            Ok(_) => return,
        };
        let Ok(pushed) = serde_json::from_str::<Pushed>(message.as_str()) else {
            continue;
        };
        match pushed.kind.as_str() {
            "ack" => {
                if let Some(at) = sent.take() {
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                    let us = u64::try_from(at.elapsed().as_micros()).unwrap_or(u64::MAX);
                    stats.latency_us.lock().expect("lock").push(us);
                }
            }
            "error" => sent = None,
            "state" if sent.is_none() && pushed.to_act == Some(seat) => {
                let Some(action) = pushed.legal.choose(&mut rng) else {
                    continue;
                };
                let body = json!({"type": "action", "action": action, "version": pushed.version});
                if ws.send(Message::text(body.to_string())).await.is_err() {
                    return;
                }
                sent = Some(Instant::now());
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run by hand"]
async fn ten_thousand_sockets_on_a_thousand_tables() {
    let tables = env_or("MANY_TABLES", 1000) as usize;
    let per_table = env_or("MANY_SOCKETS", 10).max(2) as usize;
    let seconds = env_or("MANY_SECONDS", 20);
    let binary =
        std::env::var("MANY_SERVER").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tabletop").into());
    let dir = tempfile::tempdir().expect("temp dir");
    let database = format!("sqlite://{}", dir.path().join("many.sqlite").display());
    let room = (tables * per_table + 1000).to_string();
    let (mut child, addr) =
        common::serve_args(&binary, &database, &["--max-connections", &room]).await;
    let pid = child.id().expect("pid");
    let http = reqwest::Client::new();
    let started = rss_kib(pid);

    let body = json!({"game": "dropsite", "options": {"players": 2}});
    let made: Vec<serde_json::Value> = futures_util::stream::iter(0..tables)
        .map(|_| common::remote::create_table(&http, addr, &body))
        .buffer_unordered(32)
        .collect()
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let with_tables = rss_kib(pid);

    let opening = Instant::now();
    let mut urls = Vec::new();
    for table in &made {
        let id = table["id"].as_str().expect("id");
        for s in 0..per_table {
            let url = match s {
                0 | 1 => {
                    let token = table["seats"][s]["token"].as_str().expect("token");
                    format!("ws://{addr}/api/tables/{id}/ws?token={token}")
                }
                _ => format!("ws://{addr}/api/tables/{id}/ws"),
            };
            urls.push((s, url));
        }
    }
    let sockets: Vec<(usize, Ws)> = futures_util::stream::iter(urls)
        .map(|(s, url)| async move { (s, connect(url).await) })
        .buffered(64)
        .collect()
        .await;
    let opened = opening.elapsed();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let with_sockets = rss_kib(pid);

    let stop = Arc::new(AtomicBool::new(false));
    let stats = Arc::new(Stats::default());
    let cpu_before = cpu_seconds(pid);
    let window = Instant::now();
    let mut tasks = Vec::new();
    for (n, (s, ws)) in sockets.into_iter().enumerate() {
        let (stop, stats) = (stop.clone(), stats.clone());
        tasks.push(if s < 2 {
            tokio::spawn(seat(ws, s, n as u64, stop, stats))
        } else {
            tokio::spawn(spectator(ws, stop, stats))
        });
    }
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let moves = stats.moves.load(Ordering::Relaxed);
    let pushes = stats.pushes.load(Ordering::Relaxed);
    let elapsed = window.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu_before;
    let peak = rss_kib(pid);
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        let _ = task.await;
    }
    let mut latency = stats.latency_us.lock().expect("lock").clone();
    latency.sort_unstable();
    let at = |q: f64| {
        latency
            .get(((latency.len() as f64 - 1.0) * q) as usize)
            .copied()
    };
    let ms = |us: Option<u64>| us.map_or(f64::NAN, |us| us as f64 / 1000.0);
    let sockets = tables * per_table;
    println!(
        "{sockets} sockets on {tables} tables ({per_table} a table, 2 playing): opened in {opened:.1?}; \
         server memory {} MiB at start, {} MiB with the tables, {} MiB with the sockets \
         ({:.1} KiB a socket), {} MiB at the end of play",
        started / 1024,
        with_tables / 1024,
        with_sockets / 1024,
        (with_sockets.saturating_sub(with_tables)) as f64 / sockets as f64,
        peak / 1024
    );
    println!(
        "play for {elapsed:.1} s: {moves} moves ({:.0} a second), {pushes} pushes read by spectators; \
         ack latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; server CPU {:.2} s, {:.3} ms a move \
         ({:.0}% of a core)",
        moves as f64 / elapsed,
        ms(at(0.5)),
        ms(at(0.99)),
        ms(latency.last().copied()),
        cpu,
        cpu * 1000.0 / moves.max(1) as f64,
        cpu / elapsed * 100.0
    );
    assert!(moves > 0, "no move was played");
    child.start_kill().expect("kill");
    let _ = child.wait().await;
}
