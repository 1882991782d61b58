//! Table moves and time through the router: undo, resign, clocks, a bot taking the seat
//! of a player who left and the player coming back.

use crate::common;

use axum::http::StatusCode;
use common::{
    act, create_table as create, get, memory_state, new_table, post_json, post_to, seat_tokens,
    seat_view as view, table_id as id,
};
use engine::{DynState, Viewer};
use rand::prelude::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use server::AppState;
use std::time::Duration;

async fn undo(state: &AppState, id: &str, token: &str) -> (StatusCode, Value) {
    post_to(state, id, "undo", Some(token), &json!({})).await
}

/// The game's state at the server now.
async fn server_state(state: &AppState, id: &str) -> Box<dyn DynState> {
    let table = state.hub.table(id).await.expect("table");
    table.progress().await.2
}

/// The seat to act at table `id` and its view, or `None` once the game is finished.
async fn seat_to_act(state: &AppState, id: &str, tokens: &[String]) -> Option<(usize, Value)> {
    let any = view(state, id, &tokens[0]).await;
    if any["status"] == "finished" {
        return None;
    }
    let seat = any["to_act"].as_u64().expect("to act") as usize;
    Some((seat, view(state, id, &tokens[seat]).await))
}

/// Plays random games of `game` through the API; after every move, the mover's
/// `can_undo` says what the game says of the move, an undo where allowed gives back the
/// view before the move (a new version), and one that is not is refused with nothing
/// changed. Returns (undos allowed, undos refused).
async fn undo_as_the_game_allows(game: &str, options: Value, seed: u64) -> (usize, usize) {
    let (state, table, id) =
        new_table(json!({"game": game, "options": options, "seed": seed})).await;
    let tokens = seat_tokens(&table);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let (mut allowed, mut refused) = (0, 0);
    for _ in 0..400 {
        let Some((seat, before)) = seat_to_act(&state, &id, &tokens).await else {
            break;
        };
        let legal: Vec<String> = serde_json::from_value(before["legal"].clone()).expect("legal");
        let action = legal.choose(&mut rng).expect("a legal action").clone();
        let now = server_state(&state, &id).await;
        let takeable = now.may_take_back_any(&now.parse_action(&action).expect("notation"));
        let (status, after) = act(&state, &id, &tokens[seat], &action, &before["version"]).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let ended = after["status"] == "finished";
        assert_eq!(
            after["can_undo"],
            json!(takeable && !ended),
            "{game}: `{action}`"
        );
        // Another seat may never take it back.
        let other = (seat + 1) % tokens.len();
        let (status, err) = undo(&state, &id, &tokens[other]).await;
        assert!(
            status.is_client_error(),
            "{game}: seat {other} undid `{action}`"
        );
        assert!(err["message"].as_str().is_some_and(|m| !m.is_empty()));
        let (status, undone) = undo(&state, &id, &tokens[seat]).await;
        if takeable && !ended {
            assert_eq!(status, StatusCode::OK, "{game}: undo `{action}`: {undone}");
            allowed += 1;
            assert_eq!(
                undone["view"], before["view"],
                "{game}: `{action}` taken back"
            );
            assert_eq!(undone["legal"], before["legal"]);
            assert_eq!(
                undone["version"].as_u64(),
                before["version"].as_u64().map(|v| v + 2),
                "versions keep rising"
            );
            // Played again, the game goes on.
            let (status, _) = act(&state, &id, &tokens[seat], &action, &undone["version"]).await;
            assert_eq!(status, StatusCode::OK);
        } else {
            assert!(
                status.is_client_error(),
                "{game}: undo of `{action}` allowed"
            );
            let code = if ended {
                "action/game_over"
            } else {
                "action/illegal"
            };
            assert_eq!(err_code(&undone), code, "{undone}");
            refused += 1;
            let now = view(&state, &id, &tokens[seat]).await;
            assert_eq!(
                now["version"], after["version"],
                "a refused undo changes nothing"
            );
            assert_eq!(now["view"], after["view"]);
        }
    }
    // The record, undo entries and all, replays to the state the server holds.
    (allowed, refused)
}

fn err_code(v: &Value) -> &str {
    v["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn drop_site_takes_nothing_back() {
    let (allowed, refused) = undo_as_the_game_allows("dropsite", json!({"target": 10}), 3).await;
    assert_eq!(allowed, 0, "every Drop Site action draws");
    assert!(refused > 20);
}

#[tokio::test]
async fn distopia_takes_back_what_the_game_allows_and_refuses_the_rest() {
    let (allowed, refused) = undo_as_the_game_allows("distopia", json!({}), 5).await;
    assert!(
        allowed > 0 && refused > 0,
        "allowed {allowed}, refused {refused}"
    );
}

#[tokio::test]
async fn euphoria_takes_back_what_the_game_allows_and_refuses_the_rest() {
    let (allowed, refused) = undo_as_the_game_allows("euphoria", json!({"players": 2}), 7).await;
    assert!(
        allowed > 0 && refused > 0,
        "allowed {allowed}, refused {refused}"
    );
}

#[tokio::test]
async fn undo_entries_are_stored_and_the_record_replays_to_the_same_game() {
    let (state, table, id) = new_table(json!({"game": "distopia", "seed": 11})).await;
    let tokens = seat_tokens(&table);
    let mut undos = 0;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for _ in 0..2000 {
        let Some((seat, v)) = seat_to_act(&state, &id, &tokens).await else {
            break;
        };
        if v["can_undo"] == true && undos < 5 {
            let (status, _) = undo(&state, &id, &tokens[seat]).await;
            assert_eq!(status, StatusCode::OK);
            undos += 1;
            continue;
        }
        let legal: Vec<String> = serde_json::from_value(v["legal"].clone()).expect("legal");
        let action = legal.choose(&mut rng).expect("legal").clone();
        let (status, _) = act(&state, &id, &tokens[seat], &action, &v["version"]).await;
        assert_eq!(status, StatusCode::OK);
    }
    assert!(undos > 0, "some moves were taken back");
    let (status, record) = get(&state, &format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    let entries = record["record"]["actions"].as_array().expect("actions");
    assert_eq!(entries.iter().filter(|a| *a == "undo").count(), undos);
    let game_record: engine::GameRecord =
        serde_json::from_value(record["record"].clone()).expect("record");
    let session = catalog::game("distopia")
        .expect("game")
        .replay_session(&game_record)
        .expect("replays");
    assert_eq!(
        session.state().state_json(),
        server_state(&state, &id).await.state_json()
    );
    assert_eq!(
        Some(serde_json::to_value(session.outcome()).expect("json")),
        Some(record["outcome"].clone())
    );
    // The log tells each take-back.
    let (_, log) = get(&state, &format!("/api/tables/{id}/log"), None).await;
    let told = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .flat_map(|e| e["events"].as_array().cloned().unwrap_or_default())
        .filter(|e| {
            e["text"]
                .as_str()
                .is_some_and(|t| t.contains("took back a move"))
        })
        .count();
    assert_eq!(told, undos);
}

#[tokio::test]
async fn resigning_at_two_ends_the_game_and_at_three_plays_on() {
    // Two seats: the other wins at once.
    let (state, table, id) = new_table(
        json!({"game": "distopia", "seats": [{"player": "human", "name": "Ada"}, "human"]}),
    )
    .await;
    let tokens = seat_tokens(&table);
    let (status, err) = act(&state, &id, &tokens[1], "resign 1", &json!(0)).await;
    assert_eq!(
        (status, err_code(&err)),
        (StatusCode::FORBIDDEN, "action/not_yours"),
        "{err}"
    );
    let (status, after) = post_to(&state, &id, "resign", Some(&tokens[0]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["status"], "finished");
    assert_eq!(after["resigned"], json!([0]));
    assert_eq!(after["outcome"]["places"], json!([1, 0]));
    let (status, err) = post_to(&state, &id, "resign", Some(&tokens[1]), &json!({})).await;
    assert_eq!(
        (status, err_code(&err)),
        (StatusCode::CONFLICT, "action/game_over"),
        "{err}"
    );
    let (_, log) = get(&state, &format!("/api/tables/{id}/log"), None).await;
    let texts: Vec<&str> = log["entries"][0]["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("Ada resigned")),
        "{texts:?}"
    );

    // Three seats: the resigned seat's turns are played by the take-over bot; it ranks last.
    let table = create(
        &state,
        json!({"game": "dropsite", "options": {"players": 3, "target": 10}, "seats": ["human", "human", "human"],
               "table": {"takeover": "random"}}),
    )
    .await;
    let id = self::id(&table);
    let tokens = seat_tokens(&table);
    let (status, after) = post_to(&state, &id, "resign", Some(&tokens[1]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["status"], "running");
    assert_eq!(after["resigned"], json!([1]));
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for _ in 0..5000 {
        let any = view(&state, &id, &tokens[0]).await;
        if any["status"] == "finished" {
            assert_eq!(
                any["outcome"]["places"][1], 2,
                "the resigned seat is last: {any}"
            );
            return;
        }
        let seat = any["to_act"].as_u64().expect("to act") as usize;
        if seat == 1 {
            // The resigned player may not move; the bot does.
            let v = view(&state, &id, &tokens[1]).await;
            assert_eq!(v["legal"], json!([]));
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        let v = view(&state, &id, &tokens[seat]).await;
        let legal: Vec<String> = serde_json::from_value(v["legal"].clone()).expect("legal");
        if let Some(action) = legal.choose(&mut rng) {
            let _ = act(&state, &id, &tokens[seat], action, &v["version"]).await;
        }
    }
    panic!("the three-seat game did not end");
}

/// Waits until `check` holds of the spectator's snapshot, at most `secs`.
/// A server, and a Distop-IA table on it whose players count as away after a second
/// without a call, the random bot taking over.
async fn away_after_a_second() -> (AppState, Value) {
    let state = memory_state().await;
    let body = json!({"game": "distopia", "table": {"away_seconds": 1, "takeover": "random"}});
    let table = create(&state, body).await;
    (state, table)
}

async fn wait_until(
    state: &AppState,
    id: &str,
    secs: u64,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (_, s) = get(state, &format!("/api/tables/{id}/spectate"), None).await;
        if check(&s) {
            return s;
        }
        assert!(std::time::Instant::now() < end, "not in time: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn notes(state: &AppState, id: &str, kind: &str) -> Vec<Value> {
    let (_, chat) = get(state, &format!("/api/tables/{id}/chat"), None).await;
    chat["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter(|l| l["kind"] == kind)
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_seat_out_of_time_is_played_by_the_bot_until_its_player_is_back() {
    let (state, table, id) = new_table(json!({"game": "distopia", "seats": [{"player": "human", "name": "Ada"}, {"player": "human", "name": "Bo"}],
               "table": {"clock": {"kind": "per_move", "seconds": 1}, "takeover": "random"}})).await;
    let tokens = seat_tokens(&table);
    assert_eq!(
        table["table"]["clock"],
        json!({"kind": "per_move", "seconds": 1})
    );
    let first = wait_until(&state, &id, 5, |_| true).await;
    let deadline = first["clock"]["deadline"].as_i64().expect("a deadline");
    assert!(deadline > 0);
    // Nobody moves: the seat to act runs out of time, and the bot plays for it.
    let seat = first["to_act"].as_u64().expect("to act") as usize;
    let s = wait_until(&state, &id, 10, |s| s["version"].as_u64() > Some(0)).await;
    assert!(
        s["away"].as_array().expect("away").contains(&json!(seat)),
        "{s}"
    );
    let took = notes(&state, &id, "took_over").await;
    assert_eq!(took.len(), 1, "{took:?}");
    assert_eq!(took[0]["seat"], seat);
    assert!(took[0]["text"]
        .as_str()
        .expect("text")
        .contains("time ran out"));
    // The player comes back with the seat's token: the seat is theirs again.
    let (status, back) = post_to(&state, &id, "back", Some(&tokens[seat]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["away"], json!([]));
    let notes_back = notes(&state, &id, "back").await;
    assert_eq!(notes_back.len(), 1);
    assert!(notes_back[0]["text"]
        .as_str()
        .expect("text")
        .contains("is back"));
    // Its own player reads both notes in the second person; the other seat by name.
    let name = ["Ada", "Bo"][seat];
    let read = |token: Option<String>| {
        let (state, id) = (&state, &id);
        async move {
            let (_, chat) = get(state, &format!("/api/tables/{id}/chat"), token.as_deref()).await;
            (chat["lines"].as_array().expect("lines").iter())
                .filter(|l| l["kind"] != "chat")
                .map(|l| l["text"].as_str().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        read(Some(tokens[seat].clone())).await,
        [
            "a bot (random) plays for you: your time ran out; coming back with your link takes your seat back",
            "You are back and play again"
        ]
    );
    assert_eq!(
        read(Some(tokens[1 - seat].clone())).await,
        [
            format!("a bot (random) plays for {name}: the time ran out; coming back with the seat's link takes the seat back"),
            format!("{name} is back and plays again")
        ]
    );
}

#[tokio::test]
async fn a_two_player_table_may_make_the_seat_out_of_time_resign() {
    let (state, _, id) = new_table(json!({"game": "dropsite", "table": {"clock": {"kind": "total", "seconds": 1, "increment": 0}, "on_timeout": "resign"}})).await;
    let first = wait_until(&state, &id, 5, |_| true).await;
    let seat = first["to_act"].as_u64().expect("to act") as usize;
    let s = wait_until(&state, &id, 10, |s| s["status"] == "finished").await;
    assert_eq!(s["resigned"], json!([seat]));
    assert_eq!(s["outcome"]["places"][seat], 1);
    // Refused: resigning on time at three seats, or without a clock.
    for rules in [json!({"clock": {"kind": "per_move", "seconds": 5}, "on_timeout": "resign"})] {
        let (status, err) = post_json(
            &state,
            "/api/tables",
            None,
            &json!({"game": "dropsite", "options": {"players": 3}, "table": rules}),
        )
        .await;
        assert_eq!(
            (status, err_code(&err)),
            (StatusCode::BAD_REQUEST, "table/invalid"),
            "{err}"
        );
    }
    for rules in [
        json!({"on_timeout": "resign"}),
        json!({"clock": {"kind": "per_move", "seconds": 0}}),
        json!({"clock": {"kind": "correspondence", "days": 99}}),
        json!({"clock": {"kind": "sandglass"}}),
        json!({"takeover": "human"}),
        json!({"takeover": "nobody"}),
        json!({"colour": "red"}),
    ] {
        let (status, err) = post_json(
            &state,
            "/api/tables",
            None,
            &json!({"game": "dropsite", "table": rules}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{rules}: {err}");
        assert!(
            matches!(err_code(&err), "table/invalid" | "request/malformed"),
            "{err}"
        );
    }
}

#[tokio::test]
async fn without_a_clock_a_player_away_on_their_turn_is_replaced_by_the_bot() {
    let (state, table) = away_after_a_second().await;
    let id = id(&table);
    let s = wait_until(&state, &id, 10, |s| s["version"].as_u64() > Some(0)).await;
    assert!(!s["away"].as_array().expect("away").is_empty(), "{s}");
    assert!(notes(&state, &id, "took_over").await[0]["text"]
        .as_str()
        .expect("text")
        .contains("left"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_that_passed_while_the_server_was_down_applies_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("clock.sqlite").display());
    let id = {
        let state = common::open_unlimited(&url).await;
        let table = create(
            &state,
            json!({"game": "distopia", "table": {"clock": {"kind": "per_move", "seconds": 2}, "takeover": "random"}}),
        )
        .await;
        id(&table)
    };
    // The server is down past the deadline.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let state = common::open_unlimited(&url).await;
    state.hub.wait_rebuilt().await;
    let s = wait_until(&state, &id, 10, |s| s["version"].as_u64() > Some(0)).await;
    assert_eq!(s["away"].as_array().map(Vec::len), Some(1), "{s}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        notes(&state, &id, "took_over").await.len(),
        1,
        "the timeout applied once"
    );
    // And again after another restart: the bot keeps the seat, no second note.
    drop(state);
    let state = common::open_unlimited(&url).await;
    state.hub.wait_rebuilt().await;
    let s = wait_until(&state, &id, 5, |_| true).await;
    assert_eq!(s["away"].as_array().map(Vec::len), Some(1), "{s}");
    assert_eq!(notes(&state, &id, "took_over").await.len(), 1);
    let _ = Viewer::Spectator;
}

/// Waits (by the hub, which counts as nobody's presence) until `check` holds of the table.
async fn wait_in_hub(
    state: &AppState,
    id: &str,
    secs: u64,
    check: impl Fn(&server::Table) -> bool,
) {
    let table = state.hub.table(id).await.expect("table");
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    while !check(&table) {
        assert!(std::time::Instant::now() < end, "not in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_table_nobody_is_at_pauses_and_goes_on_when_a_player_is_back() {
    let (state, table) = away_after_a_second().await;
    let id = id(&table);
    let tokens = seat_tokens(&table);
    // Both players left (neither page is open, no call): after the away time the table is
    // paused, and the bot that would take the seat to act waits.
    wait_in_hub(&state, &id, 10, |t| t.is_paused()).await;
    let live = state.hub.table(&id).await.expect("table");
    let paused = spectated(&live).await;
    assert_eq!(paused["version"], 0);
    assert_eq!(paused["away"], json!([]), "no bot took a seat");
    let why = paused["paused"].as_str().expect("the reason").to_string();
    assert!(
        why.contains("nobody has been at the table for 1 second"),
        "{why}"
    );
    // The lobby says so too.
    let (_, lobby) = get(&state, "/api/tables", None).await;
    let listed = (lobby.as_array().expect("tables").iter())
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    assert_eq!(listed["paused"], json!(why), "{listed}");
    // It stays so: no bot moves, however long nobody comes.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let still = spectated(&live).await;
    assert_eq!((&still["version"], &still["away"]), (&json!(0), &json!([])));
    assert!(live.is_paused());
    // The player not to act comes back: the table goes on, and the seat to act, whose
    // player is still away, is played by the take-over bot as at any table with a person.
    let to_act = paused["to_act"].as_u64().expect("a seat to act") as usize;
    let back = view(&state, &id, &tokens[1 - to_act]).await;
    assert_eq!(back["paused"], Value::Null, "{back}");
    let moved = wait_until(&state, &id, 10, |s| s["version"].as_u64() > Some(0)).await;
    assert_eq!(moved["away"], json!([to_act]), "{moved}");
}

#[tokio::test]
async fn a_resign_on_timeout_still_applies_at_a_paused_table() {
    let (state, _, id) = new_table(json!({"game": "distopia", "table": {"away_seconds": 1, "clock": {"kind": "per_move", "seconds": 2}, "on_timeout": "resign"}})).await;
    wait_in_hub(&state, &id, 10, |t| t.is_paused()).await;
    let live = state.hub.table(&id).await.expect("table");
    // The clock runs out for the seat to act while nobody is there: it resigns.
    let end = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let s = spectated(&live).await;
        if s["status"] == "finished" {
            assert_eq!(
                s["resigned"].as_array().map(Vec::len),
                Some(1),
                "one seat resigned"
            );
            break;
        }
        assert!(std::time::Instant::now() < end, "no resign in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What a spectator of `table` is sent now, as the HTTP answer gives it.
async fn spectated(table: &server::Table) -> Value {
    let text = table
        .state_json(Viewer::Spectator, None)
        .await
        .expect("the state");
    serde_json::from_str(&text).expect("JSON")
}

#[tokio::test]
async fn the_clock_ticker_looks_only_at_tables_that_can_come_due() {
    let state = memory_state().await;
    // Two tables nobody is at, without a clock: each waits for its pause, then needs no
    // look until someone comes.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let table = create(
            &state,
            json!({"game": "distopia", "table": {"away_seconds": 1}}),
        )
        .await;
        ids.push((id(&table), seat_tokens(&table)));
    }
    assert!(state.hub.clock_watch() >= 2, "each new table is looked at");
    for (id, _) in &ids {
        wait_in_hub(&state, id, 10, |t| t.is_paused()).await;
    }
    // The tick that paused them put them away.
    tokio::time::sleep(server::domain::CLOCK_TICK * 2).await;
    assert_eq!(state.hub.clock_watch(), 0, "paused tables wait for no time");
    // A player is heard from: that table goes on and waits for its pause again; the other
    // stays out of the ticker's sight.
    let (first, tokens) = &ids[0];
    let back = view(&state, first, &tokens[0]).await;
    assert_eq!(back["paused"], Value::Null, "{back}");
    tokio::time::sleep(server::domain::CLOCK_TICK * 2).await;
    assert_eq!(
        state.hub.clock_watch(),
        1,
        "only the table with a player back"
    );
    wait_in_hub(&state, first, 10, |t| t.is_paused()).await;
    tokio::time::sleep(server::domain::CLOCK_TICK * 2).await;
    assert_eq!(state.hub.clock_watch(), 0);
}

/// A list of moves played as one decision (a Euphoria trade composed in one dialog): all
/// are checked first, so one refused move leaves the table as it was and answers that
/// move's rule; a list that goes through is a move of its own each.
#[tokio::test]
async fn a_list_of_moves_is_played_whole_or_not_at_all() {
    let (state, table, id) =
        new_table(json!({"game": "euphoria", "options": {"players": 2}, "seed": 5})).await;
    let tokens = seat_tokens(&table);
    // Moves until a seat may trade and has a good to give.
    let (seat, v, give) = loop {
        let (seat, v) = seat_to_act(&state, &id, &tokens).await.expect("playing");
        let mut offer = server_state(&state, &id).await;
        let partner = format!("offer p{}", 2 - seat);
        let mut started = || -> Option<String> {
            offer.apply_any(&offer.parse_action("trade").ok()?).ok()?;
            offer.apply_any(&offer.parse_action(&partner).ok()?).ok()?;
            offer.legal().into_iter().find(|m| m.starts_with("give "))
        };
        if let Some(give) = started() {
            break (seat, v, give);
        }
        let (status, after) = act(&state, &id, &tokens[seat], &v["legal"][0], &v["version"]).await;
        assert_eq!(status, StatusCode::OK, "{after}");
    };
    let version = v["version"].as_u64().expect("version");
    let partner = format!("offer p{}", 2 - seat);
    let list = |moves: &[&str]| json!({"actions": moves, "version": version});
    let before = server_state(&state, &id).await.state_json();
    // One refused move anywhere: nothing is kept, and its rule is named.
    for (moves, status, code) in [
        (
            vec!["trade", &partner, "propose", &give],
            StatusCode::UNPROCESSABLE_ENTITY,
            "action/illegal",
        ),
        (
            vec!["trade", &partner, "give nothing"],
            StatusCode::BAD_REQUEST,
            "action/malformed",
        ),
        (
            vec!["trade", "undo"],
            StatusCode::BAD_REQUEST,
            "action/malformed",
        ),
        (vec![], StatusCode::BAD_REQUEST, "action/malformed"),
    ] {
        let (got, body) = post_to(&state, &id, "actions", Some(&tokens[seat]), &list(&moves)).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (status, Some(code)),
            "{moves:?}: {body}"
        );
        assert_eq!(
            server_state(&state, &id).await.state_json(),
            before,
            "{moves:?}"
        );
        assert_eq!(view(&state, &id, &tokens[seat]).await["version"], version);
    }
    let (_, body) = post_to(
        &state,
        &id,
        "actions",
        Some(&tokens[seat]),
        &list(&["trade", &partner, "propose", &give]),
    )
    .await;
    assert!(
        body["refusal"]
            .as_str()
            .is_some_and(|r| r.starts_with("euphoria/")),
        "{body}"
    );
    // Another seat's list, and a list with `action` beside it, are refused too.
    let (got, _) = post_to(
        &state,
        &id,
        "actions",
        Some(&tokens[1 - seat]),
        &list(&["trade"]),
    )
    .await;
    assert_eq!(got, StatusCode::CONFLICT);
    let both = json!({"action": "trade", "actions": ["trade"], "version": version});
    let (got, body) = post_to(&state, &id, "actions", Some(&tokens[seat]), &both).await;
    assert_eq!(
        (got, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("request/malformed"))
    );
    // The whole offer: four moves, four versions, and the partner is asked.
    let offer = ["trade", partner.as_str(), give.as_str(), "propose"];
    let (got, after) = post_to(&state, &id, "actions", Some(&tokens[seat]), &list(&offer)).await;
    assert_eq!(got, StatusCode::OK, "{after}");
    assert_eq!(after["version"].as_u64(), Some(version + 4));
    let other = view(&state, &id, &tokens[1 - seat]).await;
    assert_eq!(other["to_act"].as_u64(), Some(1 - seat as u64), "{other}");
    assert!(
        other["legal"]
            .as_array()
            .expect("legal")
            .contains(&json!("accept")),
        "{other}"
    );
    let (status, log) = get(
        &state,
        &format!("/api/tables/{id}/log?since={version}"),
        Some(&tokens[seat]),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(log["entries"].as_array().map(Vec::len), Some(4), "{log}");
}
