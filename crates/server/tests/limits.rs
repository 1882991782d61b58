//! The server's limits: creation and action rates, open tables, expiry.

use crate::common;

use axum::http::StatusCode;
use common::{act, get, post_json, spawn};
use serde_json::{json, Value};
use server::{AppState, Limits, SqliteStore};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

async fn state_with(limits: Limits) -> AppState {
    let store = SqliteStore::connect("sqlite::memory:")
        .await
        .expect("in-memory sqlite");
    AppState::with_limits(Arc::new(store), limits)
        .await
        .expect("state")
}

fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(ip.parse::<IpAddr>().expect("ip"))
        .build()
        .expect("client")
}

/// One create over the socket: the status, `Retry-After`, and the body.
async fn create_over(
    http: &reqwest::Client,
    url: &str,
    forwarded: Option<&str>,
) -> (u16, Option<u64>, Value) {
    let mut request = http
        .post(url)
        .json(&json!({"game": "distopia", "seats": ["human", "human"]}));
    if let Some(from) = forwarded {
        request = request.header("x-forwarded-for", from);
    }
    let response = request.send().await.expect("create");
    let status = response.status().as_u16();
    let retry = common::remote::retry_after(&response);
    (status, retry, response.json().await.expect("JSON body"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creation_burst_meets_429_while_other_clients_are_served() {
    let addr = spawn(state_with(Limits::default()).await).await;
    let url = format!("http://{addr}/api/tables");
    let first = client_from("127.0.0.1");
    let mut created = 0;
    let mut refused = None;
    for _ in 0..200 {
        let (status, retry, body) = create_over(&first, &url, None).await;
        if status == 201 {
            assert!(refused.is_none(), "no create succeeds right after a 429");
            created += 1;
        } else {
            assert_eq!(status, 429, "{body}");
            assert_eq!(body["code"], "request/rate_limited");
            let retry = retry.expect("a 429 says when to come back");
            // The wait in words for the person at the lobby, and in seconds for a program.
            assert_eq!(body["retry_after"].as_u64(), Some(retry), "{body}");
            assert!(
                body["message"].as_str().is_some_and(|m| m.starts_with(
                    "Many tables were just made from your address: you can make another in "
                ) && !m.contains("--")),
                "{body}"
            );
            assert!((1..=120).contains(&retry), "Retry-After {retry}");
            refused.get_or_insert(created);
        }
    }
    println!("tables created from one address before the first 429: {created}");
    assert_eq!(created, Limits::default().create_burst as usize);
    assert!(refused.is_some(), "a burst of 200 meets a 429");
    // Another client address is still served, and the lobby answers the first.
    let other = client_from("127.0.0.2");
    let (status, _, body) = create_over(&other, &url, None).await;
    assert_eq!(status, 201, "{body}");
    let lobby = first.get(&url).send().await.expect("lobby");
    assert_eq!(lobby.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_when_trusted() {
    let limits = Limits {
        create_burst: 2,
        ..Limits::default()
    };
    // Not trusted: the header is ignored, every create counts against the peer.
    let addr = spawn(state_with(limits.clone()).await).await;
    let url = format!("http://{addr}/api/tables");
    let http = client_from("127.0.0.1");
    let mut statuses = Vec::new();
    for from in ["10.0.0.1", "10.0.0.2", "10.0.0.3"] {
        statuses.push(create_over(&http, &url, Some(from)).await.0);
    }
    assert_eq!(statuses, vec![201, 201, 429]);
    // Trusted: the last address of the header is the client.
    let trusted = spawn(
        state_with(Limits {
            trust_forwarded: true,
            ..limits
        })
        .await,
    )
    .await;
    let url = format!("http://{trusted}/api/tables");
    let mut statuses = Vec::new();
    for from in [
        "10.0.0.1",
        "10.0.0.1",
        "10.0.0.1",
        "10.0.0.1, 10.0.0.2",
        "203.0.113.9, 10.0.0.3",
    ] {
        statuses.push(create_over(&http, &url, Some(from)).await.0);
    }
    assert_eq!(statuses, vec![201, 201, 429, 201, 201]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_rate_limits_turns_the_rates_off() {
    let addr = spawn(
        state_with(Limits {
            create_burst: 1,
            rate_limits: false,
            ..Limits::default()
        })
        .await,
    )
    .await;
    let url = format!("http://{addr}/api/tables");
    let http = client_from("127.0.0.1");
    for _ in 0..20 {
        assert_eq!(create_over(&http, &url, None).await.0, 201);
    }
}

#[tokio::test]
async fn actions_per_token_are_limited() {
    let state = state_with(Limits {
        action_burst: 3,
        actions_per_second: 1,
        ..Limits::default()
    })
    .await;
    let body = json!({"game": "dropsite", "seats": ["human", "human"]});
    let table = common::create_table(&state, body).await;
    let id = table["id"].as_str().expect("id");
    let token = table["seats"][0]["token"].as_str().expect("token");
    let uri = format!("/api/tables/{id}/actions");
    let body = json!({"action": "nonsense", "version": 0});
    for _ in 0..3 {
        let (_, reply) = post_json(&state, &uri, Some(token), &body).await;
        assert_eq!(reply["code"], "action/malformed");
    }
    let (status, reply) = post_json(&state, &uri, Some(token), &body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{reply}");
    assert_eq!(reply["code"], "request/rate_limited");
    // The other seat's token has its own budget.
    let other = table["seats"][1]["token"].as_str().expect("token");
    let (_, reply) = post_json(&state, &uri, Some(other), &body).await;
    assert_ne!(reply["code"], "request/rate_limited");
}

#[tokio::test]
async fn a_full_server_refuses_new_tables() {
    let state = state_with(Limits {
        max_tables: 2,
        ..Limits::default()
    })
    .await;
    let body = json!({"game": "distopia", "seats": ["human", "human"]});
    for _ in 0..2 {
        assert_eq!(
            post_json(&state, "/api/tables", None, &body).await.0,
            StatusCode::CREATED
        );
    }
    let (status, error) = post_json(&state, "/api/tables", None, &body).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error["code"], "server/full");
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("as many tables as it can hold") && !m.contains("--")));
}

#[tokio::test]
async fn tables_without_moves_in_time_are_abandoned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("expiry.sqlite").display());
    let limits = Limits {
        expire_unstarted: Duration::from_millis(800),
        expire_idle: Duration::from_millis(2500),
        ..Limits::default()
    };
    let state = AppState::with_limits(
        server::store::open(&url).await.expect("store"),
        limits.clone(),
    )
    .await
    .expect("state");
    let body = json!({"game": "distopia", "seats": ["human", "human"]});
    let (_, quiet) = post_json(&state, "/api/tables", None, &body).await;
    let (_, moving) = post_json(&state, "/api/tables", None, &body).await;
    let quiet_id = quiet["id"].as_str().expect("id").to_string();
    let moving_id = moving["id"].as_str().expect("id").to_string();
    // One move on the second table.
    let (_, spectated) = get(&state, &format!("/api/tables/{moving_id}/spectate"), None).await;
    let seat = spectated["to_act"].as_u64().expect("to act") as usize;
    let token = moving["seats"][seat]["token"]
        .as_str()
        .expect("token")
        .to_string();
    let (_, legal) = get(
        &state,
        &format!("/api/tables/{moving_id}/legal"),
        Some(&token),
    )
    .await;
    let action = legal["legal"][0].clone();
    let (status, _) = act(&state, &moving_id, &token, &action, 0).await;
    assert_eq!(status, StatusCode::OK);
    let status_of = |id: String| {
        let state = state.clone();
        async move { get(&state, &format!("/api/tables/{id}"), None).await.1["status"].clone() }
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(status_of(quiet_id.clone()).await, "abandoned");
    assert_eq!(status_of(moving_id.clone()).await, "running");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(status_of(moving_id.clone()).await, "abandoned");
    // An abandoned table takes no move, keeps its state, and is listed as abandoned.
    let seat = 1 - seat;
    let token = moving["seats"][seat]["token"].as_str().expect("token");
    let (status, error) = act(&state, &moving_id, token, "anything", 1).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["code"], "game/abandoned");
    let (_, listed) = get(&state, "/api/tables?status=abandoned", None).await;
    let mut ids: Vec<&str> = listed
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    ids.sort_unstable();
    let mut expected = vec![quiet_id.as_str(), moving_id.as_str()];
    expected.sort_unstable();
    assert_eq!(ids, expected);
    // A restarted server rebuilds neither.
    let again = AppState::with_limits(server::store::open(&url).await.expect("store"), limits)
        .await
        .expect("state");
    again.hub.wait_rebuilt().await;
    assert_eq!(again.hub.live_tables(), 0);
}
