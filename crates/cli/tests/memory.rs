//! Server memory, by hand: `cargo test -p cli --test tests -- memory:: --ignored --nocapture`.
//!
//! Starts `tabletop serve` on a fresh SQLite file and reads its resident memory
//! (`VmRSS` of `/proc/PID/status`) before and after (1) `MEMORY_TABLES` (1,000) two-seat
//! Drop Site tables with both seats' sockets connected, and (2) `MEMORY_SOCKETS` (2,000)
//! more idle sockets (spectators of one table). Prints the cost of a live table and of an
//! idle socket, and checks them against 64 KiB and 16 KiB.

use crate::common::{self, env_or, rss_kib};

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::timeout;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket that has received its first state.
async fn connect(url: String) -> Ws {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
    let first = timeout(Duration::from_secs(30), ws.next())
        .await
        .expect("a first state within 30 s");
    assert!(matches!(first, Some(Ok(_))), "{first:?}");
    ws
}

/// Lets the server settle, then reads its memory.
async fn settled_rss(pid: u32) -> u64 {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    rss_kib(pid)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run by hand"]
async fn memory_per_live_table_and_per_idle_socket() {
    let tables = env_or("MEMORY_TABLES", 1000) as usize;
    let idle = env_or("MEMORY_SOCKETS", 2000) as usize;
    let dir = tempfile::tempdir().expect("temp dir");
    let database = format!("sqlite://{}", dir.path().join("memory.sqlite").display());
    let (mut child, addr) = common::serve(&database).await;
    let pid = child.id().expect("a pid");
    let http = reqwest::Client::new();
    // One table and its sockets first, so that start-up allocations are not counted.
    let body = json!({"game": "dropsite", "options": {"players": 2}});
    let create = || common::remote::create_table(&http, addr, &body);
    // A seat's socket, or a spectator's for `None`.
    let socket_url = |table: &Value, seat: Option<usize>| {
        let id = table["id"].as_str().expect("id");
        match seat {
            Some(seat) => {
                let token = table["seats"][seat]["token"].as_str().expect("token");
                format!("ws://{addr}/api/tables/{id}/ws?token={token}")
            }
            None => format!("ws://{addr}/api/tables/{id}/ws"),
        }
    };
    let first = create().await;
    let mut sockets = vec![
        connect(socket_url(&first, Some(0))).await,
        connect(socket_url(&first, Some(1))).await,
    ];
    let before = settled_rss(pid).await;
    for _ in 0..tables {
        let table = create().await;
        for seat in 0..2 {
            sockets.push(connect(socket_url(&table, Some(seat))).await);
        }
    }
    let with_tables = settled_rss(pid).await;
    let spectate = socket_url(&first, None);
    for _ in 0..idle {
        sockets.push(connect(spectate.clone()).await);
    }
    let with_idle = settled_rss(pid).await;
    let per_table = (with_tables.saturating_sub(before)) as f64 / tables as f64;
    let per_socket = (with_idle.saturating_sub(with_tables)) as f64 / idle as f64;
    println!(
        "server RSS {before} KiB; +{tables} live tables (2 sockets each): {with_tables} KiB, \
         {per_table:.1} KiB a table; +{idle} idle sockets: {with_idle} KiB, {per_socket:.1} KiB a socket"
    );
    drop(sockets);
    let _ = child.start_kill();
    assert!(per_table < 64.0, "{per_table:.1} KiB a live table");
    assert!(per_socket < 16.0, "{per_socket:.1} KiB an idle socket");
}
