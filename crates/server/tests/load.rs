//! A load run, by hand: 200 tables playing at once over WebSocket on 127.0.0.1.
//!
//! `cargo test -p server --test tests -- load:: --ignored --nocapture`
//! (`LOAD_TABLES`, `LOAD_SECONDS`, `LOAD_DATABASE=postgres://...` change the run; by
//! default a fresh SQLite file). Prints moves/s and the p50/p99 latency from sending an
//! action on the socket to receiving the pushed view that contains it.

use crate::common;

use futures_util::{SinkExt, StreamExt};
use rand::prelude::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use server::AppState;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn env_or(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn next_state(ws: &mut Ws) -> Option<Value> {
    loop {
        match timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                let value: Value = serde_json::from_str(text.as_str()).ok()?;
                match value["type"].as_str() {
                    Some("state") => return Some(value),
                    Some("error") => panic!("error push: {value}"),
                    _ => continue,
                }
            }
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

/// One table's two players, in one task: plays games until the deadline; returns the
/// latency of every move.
async fn table_worker(addr: SocketAddr, index: u64, deadline: Instant) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(index);
    let mut latencies = Vec::new();
    while Instant::now() < deadline {
        let table: Value = match http
            .post(format!("http://{addr}/api/tables"))
            .json(
                &json!({"game": "dropsite", "options": {"players": 2, "target": 50},
                          "seats": ["human", "human"], "seed": index}),
            )
            .send()
            .await
        {
            Ok(r) => r.json().await.expect("JSON"),
            Err(e) => panic!("create: {e}"),
        };
        let id = table["id"].as_str().expect("id").to_string();
        let mut sockets = Vec::new();
        let mut views = Vec::new();
        for seat in 0..2 {
            let token = table["seats"][seat]["token"].as_str().expect("token");
            let url = format!("ws://{addr}/api/tables/{id}/ws?token={token}");
            let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
                .await
                .expect("ws");
            views.push(next_state(&mut ws).await.expect("first view"));
            sockets.push(ws);
        }
        loop {
            if Instant::now() >= deadline || views[0]["status"] == "finished" {
                break;
            }
            let Some(seat) = views[0]["to_act"].as_u64().map(|s| s as usize) else {
                break;
            };
            let legal: Vec<String> =
                serde_json::from_value(views[seat]["legal"].clone()).expect("legal");
            let action = legal.choose(&mut rng).expect("legal").clone();
            let version = views[seat]["version"].as_u64().expect("version");
            let sent = Instant::now();
            let message = json!({"type": "action", "action": action, "version": version});
            sockets[seat]
                .send(Message::Text(message.to_string().into()))
                .await
                .expect("send");
            // The mover's own push carries the move: that is the latency.
            let mine = next_state(&mut sockets[seat]).await.expect("push");
            latencies.push(sent.elapsed());
            assert_eq!(mine["version"], version + 1);
            let other = 1 - seat;
            let theirs = next_state(&mut sockets[other]).await.expect("push");
            assert_eq!(theirs["version"], version + 1);
            views[seat] = mine;
            views[other] = theirs;
        }
        for mut ws in sockets {
            let _ = ws.close(None).await;
        }
    }
    latencies
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a load run, by hand: see the module docs"]
async fn two_hundred_tables_over_websocket() {
    let tables = env_or("LOAD_TABLES", 200);
    let seconds = env_or("LOAD_SECONDS", 30);
    let dir = tempfile::tempdir().expect("tempdir");
    let database = std::env::var("LOAD_DATABASE")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.path().join("load.sqlite").display()));
    // A load run: the per-address and per-token rates off, as `serve --no-rate-limits`.
    let limits = server::Limits {
        rate_limits: false,
        ..server::Limits::default()
    };
    let store = server::store::open(&database).await.expect("store");
    let state = AppState::with_limits(store, limits).await.expect("state");
    let addr = common::spawn(state).await;
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..tables)
        .map(|i| tokio::spawn(table_worker(addr, i, deadline)))
        .collect();
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.expect("worker"));
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "load: {tables} tables, {} moves in {elapsed:.1} s = {:.0} moves/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({})",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        if database.starts_with("sqlite") { "sqlite" } else { "postgres" },
    );
    assert!(!latencies.is_empty());
}
