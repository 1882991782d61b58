//! Table life through the router: open seats taken by name, chat, rematch.

use crate::common;

use axum::http::StatusCode;
use common::{
    act, create_table as create, get, new_table, post_json, post_to, seat_token, seat_view as view,
    table_id as id,
};
use serde_json::{json, Value};
use server::AppState;

fn token_of(seated: &Value) -> String {
    seated["token"].as_str().expect("token").to_string()
}

/// Plays `seat`'s first legal action; returns the new version.
async fn play_first(state: &AppState, id: &str, token: &str) -> Value {
    let v = view(state, id, token).await;
    let action = v["legal"][0].as_str().expect("a legal action").to_string();
    let (status, after) = act(state, id, token, &action, &v["version"]).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    after
}

#[tokio::test]
async fn open_seats_are_listed_taken_by_name_and_the_game_waits_for_them() {
    let (state, table, id) = new_table(
        json!({"game": "distopia", "seats": [{"player": "human", "name": "Ada"}, "open"]}),
    )
    .await;
    let ada = seat_token(&table, 0);
    assert_eq!(table["open_seats"], json!([1]));
    assert_eq!(table["seats"][1]["player"], "open");
    assert!(table["seats"][1].get("token").is_none(), "{table}");

    // The lobby lists it with its open seat.
    let (_, lobby) = get(&state, "/api/tables", None).await;
    let listed = lobby
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    assert_eq!(listed["open_seats"], json!([1]));

    // Nobody moves while a seat is open, and nothing changes.
    let v = view(&state, &id, &ada).await;
    assert_eq!(v["open_seats"], json!([1]));
    if v["to_act"] == 0 {
        let action = v["legal"][0].as_str().expect("legal").to_string();
        let (status, err) = act(&state, &id, &ada, &action, 0).await;
        assert_eq!(status, StatusCode::CONFLICT, "{err}");
        assert_eq!(err["code"], "table/waiting");
        assert!(err["message"]
            .as_str()
            .expect("message")
            .contains("seat 2 is still open"));
        assert_eq!(view(&state, &id, &ada).await["version"], 0);
    }

    // Refusals: no such seat, a taken seat, a bad name; nothing changes.
    for (uri, body, code, status) in [
        (
            format!("/api/tables/{id}/seats/5/join"),
            json!({"name": "Bo"}),
            "seat/not_found",
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/tables/{id}/seats/x/join"),
            json!({"name": "Bo"}),
            "seat/not_found",
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/api/tables/{id}/seats/0/join"),
            json!({"name": "Bo"}),
            "seat/taken",
            StatusCode::CONFLICT,
        ),
        (
            format!("/api/tables/{id}/seats/1/join"),
            json!({"name": "x".repeat(25)}),
            "seat/name",
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/tables/{id}/seats/1/join"),
            json!({"name": "a\u{7}b"}),
            "seat/name",
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/tables/{id}/seats/1/join"),
            json!({"nom": "Bo"}),
            "request/malformed",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (got, err) = post_json(&state, &uri, None, &body).await;
        assert_eq!(
            (got, err["code"].as_str()),
            (status, Some(code)),
            "{uri} {body}: {err}"
        );
    }
    assert_eq!(view(&state, &id, &ada).await["open_seats"], json!([1]));

    // Taken by name: a token, an invite to the page, the name everywhere.
    let name = "<b>Bo</b> & co";
    let (status, seated) = post_to(&state, &id, "seats/1/join", None, &json!({"name": name})).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(seated["seat"], 1);
    assert_eq!(seated["name"], name, "stored as text, not markup");
    let bo = token_of(&seated);
    assert_eq!(
        seated["invite"],
        format!("/play/{id}?token={bo}").as_str(),
        "the invite opens the page, not the JSON"
    );
    let v = view(&state, &id, &bo).await;
    assert_eq!(v["seat"], 1);
    assert_eq!(v["names"], json!(["Ada", name]));
    assert_eq!(v["open_seats"], json!([]));
    // The seat is gone for anyone else.
    let (status, err) = post_to(&state, &id, "seats/1/join", None, &json!({})).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (StatusCode::CONFLICT, Some("seat/taken"))
    );

    // Now the game runs.
    let to_act = v["to_act"].as_u64().expect("someone acts") as usize;
    let token = if to_act == 0 { &ada } else { &bo };
    assert_eq!(play_first(&state, &id, token).await["version"], 1);
}

#[tokio::test]
async fn an_open_seat_holds_the_bots_back_until_taken() {
    // The bot sits first: it may not move before the open seat is taken.
    let (state, _, id) = new_table(json!({"game": "distopia", "seats": ["random", "open"]})).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, summary) = get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(summary["version"], 0, "{summary}");
    let (status, seated) = post_to(&state, &id, "seats/1/join", None, &json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(
        seated["name"], "Seat 2",
        "without a name, the seat's number from 1"
    );
    let bo = token_of(&seated);
    // Where Bo begins, Bo's move comes first; then the bot answers by itself.
    // (A Distop-IA turn may take several actions.)
    let mut moved = 0;
    while view(&state, &id, &bo).await["to_act"] == 1 {
        play_first(&state, &id, &bo).await;
        moved += 1;
    }
    for _ in 0..100 {
        if view(&state, &id, &bo).await["version"].as_u64() > Some(moved) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the bot did not move once the seat was taken");
}

#[tokio::test]
async fn chat_is_stored_in_order_limited_and_kept_as_text() {
    let (state, table, id) = new_table(
        json!({"game": "dropsite", "seats": [{"player": "human", "name": "Ada"}, "human"]}),
    )
    .await;
    let ada = seat_token(&table, 0);
    let uri = format!("/api/tables/{id}/chat");

    let (status, line) = post_json(
        &state,
        &uri,
        Some(&ada),
        &json!({"text": "  good luck <script>x</script> "}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{line}");
    assert_eq!(line["seq"], 0);
    assert_eq!(line["seat"], 0);
    assert_eq!(line["name"], "Ada");
    assert_eq!(
        line["text"], "good luck <script>x</script>",
        "trimmed, kept as text"
    );

    // A spectator chats under a name it gives.
    let (status, line) = post_json(
        &state,
        &uri,
        None,
        &json!({"text": "hi all", "name": "Kibitzer"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{line}");
    assert_eq!(
        (
            line["seq"].as_u64(),
            line["seat"].is_null(),
            line["name"].as_str()
        ),
        (Some(1), true, Some("Kibitzer"))
    );

    // Refusals change nothing.
    let long = "x".repeat(501);
    let invalid = [
        "",
        "   ",
        long.as_str(),
        "two\nlines",
        "two\u{2029}paragraphs",
        "turned \u{202e}round",
        "\u{200b}",
    ]
    .map(|text| (Some(ada.as_str()), json!({ "text": text }), "chat/invalid"));
    for (token, body, code) in invalid.into_iter().chain([
        (None, json!({"text": "who am I"}), "seat/name"),
        (None, json!({"text": "hi", "name": ""}), "seat/name"),
        (Some("not-a-token"), json!({"text": "hi"}), "auth/bad_token"),
        (
            Some(ada.as_str()),
            json!({"text": "hi", "colour": "red"}),
            "request/malformed",
        ),
    ]) {
        let (status, err) = post_json(&state, &uri, token, &body).await;
        assert!(status.is_client_error(), "{body}: {status} {err}");
        assert_eq!(err["code"], code, "{body}: {err}");
    }
    let (status, chat) = get(&state, &uri, None).await;
    assert_eq!(status, StatusCode::OK);
    let lines = chat["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 2, "{chat}");
    assert_eq!(lines[1]["text"], "hi all");
    let (_, since) = get(&state, &format!("{uri}?since=1"), None).await;
    assert_eq!(since["lines"].as_array().map(Vec::len), Some(1));
    // 500 characters (not bytes) are fine.
    let (status, _) = post_json(&state, &uri, Some(&ada), &json!({"text": "é".repeat(500)})).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn chat_is_rate_limited_per_writer() {
    let store = server::SqliteStore::connect("sqlite::memory:")
        .await
        .expect("sqlite");
    let state = AppState::with_limits(std::sync::Arc::new(store), server::Limits::default())
        .await
        .expect("state");
    let table = create(&state, json!({"game": "dropsite"})).await;
    let id = id(&table);
    let ada = seat_token(&table, 0);
    let bo = seat_token(&table, 1);
    let uri = format!("/api/tables/{id}/chat");
    let mut refused = None;
    for i in 0..20 {
        let (status, err) = post_json(
            &state,
            &uri,
            Some(&ada),
            &json!({"text": format!("line {i}")}),
        )
        .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((i, err));
            break;
        }
    }
    let (i, err) = refused.expect("a burst of chat lines meets the limit");
    assert_eq!(i, server::domain::CHAT_BURST as usize, "{err}");
    assert_eq!(err["code"], "request/rate_limited");
    // Another writer is not held back.
    let (status, _) = post_json(&state, &uri, Some(&bo), &json!({"text": "me too"})).await;
    assert_eq!(status, StatusCode::CREATED);
}

/// Plays a Distop-IA table to its end with every seat taking its first legal action.
async fn play_out(state: &AppState, id: &str, tokens: &[String]) -> Value {
    for _ in 0..5000 {
        let v = view(state, id, &tokens[0]).await;
        if v["status"] == "finished" {
            return v;
        }
        let seat = v["to_act"].as_u64().expect("to act") as usize;
        play_first(state, id, &tokens[seat]).await;
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn a_rematch_is_one_table_with_seats_rotated_and_the_series_score() {
    let (state, table, id) = new_table(json!({"game": "distopia", "seats": [{"player": "human", "name": "Ada"}, {"player": "human", "name": "Bo"}]})).await;
    let tokens: Vec<String> = (0..2).map(|s| seat_token(&table, s)).collect();

    // Not before the end.
    let (status, err) = post_to(&state, &id, "rematch", Some(&tokens[0]), &json!({})).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (StatusCode::CONFLICT, Some("game/not_over"))
    );
    let (status, err) = post_to(&state, &id, "rematch", None, &json!({})).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("auth/required"))
    );

    let end = play_out(&state, &id, &tokens).await;
    let places = end["outcome"]["places"].as_array().expect("places").clone();

    // Ada asks: a new table; Bo asks: the same table, never a second.
    let (status, first) = post_to(&state, &id, "rematch", Some(&tokens[0]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (status, second) = post_to(&state, &id, "rematch", Some(&tokens[1]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(first["table"], second["table"], "one rematch, never two");
    let next = first["table"].as_str().expect("id").to_string();
    assert_ne!(next, id);
    // Asking again gives the same seat and token.
    let (_, again) = post_to(&state, &id, "rematch", Some(&tokens[0]), &json!({})).await;
    assert_eq!(again, first);

    // Seats rotated: Ada (seat 1) now sits at seat 2, Bo at seat 1.
    assert_eq!(
        (first["seat"].as_u64(), second["seat"].as_u64()),
        (Some(1), Some(0))
    );
    let ada = token_of(&first);
    let bo = token_of(&second);
    assert_ne!(ada, tokens[0]);
    assert_eq!(
        first["invite"],
        format!("/play/{next}?token={ada}").as_str()
    );
    let v = view(&state, &next, &ada).await;
    assert_eq!(v["seat"], 1);
    assert_eq!(v["names"], json!(["Bo", "Ada"]));
    assert_eq!(view(&state, &next, &bo).await["seat"], 0);
    // The old tokens do not open the new table.
    let (status, _) = get(
        &state,
        &format!("/api/tables/{next}/view"),
        Some(&tokens[0]),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The series: one game, its wins by the new seats.
    let won = |old: usize| u64::from(places[old] == 0);
    let series = &v["series"];
    assert_eq!(series["previous"], id.as_str());
    assert_eq!(series["games"], 1);
    assert_eq!(series["wins"], json!([won(1), won(0)]));
    // The old table names its rematch for everyone still on it.
    let (_, old) = get(&state, &format!("/api/tables/{id}/spectate"), None).await;
    assert_eq!(old["rematch"], next.as_str());
    let (_, summary) = get(&state, &format!("/api/tables/{next}"), None).await;
    assert_eq!(summary["series"]["games"], 1);

    // A second game in the series counts on.
    let end = play_out(&state, &next, &[bo.clone(), ada.clone()]).await;
    let (status, third) = post_to(&state, &next, "rematch", Some(&ada), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{third}");
    assert_eq!(third["seat"], 0, "Ada moves on to seat 1");
    let p2 = end["outcome"]["places"].as_array().expect("places");
    let wins = third["series"]["wins"].as_array().expect("wins");
    assert_eq!(third["series"]["games"], 2);
    let total: u64 = wins.iter().filter_map(Value::as_u64).sum();
    let firsts = p2.iter().filter(|p| **p == 0).count() as u64
        + places.iter().filter(|p| **p == 0).count() as u64;
    assert_eq!(total, firsts, "every first place counted once");
    // Ada: won(0) in game 1, and at seat 2 (index 1) in game 2.
    assert_eq!(wins[0].as_u64(), Some(won(0) + u64::from(p2[1] == 0)));
}

#[tokio::test]
async fn chat_and_seats_reach_the_socket() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let (state, table, id) =
        new_table(json!({"game": "distopia", "seats": ["human", "open"]})).await;
    let ada = seat_token(&table, 0);
    let addr = common::spawn(state.clone()).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/tables/{id}/ws"))
            .await
            .expect("spectator socket");
    let mut next = async || -> Value {
        let deadline = std::time::Duration::from_secs(5);
        loop {
            let message = tokio::time::timeout(deadline, socket.next())
                .await
                .expect("a message in time")
                .expect("open")
                .expect("frame");
            if let Message::Text(text) = message {
                return serde_json::from_str(text.as_str()).expect("json");
            }
        }
    };
    let first = next().await;
    assert_eq!(first["open_seats"], json!([1]));
    let (status, _) = post_to(&state, &id, "seats/1/join", None, &json!({"name": "Bo"})).await;
    assert_eq!(status, StatusCode::CREATED);
    let seated = next().await;
    assert_eq!(seated["type"], "state");
    assert_eq!(seated["open_seats"], json!([]));
    assert_eq!(seated["names"][1], "Bo");
    let (status, _) = post_to(&state, &id, "chat", Some(&ada), &json!({"text": "gl hf"})).await;
    assert_eq!(status, StatusCode::CREATED);
    let chat = next().await;
    assert_eq!(chat["type"], "chat", "{chat}");
    assert_eq!(chat["line"]["text"], "gl hf");
    assert_eq!(chat["line"]["name"], "Seat 1");
    let _ = socket.close(None).await;
}
