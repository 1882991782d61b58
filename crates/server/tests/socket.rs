//! Whole games over a real socket on 127.0.0.1: HTTP and WebSocket clients against a bot,
//! every received view checked against the server's state.

use crate::common;

use common::{check_view, expected_views, spawn};
use futures_util::{SinkExt, StreamExt};
use rand::prelude::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::time::{timeout, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/tables/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/tables/{id}/ws"),
    };
    let (ws, _) = timeout(
        Duration::from_secs(10),
        tokio_tungstenite::connect_async(url),
    )
    .await
    .expect("connect in time")
    .expect("websocket");
    ws
}

/// The next JSON text message, within 20 s.
async fn next_json(ws: &mut Ws) -> Option<Value> {
    loop {
        match timeout(Duration::from_secs(20), ws.next()).await {
            Err(_) => panic!("no message within 20 s"),
            Ok(None) | Ok(Some(Err(_))) => return None,
            Ok(Some(Ok(Message::Text(text)))) => {
                return Some(serde_json::from_str(text.as_str()).expect("JSON message"))
            }
            Ok(Some(Ok(Message::Close(_)))) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// How a seat sends its actions.
#[derive(Clone, Copy, PartialEq)]
enum Via {
    Http,
    WebSocket,
}

/// One human seat: plays random legal actions until the game ends; returns every view it
/// received as `(version, view)`.
async fn human(
    addr: SocketAddr,
    id: String,
    seat: usize,
    token: String,
    via: Via,
    seed: u64,
    reconnect_at: Option<u64>,
) -> Vec<(u64, Value)> {
    let http = reqwest::Client::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = Vec::new();
    let mut ws = connect(addr, &id, Some(&token)).await;
    let mut reconnected = false;
    let deadline = Instant::now() + Duration::from_secs(300);
    for _ in 0..100_000 {
        assert!(Instant::now() < deadline, "seat {seat}: game too long");
        let Some(message) = next_json(&mut ws).await else {
            panic!("seat {seat}: socket closed during the game")
        };
        match message["type"].as_str() {
            Some("state") => {}
            Some("ack") => continue,
            Some("error") => {
                // A stale version can happen only if someone else moved: never here.
                panic!("seat {seat}: {message}")
            }
            other => panic!("unexpected message type {other:?}"),
        }
        let version = message["version"].as_u64().expect("version");
        assert_eq!(message["seat"], seat);
        seen.push((version, message["view"].clone()));
        if message["status"] == "finished" {
            break;
        }
        if let (Some(at), false) = (reconnect_at, reconnected) {
            if version >= at {
                // Drop the socket and come back: the current view arrives at once.
                reconnected = true;
                drop(ws);
                ws = connect(addr, &id, Some(&token)).await;
                let again = next_json(&mut ws).await.expect("view on reconnect");
                assert_eq!(again["type"], "state");
                assert!(again["version"].as_u64().expect("version") >= version);
                seen.push((again["version"].as_u64().expect("v"), again["view"].clone()));
                if again["status"] == "finished" {
                    break;
                }
                if again["to_act"] != seat {
                    continue;
                }
                let legal: Vec<String> =
                    serde_json::from_value(again["legal"].clone()).expect("legal");
                let action = legal.choose(&mut rng).expect("legal action").clone();
                let version = again["version"].as_u64().expect("v");
                send(
                    &http, addr, &id, &token, &mut ws, via, &action, version, &mut seen,
                )
                .await;
                continue;
            }
        }
        if message["to_act"] != seat {
            assert_eq!(message["legal"], json!([]), "no legal actions out of turn");
            continue;
        }
        let legal: Vec<String> = serde_json::from_value(message["legal"].clone()).expect("legal");
        let action = legal.choose(&mut rng).expect("legal action").clone();
        send(
            &http, addr, &id, &token, &mut ws, via, &action, version, &mut seen,
        )
        .await;
    }
    seen
}

#[allow(clippy::too_many_arguments)]
async fn send(
    http: &reqwest::Client,
    addr: SocketAddr,
    id: &str,
    token: &str,
    ws: &mut Ws,
    via: Via,
    action: &str,
    version: u64,
    seen: &mut Vec<(u64, Value)>,
) {
    match via {
        Via::Http => {
            let response = http
                .post(format!("http://{addr}/api/tables/{id}/actions"))
                .bearer_auth(token)
                .json(&json!({"action": action, "version": version}))
                .timeout(Duration::from_secs(20))
                .send()
                .await
                .expect("POST");
            let status = response.status();
            let body: Value = response.json().await.expect("JSON");
            assert!(status.is_success(), "{status}: {body}");
            seen.push((body["version"].as_u64().expect("v"), body["view"].clone()));
        }
        Via::WebSocket => {
            let message = json!({"type": "action", "action": action, "version": version});
            ws.send(Message::Text(message.to_string().into()))
                .await
                .expect("send");
        }
    }
}

async fn spectator(addr: SocketAddr, id: String) -> Vec<(u64, Value)> {
    let mut ws = connect(addr, &id, None).await;
    let mut seen = Vec::new();
    for _ in 0..100_000 {
        let Some(message) = next_json(&mut ws).await else {
            break;
        };
        assert_eq!(message["type"], "state");
        assert_eq!(message["legal"], json!([]));
        seen.push((
            message["version"].as_u64().expect("v"),
            message["view"].clone(),
        ));
        if message["status"] == "finished" {
            break;
        }
    }
    seen
}

async fn play(addr: SocketAddr, game: &str, options: Value, seats: Value, seed: u64) {
    let http = reqwest::Client::new();
    let body = json!({"game": game, "options": options, "seed": seed, "seats": seats});
    let table = common::remote::create_table(&http, addr, &body).await;
    let id = table["id"].as_str().expect("id").to_string();
    let watcher = tokio::spawn(spectator(addr, id.clone()));
    let mut players = Vec::new();
    for (seat, s) in table["seats"].as_array().expect("seats").iter().enumerate() {
        if let Some(token) = s["token"].as_str() {
            let via = if seat % 2 == 0 {
                Via::Http
            } else {
                Via::WebSocket
            };
            let reconnect = (seat == 0).then_some(6);
            players.push((
                seat,
                tokio::spawn(human(
                    addr,
                    id.clone(),
                    seat,
                    token.to_string(),
                    via,
                    seed + seat as u64,
                    reconnect,
                )),
            ));
        }
    }
    let mut received = Vec::new();
    for (seat, handle) in players {
        received.push((Some(seat), handle.await.expect("player")));
    }
    received.push((None, watcher.await.expect("spectator")));
    let record = common::remote::record(&http, addr, &id).await;
    let views = expected_views(&record);
    let mut count = 0;
    for (viewer, seen) in &received {
        assert_eq!(
            seen.last().map(|(v, _)| *v),
            Some(record.actions.len() as u64),
            "{viewer:?} saw the end"
        );
        for (version, view) in seen {
            check_view(&views, *viewer, *version, view);
            count += 1;
        }
    }
    assert!(
        count > record.actions.len() / 2,
        "{game}: {count} views checked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_over_http_and_websocket() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("socket.sqlite").display());
    let state = common::open_unlimited(&url).await;
    let addr = spawn(state).await;
    let games = async {
        tokio::join!(
            play(
                addr,
                "dropsite",
                json!({"players": 3, "target": 50}),
                json!(["human", "random", "human"]),
                21
            ),
            play(addr, "distopia", json!({}), json!(["random", "human"]), 22),
            play(
                addr,
                "euphoria",
                json!({"players": 3}),
                json!(["human", "human", "random"]),
                23
            ),
        )
    };
    timeout(Duration::from_secs(600), games)
        .await
        .expect("the three games finish within 10 minutes");
}

/// A server on an in-memory database, and a Distop-IA table of two people created on it.
async fn two_seat_table() -> (SocketAddr, Value) {
    let addr = spawn(common::memory_state().await).await;
    let body = json!({"game": "distopia", "seats": ["human", "human"]});
    let table = common::remote::create_table(&reqwest::Client::new(), addr, &body).await;
    (addr, table)
}

#[tokio::test]
async fn a_bad_token_gets_no_socket() {
    let (addr, table) = two_seat_table().await;
    let id = table["id"].as_str().expect("id");
    let url = format!("ws://{addr}/api/tables/{id}/ws?token=00112233445566778899aabbccddeeff");
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 401);
        }
        other => panic!("expected a 401, got {:?}", other.map(|_| ())),
    }
    // A spectator cannot act.
    let mut ws = connect(addr, id, None).await;
    let first = next_json(&mut ws).await.expect("view");
    assert_eq!(first["seat"], Value::Null);
    ws.send(Message::Text(
        json!({"type": "action", "action": "x", "version": 0})
            .to_string()
            .into(),
    ))
    .await
    .expect("send");
    let reply = next_json(&mut ws).await.expect("reply");
    assert_eq!(reply["code"], "auth/required");
    ws.send(Message::Text("{\"type\":\"dance\"}".into()))
        .await
        .expect("send");
    let reply = next_json(&mut ws).await.expect("reply");
    assert_eq!(reply["code"], "request/malformed");
}

#[tokio::test]
async fn unknown_fields_and_binary_frames_are_malformed() {
    let (addr, table) = two_seat_table().await;
    let id = table["id"].as_str().expect("id");
    let mut ws = connect(addr, id, None).await;
    let to_act = next_json(&mut ws).await.expect("view")["to_act"]
        .as_u64()
        .expect("someone acts");
    let token = table["seats"][to_act as usize]["token"]
        .as_str()
        .expect("token");
    let mut ws = connect(addr, id, Some(token)).await;
    let first = next_json(&mut ws).await.expect("view");
    let legal = first["legal"][0]
        .as_str()
        .expect("a legal action")
        .to_string();
    for message in [
        Message::Text(
            json!({"type": "action", "action": legal, "version": 0, "extra": 1})
                .to_string()
                .into(),
        ),
        Message::Text(json!({"type": "sync", "since": 3}).to_string().into()),
        Message::Text("[1, 2]".into()),
        Message::Binary(
            json!({"type": "action", "action": legal, "version": 0})
                .to_string()
                .into_bytes()
                .into(),
        ),
    ] {
        ws.send(message.clone()).await.expect("send");
        let reply = next_json(&mut ws).await.expect("reply");
        assert_eq!(reply["type"], "error", "{message:?}");
        assert_eq!(reply["code"], "request/malformed", "{message:?}");
    }
    // None of them played: the plain message does.
    ws.send(Message::Text(
        json!({"type": "action", "action": legal, "version": 0})
            .to_string()
            .into(),
    ))
    .await
    .expect("send");
    let reply = next_json(&mut ws).await.expect("reply");
    assert_eq!(reply, json!({"type": "ack", "version": 1}));
}
