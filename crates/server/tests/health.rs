//! For operators: `GET /healthz`, `GET /readyz` and `GET /metrics` (docs/http-api.md,
//! "Health and metrics"), on a store that answers and on one that is stopped.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// `GET /metrics` through the router: the samples by name (with their labels).
async fn metrics(state: &server::AppState) -> HashMap<String, f64> {
    let request = Request::get("/metrics")
        .body(Body::empty())
        .expect("request");
    let (status, headers, bytes) = common::send_raw(state, request).await;
    assert_eq!(status, StatusCode::OK);
    let kind = headers["content-type"].to_str().expect("ASCII");
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    parse(std::str::from_utf8(&bytes).expect("UTF-8"))
}

/// Prometheus text: every sample `name{labels} value`, each name with its HELP and TYPE.
pub fn parse(text: &str) -> HashMap<String, f64> {
    let mut samples = HashMap::new();
    let mut typed = std::collections::HashSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            typed.insert(rest.split(' ').next().expect("name").to_string());
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (name, value) = line.rsplit_once(' ').expect("name value");
        let family = name.split('{').next().expect("family");
        let family = (["_bucket", "_sum", "_count"].iter())
            .find_map(|s| family.strip_suffix(s).filter(|f| typed.contains(*f)))
            .unwrap_or(family);
        assert!(typed.contains(family), "{name} has no # TYPE line");
        samples.insert(name.to_string(), value.parse().expect("a number"));
    }
    samples
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_readyz_and_metrics_count_what_happened() {
    let state = common::memory_state().await;
    let (status, body) = common::get(&state, "/healthz", None).await;
    assert_eq!((status, body), (StatusCode::OK, json!({"status": "ok"})));
    let (status, body) = common::get(&state, "/readyz", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "ready");

    let before = metrics(&state).await;
    assert_eq!(before["tabletop_moves_total"], 0.0);
    assert_eq!(before["tabletop_store_up"], 1.0);

    let (id, tokens) = common::table_on(
        &state,
        json!({"game": "distopia", "seed": 3, "seats": ["human", "human"]}),
    )
    .await;
    for version in 0..3u64 {
        let view = common::seat_view(&state, &id, &tokens[0]).await;
        let seat = view["to_act"].as_u64().expect("to act") as usize;
        let view = common::seat_view(&state, &id, &tokens[seat]).await;
        let action = view["legal"][0].as_str().expect("a legal move").to_string();
        let (status, body) = common::act(&state, &id, &tokens[seat], &action, version).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // Two refusals: a stale version and a bad token.
    let (status, _) = common::act(&state, &id, &tokens[0], "anything", 0).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = common::act(&state, &id, &"0".repeat(64), "anything", 3).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let after = metrics(&state).await;
    assert_eq!(after["tabletop_moves_total"], 3.0);
    assert_eq!(after["tabletop_tables_created_total"], 1.0);
    assert_eq!(after["tabletop_tables_live"], 1.0);
    assert_eq!(
        after["tabletop_refusals_total{code=\"action/stale_version\"}"],
        1.0
    );
    assert_eq!(
        after["tabletop_refusals_total{code=\"auth/bad_token\"}"],
        1.0
    );
    assert_eq!(
        after["tabletop_store_errors_total{kind=\"unavailable\"}"],
        0.0
    );
    // Every write timed: the create and the three moves at least; buckets cumulative.
    let count = after["tabletop_store_write_seconds_count"];
    assert!(count >= 4.0, "{count} writes timed");
    assert_eq!(
        after["tabletop_store_write_seconds_bucket{le=\"+Inf\"}"],
        count
    );
    let bounds = ["0.001", "0.01", "0.1", "1", "5"];
    let buckets: Vec<f64> = (bounds.iter())
        .map(|b| after[&format!("tabletop_store_write_seconds_bucket{{le=\"{b}\"}}")])
        .collect();
    assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{buckets:?}");
    assert!(after["tabletop_store_write_seconds_sum"] > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_open_sockets_and_answer_loopback_over_tcp() {
    let state = common::memory_state().await;
    let addr = common::spawn(state.clone()).await;
    let table = common::create_table(&state, json!({"game": "dropsite", "seed": 1})).await;
    let id = common::table_id(&table);
    let http = reqwest::Client::new();
    let read = |http: reqwest::Client| async move {
        let answer = (http.get(format!("http://{addr}/metrics")).send())
            .await
            .expect("GET /metrics");
        assert_eq!(answer.status(), 200);
        parse(&answer.text().await.expect("text"))
    };
    assert_eq!(read(http.clone()).await["tabletop_sockets_open"], 0.0);
    let mut sockets = Vec::new();
    for _ in 0..3 {
        let url = format!("ws://{addr}/api/tables/{id}/ws");
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
        ws.next().await.expect("a first state").expect("message");
        sockets.push(ws);
    }
    assert_eq!(read(http.clone()).await["tabletop_sockets_open"], 3.0);
    for mut ws in sockets.drain(..2) {
        ws.close(None).await.expect("close");
        while ws.next().await.is_some() {}
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let open = read(http.clone()).await["tabletop_sockets_open"];
        if open == 1.0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{open} sockets still counted open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// This machine's address on its way out (no packet is sent), if it has one besides
/// loopback.
fn outside_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_refused_beyond_loopback_unless_allowed() {
    let Some(ip) = outside_address() else {
        eprintln!("SKIPPING: this machine has no address but loopback to call from");
        return;
    };
    let serve = |limits: server::Limits| async move {
        let store = server::SqliteStore::connect("sqlite::memory:")
            .await
            .expect("sqlite");
        let state = server::AppState::with_limits(std::sync::Arc::new(store), limits)
            .await
            .expect("state");
        let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(server::run(listener, state));
        addr
    };
    let http = reqwest::Client::new();
    let closed = serve(common::unlimited()).await;
    let answer = (http.get(format!("http://{closed}/metrics")).send())
        .await
        .expect("GET");
    assert_eq!(answer.status(), 403);
    let body: serde_json::Value = answer.json().await.expect("JSON");
    common::assert_coded(&body, "metrics/forbidden");
    // Health answers anyone.
    let answer = (http.get(format!("http://{closed}/healthz")).send())
        .await
        .expect("GET");
    assert_eq!(answer.status(), 200);

    let block = format!("{ip}/32").parse().expect("a block");
    let open = serve(server::Limits {
        metrics_from: vec![block],
        ..common::unlimited()
    })
    .await;
    let answer = (http.get(format!("http://{open}/metrics")).send())
        .await
        .expect("GET");
    assert_eq!(answer.status(), 200);
}

/// With its database stopped, a server is alive but not ready, and says so in its
/// metrics; started again, it is ready again without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_a_stopped_database() {
    let Some(cluster) = common::cluster::Cluster::start() else {
        return;
    };
    let store = server::PgStore::connect(&cluster.url())
        .await
        .expect("the cluster");
    let state = server::AppState::with_limits(std::sync::Arc::new(store), common::unlimited())
        .await
        .expect("state");
    let (status, _) = common::get(&state, "/readyz", None).await;
    assert_eq!(status, StatusCode::OK);

    cluster.stop();
    let started = Instant::now();
    let request = Request::get("/readyz")
        .body(Body::empty())
        .expect("request");
    let (status, headers, bytes) = common::send_raw(&state, request).await;
    let took = started.elapsed();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(took < Duration::from_secs(4), "/readyz took {took:?}");
    assert_eq!(headers["retry-after"], "5");
    let body: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    common::assert_coded(&body, "store/unavailable");
    let (status, _) = common::get(&state, "/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    let down = metrics(&state).await;
    assert_eq!(down["tabletop_store_up"], 0.0);
    assert_eq!(down["tabletop_store_outages_total"], 1.0);
    assert!(down["tabletop_store_errors_total{kind=\"unavailable\"}"] >= 1.0);

    cluster.start_again();
    let (status, body) = common::get(&state, "/readyz", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let up = metrics(&state).await;
    assert_eq!(up["tabletop_store_up"], 1.0);
    assert_eq!(up["tabletop_store_outages_total"], 1.0);
}
