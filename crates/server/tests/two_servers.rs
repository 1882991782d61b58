//! Two servers (two apps on two ports, each with its own pool and listener) on one
//! PostgreSQL: moves cross between them, and conflicting moves resolve to exactly one.

use crate::common;

use futures_util::StreamExt;
use serde_json::{json, Value};
use server::AppState;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;

async fn server(schema: &str) -> (AppState, SocketAddr) {
    let state = AppState::with_limits(
        Arc::new(common::pg_store(schema).await),
        common::unlimited(),
    )
    .await
    .expect("state");
    let addr = common::spawn(state.clone()).await;
    (state, addr)
}

async fn next_state(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> Value {
    loop {
        let message = timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a push within 10 s")
            .expect("open")
            .expect("message");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if value["type"] == "state" {
                return value;
            }
        }
    }
}

async fn post(
    http: &reqwest::Client,
    addr: SocketAddr,
    path: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let request = http.post(format!("http://{addr}{path}")).json(&body);
    common::remote::send_as(request, token).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_crosses_servers_and_a_conflict_has_one_winner() {
    if !common::pg_up().await {
        return;
    }
    let schema = common::unique_schema("two");
    let (state_a, a) = server(&schema).await;
    let (state_b, b) = server(&schema).await;
    let http = reqwest::Client::new();

    // The table is made on A; B loads it from the database on first use.
    let body = json!({"game": "distopia", "seed": 5, "seats": ["human", "human"]});
    let table = common::remote::create_table(&http, a, &body).await;
    let id = common::table_id(&table);
    let tokens: Vec<String> = (0..2).map(|s| common::seat_token(&table, s)).collect();
    let mut sockets = Vec::new();
    for token in &tokens {
        let url = format!("ws://{b}/api/tables/{id}/ws?token={token}");
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws on B");
        let first = next_state(&mut ws).await;
        assert_eq!(first["version"], 0);
        sockets.push(ws);
    }
    let (mut spectator_on_a, _) =
        tokio_tungstenite::connect_async(format!("ws://{a}/api/tables/{id}/ws"))
            .await
            .expect("ws on A");
    assert_eq!(next_state(&mut spectator_on_a).await["version"], 0);

    // Moves alternate between the servers; each reaches the clients of the other.
    for round in 0..6u64 {
        let view = next_or_current(&http, a, &id, &tokens[0]).await;
        let to_act = view["to_act"].as_u64().expect("to act") as usize;
        let (_, mine) = get(&http, a, &id, &tokens[to_act]).await;
        let action = mine["legal"][0].as_str().expect("legal").to_string();
        let via = if round % 2 == 0 { a } else { b };
        let (status, body) = post(
            &http,
            via,
            &format!("/api/tables/{id}/actions"),
            &tokens[to_act],
            json!({"action": action, "version": round}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        for ws in &mut sockets {
            let pushed = next_state(ws).await;
            assert_eq!(
                pushed["version"],
                round + 1,
                "pushed by B after a move on {via}"
            );
        }
        assert_eq!(next_state(&mut spectator_on_a).await["version"], round + 1);
    }

    // Two conflicting moves at one version, one through each server: exactly one wins.
    for round in 6..12u64 {
        let (_, view) = get(&http, a, &id, &tokens[0]).await;
        let to_act = view["to_act"].as_u64().expect("to act") as usize;
        let (_, mine) = get(&http, b, &id, &tokens[to_act]).await;
        let legal: Vec<String> = serde_json::from_value(mine["legal"].clone()).expect("legal");
        let first = legal[0].clone();
        let second = legal.last().cloned().unwrap_or_else(|| first.clone());
        let path = format!("/api/tables/{id}/actions");
        let (ra, rb) = tokio::join!(
            post(
                &http,
                a,
                &path,
                &tokens[to_act],
                json!({"action": first, "version": round})
            ),
            post(
                &http,
                b,
                &path,
                &tokens[to_act],
                json!({"action": second, "version": round})
            ),
        );
        let wins = [&ra, &rb].iter().filter(|(s, _)| *s == 200).count();
        assert_eq!(wins, 1, "exactly one of {ra:?} / {rb:?} is accepted");
        let loser = if ra.0 == 200 { &rb } else { &ra };
        assert_eq!(loser.0, 409);
        assert_eq!(loser.1["code"], "action/stale_version", "{loser:?}");
        for ws in &mut sockets {
            assert_eq!(next_state(ws).await["version"], round + 1);
        }
        assert_eq!(next_state(&mut spectator_on_a).await["version"], round + 1);
    }

    // Both servers and the database agree on every action.
    let rows = state_a.hub.store().actions(&id, 0).await.expect("rows");
    assert_eq!(rows.len(), 12);
    let (on_a, _, _) = state_a.hub.table(&id).await.expect("a").progress().await;
    let (on_b, _, _) = state_b.hub.table(&id).await.expect("b").progress().await;
    let stored: Vec<String> = rows.into_iter().map(|r| r.action).collect();
    let text = |moves: Vec<engine::Move>| -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    };
    assert_eq!(text(on_a), stored);
    assert_eq!(text(on_b), stored);
    common::drop_schema(&schema).await;
}

async fn get(http: &reqwest::Client, addr: SocketAddr, id: &str, token: &str) -> (u16, Value) {
    let request = http.get(format!("http://{addr}/api/tables/{id}/view"));
    common::remote::send_as(request, token).await
}

async fn next_or_current(http: &reqwest::Client, addr: SocketAddr, id: &str, token: &str) -> Value {
    get(http, addr, id, token).await.1
}
