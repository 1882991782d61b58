//! Seeds are secret: no HTTP body and no WebSocket frame sent before a game is over holds
//! the table's seed (in decimal or hex), its random state or its bot secret; the record of
//! the finished game does hold the seed, and replays.

use crate::common;

use common::spawn;
use engine::{GameRecord, Outcome};
use futures_util::StreamExt;
use rand::prelude::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;

/// Everything a client received, in order.
#[derive(Default)]
struct Seen {
    texts: Vec<String>,
}

impl Seen {
    /// Sends `request`, and keeps and returns the text answered.
    async fn text(&mut self, request: reqwest::RequestBuilder) -> String {
        let answer = request.send().await.expect("request");
        let text = answer.text().await.expect("body");
        self.texts.push(text.clone());
        text
    }
}

async fn get(http: &reqwest::Client, url: String, token: Option<&str>, seen: &mut Seen) -> Value {
    let mut request = http.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let text = seen.text(request).await;
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Collects every frame of a socket until the game is over (or 300 s pass).
async fn listen(addr: SocketAddr, id: String, token: Option<String>) -> Vec<String> {
    let url = match &token {
        Some(t) => format!("ws://{addr}/api/tables/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/tables/{id}/ws"),
    };
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    let mut frames = Vec::new();
    while let Ok(Some(Ok(message))) = timeout(Duration::from_secs(300), ws.next()).await {
        let text = match message {
            Message::Text(text) => text.as_str().to_string(),
            Message::Binary(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Message::Close(_) => break,
            _ => continue,
        };
        let over = serde_json::from_str::<Value>(&text)
            .map(|v| v["status"] == "finished")
            .unwrap_or(false);
        frames.push(text);
        if over {
            break;
        }
    }
    frames
}

/// The `rng` objects anywhere in a state's JSON.
fn rng_states(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "rng" {
                    out.push(inner.clone());
                }
                rng_states(inner, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| rng_states(v, out)),
        _ => {}
    }
}

/// The texts whose presence in a body would give the seed or random state away.
fn secrets(record: &GameRecord, bot_secret: &str) -> Vec<String> {
    let seed = record.seed;
    let mut out = vec![
        seed.to_string(),
        (seed as i64).to_string(),
        format!("{seed:x}"),
        format!("{seed:X}"),
        format!("{seed:016x}"),
        bot_secret.to_string(),
    ];
    let state = catalog::game(&record.game)
        .expect("game")
        .new_state(&record.config, seed)
        .expect("state");
    let mut rngs = Vec::new();
    rng_states(&state.state_json(), &mut rngs);
    assert!(!rngs.is_empty(), "{}: the state keeps its rng", record.game);
    for rng in rngs {
        let key = rng["seed"].as_array().expect("a ChaCha key").clone();
        let bytes: Vec<u8> = key
            .iter()
            .map(|b| u8::try_from(b.as_u64().expect("byte")).expect("byte"))
            .collect();
        out.push(Value::Array(key).to_string());
        out.push(bytes.iter().map(|b| format!("{b:02x}")).collect());
        out.push(rng.to_string());
    }
    out.retain(|s| s.len() >= 8);
    out
}

async fn one_game(game: &str, options: Value, seats: Value, rng_seed: u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("secrets.sqlite").display());
    let state = common::open_unlimited(&url).await;
    let hub = state.hub.clone();
    let addr = spawn(state).await;
    let http = reqwest::Client::new();
    let mut seen = Seen::default();
    let create = http
        .post(format!("http://{addr}/api/tables"))
        .json(&json!({"game": game, "options": options, "seats": seats}));
    let created = seen.text(create).await;
    let table: Value = serde_json::from_str(&created).expect("JSON");
    let id = table["id"].as_str().expect("id").to_string();
    assert_eq!(table["seed_chosen"], false, "{table}");
    assert!(table.get("seed").is_none(), "{table}");
    let tokens: Vec<Option<String>> = common::remote::tokens(&table);
    let mut sockets = vec![tokio::spawn(listen(addr, id.clone(), None))];
    for token in tokens.iter().flatten() {
        sockets.push(tokio::spawn(listen(addr, id.clone(), Some(token.clone()))));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(rng_seed);
    let base = format!("http://{addr}/api/tables/{id}");
    let mut finished_at = None;
    for step in 0..20_000u32 {
        let summary = get(&http, base.clone(), None, &mut seen).await;
        if step % 20 == 0 {
            get(&http, format!("http://{addr}/api/tables"), None, &mut seen).await;
            get(&http, format!("{base}/spectate"), None, &mut seen).await;
            get(&http, format!("{base}/board"), None, &mut seen).await;
            get(&http, format!("{base}/record"), None, &mut seen).await;
        }
        if summary["status"] == "finished" {
            finished_at = Some(step);
            break;
        }
        let Some(to_act) = summary["to_act"].as_u64() else {
            continue;
        };
        let Some(token) = tokens[to_act as usize].as_deref() else {
            // A bot's turn: it moves by itself.
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        let view = get(&http, format!("{base}/view"), Some(token), &mut seen).await;
        get(&http, format!("{base}/legal"), Some(token), &mut seen).await;
        get(&http, format!("{base}/board"), Some(token), &mut seen).await;
        let legal: Vec<String> = serde_json::from_value(view["legal"].clone()).expect("legal");
        let Some(action) = legal.choose(&mut rng) else {
            continue;
        };
        let reply = http
            .post(format!("{base}/actions"))
            .bearer_auth(token)
            .json(&json!({"action": action, "version": view["version"]}))
            .send()
            .await
            .expect("play")
            .text()
            .await
            .expect("body");
        seen.texts.push(reply);
    }
    assert!(finished_at.is_some(), "{game}: the game ended");
    let mut frames = Vec::new();
    for socket in sockets {
        frames.extend(socket.await.expect("socket"));
    }
    assert!(frames.len() > 2, "{game}: frames were received");
    // After the end: the record holds the seed and replays to the same result.
    let body = http
        .get(format!("{base}/record"))
        .send()
        .await
        .expect("record")
        .text()
        .await
        .expect("body");
    let published: Value = serde_json::from_str(&body).expect("JSON");
    let record: GameRecord = serde_json::from_value(published["record"].clone()).expect("record");
    let outcome: Outcome = serde_json::from_value(published["outcome"].clone()).expect("outcome");
    assert!(body.contains(&record.seed.to_string()));
    let mut replay = catalog::game(game)
        .expect("game")
        .new_state(&record.config, record.seed)
        .expect("state");
    for action in &record.actions {
        let action = replay.parse_action(action).expect("the record's notation");
        replay.apply_any(&action).expect("the record replays");
    }
    assert_eq!(
        replay.outcome(),
        Some(outcome),
        "{game}: the replay ends alike"
    );
    // Before the end: no body and no frame held a secret. The last frames (the final
    // state) and the bodies after the end may be searched too: they hold none either.
    let row = hub.store().game(&id).await.expect("store").expect("row");
    assert!(!row.seed_chosen);
    assert_eq!(row.bot_secret.len(), 64, "a 256-bit bot secret");
    let secrets = secrets(&record, &row.bot_secret);
    let received: Vec<&String> = seen.texts.iter().chain(frames.iter()).collect();
    assert!(received.len() > 20, "{game}: {} texts", received.len());
    for text in received {
        if text.contains("\"record\"") {
            continue;
        }
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "{game}: `{secret}` was sent before the end in {}",
                &text[..text.len().min(300)]
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_body_or_frame_before_the_end_holds_the_seed_dropsite() {
    one_game(
        "dropsite",
        json!({"players": 3, "target": 30}),
        json!(["human", "random", "human"]),
        1,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_body_or_frame_before_the_end_holds_the_seed_distopia() {
    one_game("distopia", json!({}), json!(["human", "random"]), 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_body_or_frame_before_the_end_holds_the_seed_euphoria() {
    one_game(
        "euphoria",
        json!({"players": 2}),
        json!(["human", "random"]),
        3,
    )
    .await;
}
