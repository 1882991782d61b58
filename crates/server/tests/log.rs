//! The game log through the router: snapshot `events` and `GET /api/tables/{id}/log`.
use crate::common;

use axum::http::StatusCode;
use common::{get, memory_state, seat_view};
use serde_json::{json, Value};
use server::AppState;

async fn table(state: &AppState, seats: Value, players: usize) -> (String, Vec<Option<String>>) {
    let body =
        json!({"game": "dropsite", "options": {"players": players}, "seed": 5, "seats": seats});
    let table = common::create_table(state, body).await;
    let tokens = common::remote::tokens(&table);
    (table["id"].as_str().expect("id").to_string(), tokens)
}

/// Plays the first legal debt action of the seat to act; returns the new snapshot.
async fn bank(state: &AppState, id: &str, token: &str) -> Value {
    let view = seat_view(state, id, token).await;
    let action = view["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(Value::as_str)
        .find(|a| a.ends_with(" debt"))
        .expect("a debt action")
        .to_string();
    let (status, after) = common::act(state, id, token, &action, &view["version"]).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

fn texts(entries: &Value) -> Vec<String> {
    entries
        .as_array()
        .expect("entries")
        .iter()
        .flat_map(|e| e["events"].as_array().expect("events").iter())
        .map(|e| e["text"].as_str().expect("text").to_string())
        .collect()
}

#[tokio::test]
async fn snapshots_carry_the_viewers_events_and_the_log_route_tells_the_whole_game() {
    let state = memory_state().await;
    let (id, tokens) = table(&state, json!(["human", "human"]), 2).await;
    let t0 = tokens[0].clone().expect("token");
    let t1 = tokens[1].clone().expect("token");
    let after = bank(&state, &id, &t0).await;
    assert_eq!(after["version"], 1);
    assert_eq!(
        texts(&after["events"]),
        ["you played a card face down on your debt"]
    );
    assert_eq!(after["events"][0]["events"][0]["kind"], "banked");
    assert_eq!(after["events"][0]["events"][0]["card"], Value::Null);
    bank(&state, &id, &t1).await;
    bank(&state, &id, &t0).await;
    // Seat 2's view since version 1: the two moves after it, named from its side.
    let (status, view) = get(&state, &format!("/api/tables/{id}/view?since=1"), Some(&t1)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        texts(&view["events"]),
        [
            "you played a card face down on your debt",
            "seat 1 played a card face down on their debt"
        ]
    );
    // The spectators' log: every action, from 0.
    let (status, log) = get(&state, &format!("/api/tables/{id}/log"), None).await;
    assert_eq!(status, StatusCode::OK, "{log}");
    assert_eq!(log["version"], 3);
    let indices: Vec<u64> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["index"].as_u64().expect("index"))
        .collect();
    assert_eq!(indices, [0, 1, 2]);
    assert_eq!(
        texts(&log["entries"]),
        [
            "seat 1 played a card face down on their debt",
            "seat 2 played a card face down on their debt",
            "seat 1 played a card face down on their debt"
        ]
    );
    // A seat's log from a version on.
    let (_, log) = get(&state, &format!("/api/tables/{id}/log?since=2"), Some(&t0)).await;
    assert_eq!(
        texts(&log["entries"]),
        ["you played a card face down on your debt"]
    );
    // Nonsense is refused with a code.
    let (status, error) = get(&state, &format!("/api/tables/{id}/log?since=soon"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert_eq!(error["code"], "request/malformed");
    let (status, error) = get(
        &state,
        &format!("/api/tables/{id}/log?token=nonsense"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{error}");
}

#[tokio::test]
async fn a_burst_of_bot_moves_loses_no_event() {
    let state = memory_state().await;
    let (id, tokens) = table(&state, json!(["human", "random", "random"]), 3).await;
    let t0 = tokens[0].clone().expect("token");
    let after = bank(&state, &id, &t0).await;
    let mine = after["version"].as_u64().expect("version");
    // Both bots move on their own; wait (bounded) until the human is to act again.
    let mut view = Value::Null;
    for _ in 0..200 {
        let (_, v) = get(
            &state,
            &format!("/api/tables/{id}/view?since={mine}"),
            Some(&t0),
        )
        .await;
        view = v;
        if view["to_act"] == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(view["to_act"], 0, "{view}");
    let entries = view["events"].as_array().expect("events");
    assert_eq!(
        entries.len() as u64,
        view["version"].as_u64().expect("version") - mine,
        "{view}"
    );
    let seats: Vec<u64> = entries
        .iter()
        .map(|e| e["seat"].as_u64().expect("seat"))
        .collect();
    assert_eq!(&seats[..2], [1, 2], "both bots' moves are told: {view}");
    assert!(
        texts(&view["events"])
            .iter()
            .any(|t| t.starts_with("seat 2 (random) ")),
        "bots are named as such: {view}"
    );
}
