//! The coach at a table, over real sockets: hints (given to the seat to act at a table
//! with hints, refused otherwise, rate-limited per token, told in the chat without the
//! moves), and the review of a finished game (refused before the end, made in the
//! background, stored, and served again by a restarted server without searching again).

use crate::common;

use serde_json::{json, Value};
use server::{AppState, Limits, SqliteStore};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A server on the SQLite file `db` with `limits`.
async fn serve(db: &str, limits: Limits) -> (SocketAddr, AppState) {
    let store = SqliteStore::connect(db).await.expect("sqlite");
    let state = AppState::with_limits(Arc::new(store), limits)
        .await
        .expect("state");
    (common::spawn(state.clone()).await, state)
}

/// One call: the status, `Retry-After` and the JSON body.
async fn call(
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Option<u64>, Value) {
    let http = reqwest::Client::new();
    let mut request = http.request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let retry = common::remote::retry_after(&response);
    let text = response.text().await.expect("body");
    (
        status,
        retry,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

async fn create(addr: SocketAddr, body: Value) -> Value {
    let (status, _, table) = call(
        reqwest::Method::POST,
        format!("http://{addr}/api/tables"),
        None,
        Some(body),
    )
    .await;
    assert_eq!(status, 201, "{table}");
    table
}

async fn hint(addr: SocketAddr, id: &str, token: Option<&str>) -> (u16, Option<u64>, Value) {
    call(
        reqwest::Method::POST,
        format!("http://{addr}/api/tables/{id}/hint"),
        token,
        None,
    )
    .await
}

async fn view(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (status, _, view) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/view"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(status, 200, "{view}");
    view
}

fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_given_on_your_turn_and_refused_otherwise() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let (addr, _state) = serve(&db, common::unlimited()).await;

    // Without a bot, hints are off unless asked for; with a bot, on unless turned off.
    let off = create(
        addr,
        json!({"game": "dropsite", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(off["table"]["hints"], json!(false));
    let id = common::table_id(&off);
    let token = common::seat_token(&off, 0);
    let (status, _, body) = hint(addr, &id, Some(&token)).await;
    assert_eq!((status, code(&body)), (403, "hint/off"), "{body}");
    assert!(body["message"]
        .as_str()
        .unwrap_or_default()
        .contains("without hints"));
    let botted = create(
        addr,
        json!({"game": "dropsite", "seats": ["human", "random"]}),
    )
    .await;
    assert_eq!(botted["table"]["hints"], json!(true));
    let quiet = create(
        addr,
        json!({"game": "dropsite", "seats": ["human", "random"], "table": {"hints": false}}),
    )
    .await;
    assert_eq!(quiet["table"]["hints"], json!(false));
    // The lobby lists the choice.
    let (_, _, lobby) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables"),
        None,
        None,
    )
    .await;
    let listed = |id: &str| {
        lobby
            .as_array()
            .and_then(|l| l.iter().find(|t| t["id"] == json!(id)))
            .map(|t| t["table"]["hints"].clone())
    };
    assert_eq!(listed(&common::table_id(&botted)), Some(json!(true)));
    assert_eq!(listed(&id), Some(json!(false)));

    // A table with an open seat has not started.
    let waiting = create(
        addr,
        json!({"game": "dropsite", "seats": ["human", "open"], "table": {"hints": true}}),
    )
    .await;
    let (status, _, body) = hint(
        addr,
        &common::table_id(&waiting),
        Some(&common::seat_token(&waiting, 0)),
    )
    .await;
    assert_eq!((status, code(&body)), (409, "table/waiting"), "{body}");

    let table = create(
        addr,
        json!({"game": "dropsite", "seats": [{"player": "human", "name": "Ann"}, "human"], "table": {"hints": true}}),
    )
    .await;
    let id = common::table_id(&table);
    let tokens = common::seat_tokens(&table);
    let first = view(addr, &id, &tokens[0]).await;
    let to_act = first["to_act"].as_u64().expect("a seat to act") as usize;
    let other = 1 - to_act;

    // A spectator, a stranger's token, and the seat not to act are refused.
    let (status, _, body) = hint(addr, &id, None).await;
    assert_eq!((status, code(&body)), (403, "hint/not_seated"), "{body}");
    let (status, _, body) = hint(addr, &id, Some("not-a-token")).await;
    assert_eq!((status, code(&body)), (401, "auth/bad_token"), "{body}");
    let (status, _, body) = hint(addr, &id, Some(&tokens[other])).await;
    assert_eq!(
        (status, code(&body)),
        (409, "action/not_your_turn"),
        "{body}"
    );
    assert!(body["message"]
        .as_str()
        .unwrap_or_default()
        .contains("not your turn"));

    // The seat to act gets at most three legal moves, in words, with their chances.
    let (status, _, got) = hint(addr, &id, Some(&tokens[to_act])).await;
    assert_eq!(status, 200, "{got}");
    let now = view(addr, &id, &tokens[to_act]).await;
    assert_eq!(got["version"], now["version"]);
    let legal: Vec<&str> = (now["legal"].as_array().expect("legal").iter())
        .filter_map(Value::as_str)
        .collect();
    let moves = got["moves"].as_array().expect("moves");
    assert!(!moves.is_empty() && moves.len() <= 3, "{got}");
    for m in moves {
        let action = m["action"].as_str().expect("action");
        assert!(legal.contains(&action), "`{action}` is legal: {legal:?}");
        let label = m["label"].as_str().expect("label");
        let described = (now["moves"].as_array().expect("moves").iter())
            .find(|d| d["action"] == json!(action))
            .expect("a described move");
        assert_eq!(
            described["label"],
            json!(label),
            "the label is the move's words"
        );
        assert!(
            label.chars().any(char::is_alphabetic) && label != action,
            "{label}"
        );
        let chance = m["chance"].as_f64().expect("chance");
        assert!((0.0..=1.0).contains(&chance), "{chance}");
        assert!(m["place"].is_null(), "no expected place at two seats");
    }
    let first_move = moves[0]["action"].as_str().expect("action").to_string();

    // The other seat and a spectator read that the seat asked, not what it was told.
    for token in [Some(tokens[other].as_str()), None] {
        let (_, _, chat) = call(
            reqwest::Method::GET,
            format!("http://{addr}/api/tables/{id}/chat"),
            token,
            None,
        )
        .await;
        let lines = chat["lines"].as_array().expect("lines");
        let asked: Vec<&Value> = lines
            .iter()
            .filter(|l| l["kind"] == json!("hint"))
            .collect();
        assert_eq!(asked.len(), 1, "{chat}");
        let text = asked[0]["text"].as_str().expect("text");
        let expected = if to_act == 0 {
            "Seat 1 (Ann) asked for a hint".to_string()
        } else {
            "Seat 2 asked for a hint".to_string()
        };
        assert_eq!(text, expected);
        assert_eq!(asked[0]["seat"], json!(to_act));
        for m in moves {
            for said in [m["action"].as_str(), m["label"].as_str()]
                .into_iter()
                .flatten()
            {
                assert!(
                    !chat.to_string().contains(said),
                    "the chat tells no move: {chat}"
                );
            }
        }
    }
    // The asking seat reads the note about itself in the second person.
    let (_, _, own) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/chat"),
        Some(&tokens[to_act]),
        None,
    )
    .await;
    let own: Vec<&Value> = (own["lines"].as_array().expect("lines").iter())
        .filter(|l| l["kind"] == json!("hint"))
        .collect();
    assert_eq!(own.len(), 1);
    assert_eq!(own[0]["text"], json!("You asked for a hint"));
    // Asking moved nothing: the seat plays the move it chooses (here the first one).
    assert_eq!(
        view(addr, &id, &tokens[to_act]).await["version"],
        now["version"]
    );
    let (status, _, played) = call(
        reqwest::Method::POST,
        format!("http://{addr}/api/tables/{id}/actions"),
        Some(&tokens[to_act]),
        Some(json!({"action": first_move, "version": now["version"]})),
    )
    .await;
    assert_eq!(status, 200, "{played}");

    // Once the game is over (a resignation), there is nothing left to hint.
    let (status, _, over) = call(
        reqwest::Method::POST,
        format!("http://{addr}/api/tables/{id}/resign"),
        Some(&tokens[to_act]),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["status"], json!("finished"));
    for token in &tokens {
        let (status, _, body) = hint(addr, &id, Some(token)).await;
        assert_eq!((status, code(&body)), (409, "game/over"), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_rate_limited_per_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let limits = Limits {
        coach_iterations: 32,
        hint_burst: 2,
        hints_per_minute: 1,
        ..Limits::default()
    };
    let (addr, _state) = serve(&db, limits).await;
    let table = create(
        addr,
        json!({"game": "distopia", "seats": ["human", "human"], "table": {"hints": true}}),
    )
    .await;
    let id = common::table_id(&table);
    let tokens = common::seat_tokens(&table);
    let to_act = view(addr, &id, &tokens[0]).await["to_act"]
        .as_u64()
        .expect("to act") as usize;
    // How long the seat waits for a hint, without asking for one.
    let wait = |token: String| {
        let url = format!("http://{addr}/api/tables/{id}/hint");
        async move {
            let (status, _, body) = call(reqwest::Method::GET, url, Some(&token), None).await;
            assert_eq!(status, 200, "{body}");
            body["wait"].as_u64().expect("wait")
        }
    };
    assert_eq!(wait(tokens[to_act].clone()).await, 0);
    for n in 0..2 {
        let (status, _, body) = hint(addr, &id, Some(&tokens[to_act])).await;
        assert_eq!(status, 200, "{body}");
        // The first hint leaves one of the burst; the second none: wait for the minute.
        let after = body["wait"].as_u64().expect("wait");
        assert_eq!(after == 0, n == 0, "{body}");
    }
    let waiting = wait(tokens[to_act].clone()).await;
    assert!((1..=60).contains(&waiting), "{waiting}");
    let (status, retry, body) = hint(addr, &id, Some(&tokens[to_act])).await;
    assert_eq!(
        (status, code(&body)),
        (429, "request/rate_limited"),
        "{body}"
    );
    assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");
    // For a program, the seconds in the body as in `Retry-After`; for a player, words
    // without the server's flags.
    assert_eq!(body["retry_after"].as_u64(), retry, "{body}");
    let seconds = retry.unwrap_or_default();
    assert_eq!(
        body["message"],
        json!(format!(
            "You can ask for another hint in {seconds} second{}.",
            if seconds == 1 { "" } else { "s" }
        ))
    );
    // Another table's seat has its own bucket.
    let again = create(
        addr,
        json!({"game": "distopia", "seats": ["human", "human"], "table": {"hints": true}}),
    )
    .await;
    let again_id = common::table_id(&again);
    let again_tokens = common::seat_tokens(&again);
    let seat = view(addr, &again_id, &again_tokens[0]).await["to_act"]
        .as_u64()
        .expect("to act") as usize;
    let (status, _, body) = hint(addr, &again_id, Some(&again_tokens[seat])).await;
    assert_eq!(status, 200, "{body}");
    // Only the asking seat's hints were told, twice.
    let (_, _, chat) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/chat"),
        None,
        None,
    )
    .await;
    let told = (chat["lines"].as_array().expect("lines").iter())
        .filter(|l| l["kind"] == json!("hint"))
        .count();
    assert_eq!(told, 2);
}

/// Waits (bounded) until table `id` is finished.
async fn wait_finished(addr: SocketAddr, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, _, table) = call(
            reqwest::Method::GET,
            format!("http://{addr}/api/tables/{id}"),
            None,
            None,
        )
        .await;
        if table["status"] == json!("finished") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the bots did not finish: {table}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn get_review(addr: SocketAddr, id: &str) -> (u16, Value) {
    let (status, _, body) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/review"),
        None,
        None,
    )
    .await;
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_made_once_the_game_is_over_stored_and_served_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let (addr, state) = serve(&db, common::unlimited()).await;

    // Before the end: refused, and nothing is searched.
    let live = create(
        addr,
        json!({"game": "dropsite", "seats": ["human", "human"]}),
    )
    .await;
    let (status, body) = get_review(addr, &common::table_id(&live)).await;
    assert_eq!((status, code(&body)), (409, "game/not_over"), "{body}");
    assert!(body["message"]
        .as_str()
        .unwrap_or_default()
        .contains("once the game is over"));
    let (status, body) = get_review(addr, "no-such-table").await;
    assert_eq!((status, code(&body)), (404, "game/not_found"), "{body}");

    // Two bots play a game to its end.
    let table = create(
        addr,
        json!({"game": "dropsite", "seats": ["random", "random"]}),
    )
    .await;
    let id = common::table_id(&table);
    wait_finished(addr, &id).await;
    let (_, _, record) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/record"),
        None,
        None,
    )
    .await;
    let actions = record["record"]["actions"]
        .as_array()
        .expect("actions")
        .len();

    // The first call starts it; later ones tell how far it is, then answer it.
    let (status, first) = get_review(addr, &id).await;
    assert_eq!(status, 200, "{first}");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen_progress = Vec::new();
    let done = loop {
        let (status, body) = get_review(addr, &id).await;
        assert_eq!(status, 200, "{body}");
        if body["status"] == json!("done") {
            break body;
        }
        assert_eq!(body["status"], json!("running"), "{body}");
        let (n, of) = (
            body["done"].as_u64().expect("done"),
            body["of"].as_u64().expect("of"),
        );
        assert!(n <= of || of == 0, "{body}");
        seen_progress.push(n);
        assert!(
            Instant::now() < deadline,
            "the review did not finish: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        seen_progress.windows(2).all(|w| w[0] <= w[1]),
        "progress only grows: {seen_progress:?}"
    );
    let review = &done["review"];
    assert_eq!(review["game"], json!("dropsite"));
    assert_eq!(review["seats"], json!(2));
    let moves = review["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), actions, "every move of the record is reviewed");
    for m in moves {
        for advice in [&m["played"], &m["best"]] {
            let label = advice["label"].as_str().expect("label");
            assert!(label.chars().any(char::is_alphabetic), "{m}");
            let chance = advice["chance"].as_f64().expect("chance");
            assert!((0.0..=1.0).contains(&chance), "{m}");
        }
        assert!(m["loss"].as_f64().expect("loss") >= 0.0);
    }
    let series = review["series"].as_array().expect("series");
    assert_eq!(series.len(), 2);
    let points: usize = series
        .iter()
        .map(|s| s.as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(points, actions, "one point per decision");
    assert!(
        review["ending"]["why"]
            .as_str()
            .is_some_and(|w| !w.is_empty()),
        "{review}"
    );
    assert_eq!(done["names"], json!(["Seat 1", "Seat 2"]));
    // Stored: in the database itself.
    let stored = state
        .hub
        .store()
        .review(&id)
        .await
        .expect("read")
        .expect("stored");
    let stored: Value = serde_json::from_str(&stored).expect("JSON");
    assert_eq!(stored["moves"], review["moves"]);

    // A past moment of the finished game, as the seat that moved saw it.
    let marked = moves
        .iter()
        .find(|m| m["ply"].as_u64().is_some())
        .expect("a move");
    let ply = marked["ply"].as_u64().expect("ply");
    let seat = marked["seat"].as_u64().expect("seat");
    let (status, _, moment) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/moments/{ply}?seat={seat}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{moment}");
    assert_eq!(
        (moment["version"].as_u64(), moment["to_act"].as_u64()),
        (Some(ply), Some(seat))
    );
    assert!(moment["view"].is_object());
    let (status, _, body) = call(
        reqwest::Method::GET,
        format!("http://{addr}/api/tables/{id}/moments/{}", actions + 1),
        None,
        None,
    )
    .await;
    assert_eq!((status, code(&body)), (400, "request/malformed"), "{body}");
    let (status, _, body) = call(
        reqwest::Method::GET,
        format!(
            "http://{addr}/api/tables/{}/moments/0",
            common::table_id(&live)
        ),
        None,
        None,
    )
    .await;
    assert_eq!((status, code(&body)), (409, "game/not_over"), "{body}");

    // A restarted server serves the stored review at the first call: nothing is searched
    // again (a review being made would answer `running`).
    drop(state);
    let (again, _state) = serve(&db, common::unlimited()).await;
    let (status, body) = get_review(again, &id).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], json!("done"), "{body}");
    assert_eq!(body["review"], done["review"]);
}
