//! The HTTP API through the router, without a socket.

use crate::common;

use axum::http::StatusCode;
use common::{
    act, call, check_view, create_table as create, expected_views, get, memory_state, new_table,
    post_json, post_to, seat_token as token, seat_view, table_id as id,
};
use engine::GameRecord;
use rand::prelude::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use server::AppState;

#[tokio::test]
async fn lists_the_games_and_their_options() {
    let state = memory_state().await;
    let (status, games) = get(&state, "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = games
        .as_array()
        .expect("array")
        .iter()
        .map(|g| g["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, catalog::GAMES);
    for game in games.as_array().expect("array") {
        assert!(game["options"].is_object(), "{game}");
    }
}

#[tokio::test]
async fn describes_each_game_for_people_with_its_options_and_components() {
    let state = memory_state().await;
    for name in catalog::GAMES {
        let (status, about) = get(&state, &format!("/api/games/{name}"), None).await;
        assert_eq!(status, StatusCode::OK, "{about}");
        assert_eq!(about["name"], *name);
        assert!(
            about["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{about}"
        );
        // Every option of the default config is described, with its default.
        let defaults = catalog::game(name).expect("listed").default_config();
        let options = about["options"].as_array().expect("options");
        for (key, value) in defaults.as_object().expect("object") {
            let option = options
                .iter()
                .find(|o| o["key"] == *key)
                .unwrap_or_else(|| panic!("{name}: `{key}` is described"));
            assert_eq!(&option["default"], value, "{name}: {key}");
            assert!(option["label"].as_str().is_some_and(|l| !l.is_empty()));
        }
    }
    let (_, dropsite) = get(&state, "/api/games/dropsite", None).await;
    let deck = dropsite["components"]["deck"].as_array().expect("deck");
    assert_eq!(deck.len(), 13);
    assert_eq!(deck[12], json!({"value": 12, "copies": 4, "points": 7}));
    let first = dropsite["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["key"] == "first_player")
        .expect("described");
    assert_eq!(first["input"], "seat", "people pick a seat counted from 1");
    let (_, distopia) = get(&state, "/api/games/distopia", None).await;
    assert_eq!(
        distopia["components"]["cards"].as_array().map(Vec::len),
        Some(30)
    );
    let collaborator = distopia["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["key"] == "collaborator")
        .expect("described");
    assert!(collaborator["choices"]
        .as_array()
        .expect("choices")
        .contains(&json!({"value": "spy-pets", "label": "Spy Pets"})));
    let (_, euphoria) = get(&state, "/api/games/euphoria", None).await;
    let recruits = euphoria["components"]["recruits"]
        .as_array()
        .expect("recruits");
    assert!(recruits
        .iter()
        .all(|r| r["text"].as_str().is_some_and(|t| !t.is_empty())));
    assert!(euphoria["components"]["tiles"][0]["penalty_text"].is_string());
    let (status, error) = get(&state, "/api/games/chess", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["code"], "game/unknown", "{error}");
}

/// What a newcomer chooses and the variants, apart, each option explained in one line of
/// words.
#[tokio::test]
async fn each_games_options_are_main_or_variants_each_explained_in_a_line() {
    let state = memory_state().await;
    // What a newcomer chooses in each game; the rest are variants.
    let main: &[(&str, &[&str])] = &[
        ("dropsite", &["players", "target", "open_debt"]),
        ("distopia", &["border", "advanced"]),
        ("euphoria", &["players"]),
    ];
    for (name, chosen) in main {
        let (status, about) = call(&state, "GET", &format!("/api/games/{name}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{about}");
        let options = about["options"].as_array().expect("options");
        let group = |wanted: &str| -> Vec<&str> {
            options
                .iter()
                .filter(|o| o["group"] == wanted)
                .filter_map(|o| o["key"].as_str())
                .collect()
        };
        assert_eq!(&group("main"), chosen, "{name}");
        let variants = group("variant");
        assert!(!variants.is_empty(), "{name} has variants");
        assert_eq!(
            variants.len() + chosen.len(),
            options.len(),
            "{name}: every option has a group"
        );
        // Card data for studies is a variant everywhere.
        for o in options.iter().filter(|o| o["input"] == "data") {
            assert_eq!(o["group"], "variant", "{o}");
        }
        for o in options {
            for field in ["label", "help"] {
                let text = o[field].as_str().expect("text");
                assert!(
                    !text.trim().is_empty() && !text.contains('`') && !text.contains('\n'),
                    "{name} {}: {field} {text:?}",
                    o["key"]
                );
            }
            for c in o["choices"].as_array().into_iter().flatten() {
                let label = c["label"].as_str().expect("label");
                assert!(!label.contains('`'), "{label}");
            }
        }
    }
    // The words a newcomer could not follow are gone.
    let (_, euphoria) = call(&state, "GET", "/api/games/euphoria", None, None).await;
    let text = euphoria["options"].to_string();
    for old in [
        "Decisions of older records",
        "At any time, repeated until below the limit",
    ] {
        assert!(!text.contains(old), "{old}");
    }
}

/// The rules page of each game, with its tables filled from the game's data, and a 404
/// in words for a game the server does not have.
#[tokio::test]
async fn serves_each_games_rules_page() {
    let state = memory_state().await;
    for name in catalog::GAMES {
        let (status, rules) = get(&state, &format!("/api/games/{name}/rules"), None).await;
        assert_eq!(status, StatusCode::OK, "{rules}");
        assert_eq!(rules["name"], *name);
        let expected =
            serde_json::to_value(catalog::game(name).expect("listed").rules()).expect("json");
        assert_eq!(rules["title"], expected["title"]);
        assert_eq!(rules["sections"], expected["sections"]);
        let sections = rules["sections"].as_array().expect("sections");
        assert!(sections.len() >= 5, "{name}: {}", sections.len());
        let kinds: Vec<&str> = sections
            .iter()
            .flat_map(|s| s["blocks"].as_array().expect("blocks"))
            .filter_map(|b| b["kind"].as_str())
            .collect();
        for kind in ["paragraph", "list", "table"] {
            assert!(kinds.contains(&kind), "{name} has no {kind}");
        }
        assert!(sections.iter().any(|s| s["heading"] == "Options"), "{name}");
    }
    // The deck's 12 as Drop Site scores it, in the components table.
    let (_, dropsite) = get(&state, "/api/games/dropsite/rules", None).await;
    let components = dropsite["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .find(|s| s["heading"] == "Components")
        .expect("components");
    let rows = components["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| b["kind"] == "table")
        .expect("the deck table")["rows"]
        .clone();
    assert!(
        rows.as_array()
            .expect("rows")
            .contains(&json!(["12", "4", "+7", "-2"])),
        "{rows}"
    );
    let (status, error) = get(&state, "/api/games/chess/rules", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["code"], "game/unknown", "{error}");
    let words = error["message"].as_str().unwrap_or_default();
    assert!(
        words.contains("chess") && words.contains("dropsite"),
        "{error}"
    );
}

#[tokio::test]
async fn creates_a_table_with_tokens_and_invites() {
    let state = memory_state().await;
    let table = create(
        &state,
        json!({"game": "dropsite", "options": {"players": 3}, "seed": 7,
               "seats": ["human", "random", "human"]}),
    )
    .await;
    assert_eq!(table["status"], "open");
    // A chosen seed marks the table; the seed itself is not published before the end.
    assert_eq!(table["seed_chosen"], true);
    assert!(table.get("seed").is_none(), "{table}");
    assert_eq!(table["options"]["players"], 3);
    assert_eq!(table["version"], 0);
    let seats = table["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 3);
    assert!(seats[1].get("token").is_none());
    assert_eq!(seats[1]["player"], "random");
    let (t0, t2) = (token(&table, 0), token(&table, 2));
    assert_ne!(t0, t2);
    assert!(t0.len() >= 32, "a token carries at least 128 bits");
    // The invite is the seat's page; its token opens the seat's view.
    let invite = seats[0]["invite"].as_str().expect("invite");
    assert_eq!(invite, format!("/play/{}?token={t0}", id(&table)));
    let (status, view) = get(
        &state,
        &format!("/api/tables/{}/view?token={t0}", id(&table)),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["seat"], 0);
    // Listed as open or running (the bot may already have moved).
    let (status, list) = get(&state, "/api/tables", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(list
        .as_array()
        .expect("list")
        .iter()
        .any(|t| t["id"] == table["id"] && t["seats"][0].get("token").is_none()));
    // Seats only: the player count follows the seat list.
    let two = create(
        &state,
        json!({"game": "distopia", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(two["seats"].as_array().map(Vec::len), Some(2));
    let four = create(
        &state,
        json!({"game": "euphoria", "seats": ["human", "random", "random", "random"]}),
    )
    .await;
    assert_eq!(four["options"]["players"], 4);
}

#[tokio::test]
async fn seats_carry_names_limited_and_stored_as_text() {
    let state = memory_state().await;
    let evil = "<b>Ada</b> & \"co\"";
    let table = create(
        &state,
        json!({"game": "distopia", "seed": 3,
               "seats": [{"player": "human", "name": format!("  {evil} ")}, "human"]}),
    )
    .await;
    let table_id = id(&table);
    // Trimmed, kept as text (the pages show it as text); seat 2 has none: "Seat 2".
    assert_eq!(table["seats"][0]["name"], evil);
    assert_eq!(table["seats"][1]["name"], "Seat 2");
    let view_uri = format!("/api/tables/{table_id}/view");
    let (_, view) = get(&state, &view_uri, Some(&token(&table, 1))).await;
    assert_eq!(view["names"], json!([evil, "Seat 2"]));
    let (_, watched) = get(&state, &format!("/api/tables/{table_id}/spectate"), None).await;
    assert_eq!(watched["names"], json!([evil, "Seat 2"]));
    let (_, listed) = get(&state, "/api/tables", None).await;
    let listed = listed
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["id"] == table["id"])
        .cloned()
        .expect("listed");
    assert_eq!(listed["seats"][0]["name"], evil);
    // A bot seat may carry a name too; a bare object without a name is "Seat N".
    let named_bot = create(
        &state,
        json!({"game": "dropsite", "seats": [{"player": "human"}, {"player": "random", "name": "Robbie"}]}),
    )
    .await;
    assert_eq!(named_bot["seats"][0]["name"], "Seat 1");
    assert_eq!(named_bot["seats"][1]["name"], "Robbie");
    // Refused: too long, blank, control characters, other shapes; nothing is created.
    let (_, before) = get(&state, "/api/tables", None).await;
    let too_long = "x".repeat(server::domain::MAX_NAME_CHARS + 1);
    let just_right = "é".repeat(server::domain::MAX_NAME_CHARS);
    for (seat, code) in [
        (json!({"player": "human", "name": too_long}), "seat/name"),
        (json!({"player": "human", "name": "   "}), "seat/name"),
        (json!({"player": "human", "name": "a\u{7}b"}), "seat/name"),
        // A right-to-left override would show "Adaexe.png" and turn the log line round.
        (
            json!({"player": "human", "name": "Ada\u{202e}gnp.exe"}),
            "seat/name",
        ),
        (
            json!({"player": "human", "name": "Ada\u{2067}x\u{2069}"}),
            "seat/name",
        ),
        // Names that show nothing, and a line separator.
        (
            json!({"player": "human", "name": "\u{200b}\u{200b}"}),
            "seat/name",
        ),
        (
            json!({"player": "human", "name": "\u{202e}\u{202c}"}),
            "seat/name",
        ),
        (
            json!({"player": "human", "name": "a\u{2028}b"}),
            "seat/name",
        ),
        (json!({"player": "human", "name": 7}), "seat/invalid"),
        (json!({"player": "human", "nick": "Ada"}), "seat/invalid"),
        (json!({"name": "Ada"}), "seat/invalid"),
        (json!(["human"]), "seat/invalid"),
    ] {
        let (status, error) = post_json(
            &state,
            "/api/tables",
            None,
            &json!({"game": "distopia", "seats": [seat, "human"]}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seat}: {error}");
        assert_eq!(error["code"], code, "{seat}: {error}");
        assert!(!error["message"].as_str().unwrap_or("").is_empty());
    }
    let (_, after) = get(&state, "/api/tables", None).await;
    assert_eq!(before, after, "a refused table is not created");
    let ok = create(
        &state,
        json!({"game": "distopia", "seats": [{"player": "human", "name": just_right}, "human"]}),
    )
    .await;
    assert_eq!(ok["seats"][0]["name"], just_right);
    // The plain direction marks stay allowed (a name in Hebrew may need one).
    let marked = create(
        &state,
        json!({"game": "distopia", "seats": [{"player": "human", "name": "\u{5d0}\u{5d3}\u{5d4}\u{200f}"}, "human"]}),
    )
    .await;
    assert_eq!(marked["seats"][0]["name"], "\u{5d0}\u{5d3}\u{5d4}\u{200f}");
}

#[tokio::test]
async fn refuses_bad_tables_with_codes() {
    let state = memory_state().await;
    for (body, code) in [
        (json!({"game": "chess"}), "game/unknown"),
        (
            json!({"game": "dropsite", "options": {"players": 9}}),
            "config/invalid",
        ),
        (
            json!({"game": "dropsite", "options": {"colour": 1}}),
            "config/invalid",
        ),
        (
            json!({"game": "dropsite", "options": [1]}),
            "request/malformed",
        ),
        (
            json!({"game": "dropsite", "seats": ["human", "wizard"]}),
            "seat/invalid",
        ),
        (
            json!({"game": "dropsite", "options": {"players": 2}, "seats": ["human", "human", "human"]}),
            "seat/count",
        ),
        (json!({"game": 5}), "request/malformed"),
        (json!({"game": "dropsite", "seed": -1}), "request/malformed"),
        (
            json!({"game": "dropsite", "extra": true}),
            "request/malformed",
        ),
    ] {
        let (status, error) = post_json(&state, "/api/tables", None, &body).await;
        assert!(status.is_client_error(), "{body} gave {status}");
        common::assert_coded(&error, code);
    }
    let (_, list) = get(&state, "/api/tables?status=open,running,finished", None).await;
    assert_eq!(list, json!([]), "no table was created");
}

/// A server, and a Distop-IA table of two people from seed 3 on it.
async fn seeded_pair() -> (AppState, Value) {
    let state = memory_state().await;
    let body = json!({"game": "distopia", "seed": 3, "seats": ["human", "human"]});
    let table = create(&state, body).await;
    (state, table)
}

/// State of a table as the server holds it (for "nothing changed" checks).
async fn server_state(state: &AppState, id: &str) -> (Vec<String>, Value) {
    let table = state.hub.table(id).await.expect("table");
    let (actions, _, game) = table.progress().await;
    (
        actions.iter().map(ToString::to_string).collect(),
        game.state_json(),
    )
}

#[tokio::test]
async fn bad_requests_get_a_4xx_with_a_code_and_change_nothing() {
    let (state, table) = seeded_pair().await;
    let id = id(&table);
    let before = server_state(&state, &id).await;
    let view = seat_view(&state, &id, &token(&table, 0)).await;
    let to_act = view["to_act"].as_u64().expect("to act") as usize;
    let mover = token(&table, to_act);
    let other = token(&table, 1 - to_act);
    let uri = format!("/api/tables/{id}/actions");
    let huge = format!("{{\"action\":\"{}\",\"version\":0}}", "x".repeat(1 << 20));
    let cases: Vec<(Option<String>, Vec<u8>, &str)> = vec![
        (
            Some(mover.clone()),
            b"{not json".to_vec(),
            "request/malformed",
        ),
        (Some(mover.clone()), b"".to_vec(), "request/malformed"),
        (Some(mover.clone()), b"[1,2]".to_vec(), "request/malformed"),
        (
            Some(mover.clone()),
            br#"{"action":5,"version":0}"#.to_vec(),
            "request/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"x","version":"0"}"#.to_vec(),
            "request/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"x","version":-1}"#.to_vec(),
            "request/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"x"}"#.to_vec(),
            "request/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"x","version":0,"seat":1}"#.to_vec(),
            "request/malformed",
        ),
        (Some(mover.clone()), huge.into_bytes(), "request/too_large"),
        (
            Some(mover.clone()),
            br#"{"action":"fly to the moon","version":0}"#.to_vec(),
            "action/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"","version":0}"#.to_vec(),
            "action/malformed",
        ),
        (
            Some(mover.clone()),
            br#"{"action":"pass","version":5}"#.to_vec(),
            "action/stale_version",
        ),
        (
            Some("0123456789abcdef0123456789abcdef".into()),
            br#"{"action":"pass","version":0}"#.to_vec(),
            "auth/bad_token",
        ),
        (
            None,
            br#"{"action":"pass","version":0}"#.to_vec(),
            "auth/required",
        ),
    ];
    for (token, body, code) in cases {
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        let (status, error) = call(&state, "POST", &uri, token.as_deref(), Some(body)).await;
        assert!(status.is_client_error(), "{shown} gave {status}: {error}");
        assert_eq!(error["code"], code, "{shown}: {error}");
    }
    // A legal action of the mover, sent by the other seat, is not its turn.
    let (_, legal) = get(&state, &format!("/api/tables/{id}/legal"), Some(&mover)).await;
    let action = legal["legal"][0]
        .as_str()
        .expect("a legal action")
        .to_string();
    let (status, error) = post_json(
        &state,
        &uri,
        Some(&other),
        &json!({"action": action, "version": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["code"], "action/not_your_turn");
    // An action of the notation that the rules refuse here.
    let state_now = state
        .hub
        .table(&id)
        .await
        .expect("table")
        .progress()
        .await
        .2;
    let game = catalog::game("distopia").expect("game");
    let mut illegal = None;
    let mut probe = game.new_state(&table["options"], 3).expect("state");
    let parsed = probe.parse_action(&action).expect("notation");
    probe.apply_any(&parsed).expect("legal");
    for candidate in probe.legal().into_iter().chain(state_now.legal()) {
        let typed = state_now.parse_action(&candidate).expect("notation");
        if state_now.clone_box().apply_any(&typed).is_err() {
            illegal = Some(candidate);
            break;
        }
    }
    if let Some(illegal) = illegal {
        let (status, error) = post_json(
            &state,
            &uri,
            Some(&mover),
            &json!({"action": illegal, "version": 0}),
        )
        .await;
        assert!(status.is_client_error());
        assert!(
            error["code"] == "action/illegal" || error["code"] == "action/malformed",
            "{error}"
        );
    }
    // Unknown tables and routes.
    for (method, uri, code) in [
        (
            "GET",
            "/api/tables/nope/spectate".to_string(),
            "game/not_found",
        ),
        (
            "GET",
            format!("/api/tables/{}/spectate", "z".repeat(5000)),
            "game/not_found",
        ),
        ("GET", "/api/nothing".to_string(), "request/not_found"),
        ("DELETE", "/api/tables".to_string(), "request/method"),
        ("GET", format!("/api/tables/{id}/record"), "game/not_over"),
        ("GET", format!("/api/tables/{id}/view"), "auth/required"),
        ("GET", format!("/api/tables/{id}/ws"), "request/malformed"),
        (
            "GET",
            "/api/tables?status=lost".to_string(),
            "request/malformed",
        ),
    ] {
        let (status, error) = call(&state, method, &uri, None, None).await;
        assert!(status.is_client_error(), "{method} {uri}: {status}");
        assert_eq!(error["code"], code, "{method} {uri}: {error}");
    }
    assert_eq!(server_state(&state, &id).await, before, "nothing changed");
}

#[tokio::test]
async fn a_token_reads_and_acts_only_for_its_own_seat() {
    let (state, table, id) = new_table(
        json!({"game": "dropsite", "options": {"players": 3}, "seed": 11,
               "seats": ["human", "human", "human"]}),
    )
    .await;
    let server_table = state.hub.table(&id).await.expect("table");
    let (_, _, game) = server_table.progress().await;
    for seat in 0..3 {
        let (status, view) = get(
            &state,
            &format!("/api/tables/{id}/view"),
            Some(&token(&table, seat)),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(view["seat"], seat);
        assert_eq!(view["view"], game.view_json(engine::Viewer::Seat(seat)));
        for other in 0..3 {
            if other != seat {
                assert_ne!(view["view"], game.view_json(engine::Viewer::Seat(other)));
            }
        }
        let legal_expected = if game.to_act() == Some(seat) {
            json!(game.legal())
        } else {
            json!([])
        };
        assert_eq!(view["legal"], legal_expected);
    }
    let (status, public) = get(&state, &format!("/api/tables/{id}/spectate"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(public["seat"], Value::Null);
    assert_eq!(public["legal"], json!([]));
    assert_eq!(public["view"], game.view_json(engine::Viewer::Spectator));
    // A token of another table is refused here.
    let elsewhere = create(
        &state,
        json!({"game": "dropsite", "seats": ["human", "human"]}),
    )
    .await;
    let (status, error) = get(
        &state,
        &format!("/api/tables/{id}/view?token={}", token(&elsewhere, 0)),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["code"], "auth/bad_token");
}

/// Plays a whole game through the router: humans choose at random, bots play themselves.
async fn play_through_router(game: &str, options: Value, seats: Value, seed: u64) {
    let (state, table, id) =
        new_table(json!({"game": game, "options": options, "seed": seed, "seats": seats})).await;
    let tokens: Vec<Option<String>> = common::remote::tokens(&table);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen: Vec<(Option<usize>, u64, Value)> = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(240);
    for _ in 0..200_000 {
        assert!(tokio::time::Instant::now() < deadline, "game took too long");
        let (_, public) = get(&state, &format!("/api/tables/{id}/spectate"), None).await;
        seen.push((
            None,
            public["version"].as_u64().expect("v"),
            public["view"].clone(),
        ));
        if public["status"] == "finished" {
            break;
        }
        let Some(seat) = public["to_act"].as_u64().map(|s| s as usize) else {
            break;
        };
        let Some(token) = tokens[seat].clone() else {
            // A bot is to act: it plays on its own.
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            continue;
        };
        let (status, view) = get(&state, &format!("/api/tables/{id}/view"), Some(&token)).await;
        assert_eq!(status, StatusCode::OK);
        let version = view["version"].as_u64().expect("version");
        seen.push((Some(seat), version, view["view"].clone()));
        let legal: Vec<String> = serde_json::from_value(view["legal"].clone()).expect("legal");
        let action = legal.choose(&mut rng).expect("a seat to act has an action");
        let (status, after) = act(&state, &id, &token, &action, &version).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        seen.push((
            Some(seat),
            after["version"].as_u64().expect("v"),
            after["view"].clone(),
        ));
    }
    let (status, record) = get(&state, &format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert!(record["outcome"]["places"].is_array());
    assert_eq!(
        record["names"].as_array().map(Vec::len),
        record["seats"].as_array().map(Vec::len),
        "the record names every seat"
    );
    let record: GameRecord = serde_json::from_value(record["record"].clone()).expect("record");
    let views = expected_views(&record);
    for (viewer, version, view) in &seen {
        check_view(&views, *viewer, *version, view);
    }
    // The lobby's list and the summary name the winners: the seats in first place.
    let places = record_places(&state, &id).await;
    let winners: Vec<usize> = (places.iter().enumerate())
        .filter(|(_, &p)| p == 0)
        .map(|(s, _)| s)
        .collect();
    assert!(!winners.is_empty());
    let (_, list) = get(&state, "/api/tables?status=finished", None).await;
    let listed = (list.as_array().expect("list").iter())
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    assert_eq!(listed["winners"], json!(winners), "{listed}");
    let (_, summary) = get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(summary["winners"], json!(winners), "{summary}");
}

/// The places of a finished table's outcome, by seat.
async fn record_places(state: &AppState, id: &str) -> Vec<u64> {
    let (_, record) = get(state, &format!("/api/tables/{id}/record"), None).await;
    (record["outcome"]["places"]
        .as_array()
        .expect("places")
        .iter())
    .map(|p| p.as_u64().expect("place"))
    .collect()
}

#[tokio::test]
async fn whole_games_through_the_router() {
    play_through_router("distopia", json!({}), json!(["human", "random"]), 1).await;
    play_through_router(
        "dropsite",
        json!({"players": 3}),
        json!(["human", "human", "random"]),
        2,
    )
    .await;
    play_through_router(
        "euphoria",
        json!({"players": 2}),
        json!(["random", "human"]),
        3,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_on_their_own_without_holding_up_other_tables() {
    let state = memory_state().await;
    // Bot-only tables play to their end by themselves...
    let mut ids = Vec::new();
    for (game, seats) in [
        ("dropsite", json!(["random", "random", "random"])),
        ("distopia", json!(["random", "random"])),
        ("euphoria", json!(["random", "random"])),
    ] {
        ids.push(id(&create(
            &state,
            json!({"game": game, "seed": 9, "seats": seats}),
        )
        .await));
    }
    // ...while a human table next to them answers at once.
    let human = create(
        &state,
        json!({"game": "distopia", "seats": ["human", "human"]}),
    )
    .await;
    let started = std::time::Instant::now();
    let (status, _) = get(
        &state,
        &format!("/api/tables/{}/view", id(&human)),
        Some(&token(&human, 0)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    for id in ids {
        loop {
            let (_, table) = get(&state, &format!("/api/tables/{id}"), None).await;
            if table["status"] == "finished" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "bots did not finish {id}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let (status, record) = get(&state, &format!("/api/tables/{id}/record"), None).await;
        assert_eq!(status, StatusCode::OK);
        let record: GameRecord = serde_json::from_value(record["record"].clone()).expect("record");
        let game = catalog::game(&record.game).expect("game");
        assert!(game.replay(&record).expect("replays").outcome().is_some());
    }
    // Finished tables leave memory (just after their last move is stored and told, so a
    // loaded machine may show one a moment longer); the human table stays.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while state.hub.live_tables() > 1 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(state.hub.live_tables(), 1);
}

#[tokio::test]
async fn bot_specs_over_the_servers_limits_are_refused() {
    let state = memory_state().await;
    for (seat, limit) in [
        ("ismcts:4294967295", "at most 100000 times"),
        ("ismcts:100001", "at most 100000 times"),
        ("ismcts:18446744073709551615ms", "at most 10000 ms"),
        ("ismcts:10001ms", "at most 10000 ms"),
    ] {
        let body = json!({"game": "distopia", "seats": ["human", seat]});
        let (status, error) = post_json(&state, "/api/tables", None, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seat}: {error}");
        assert_eq!(error["code"], "seat/invalid");
        let message = error["message"].as_str().expect("message");
        assert!(
            message.contains(limit) && message.contains(seat) && !message.contains("--"),
            "{message}"
        );
    }
    // At the limits is fine.
    create(
        &state,
        json!({"game": "distopia", "seats": ["human", "ismcts:100000"]}),
    )
    .await;
    // A stricter server refuses a level whose search is over its limit.
    let store = server::SqliteStore::connect("sqlite::memory:")
        .await
        .expect("sqlite");
    let strict = AppState::with_limits(
        std::sync::Arc::new(store),
        server::Limits {
            bot_iterations: 500,
            ..server::Limits::default()
        },
    )
    .await
    .expect("state");
    let body = json!({"game": "distopia", "seats": ["human", "medium"]});
    let (status, error) = post_json(&strict, "/api/tables", None, &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("at most 500")));
    create(
        &strict,
        json!({"game": "distopia", "seats": ["human", "easy"]}),
    )
    .await;
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let state = memory_state().await;
    let table = create(
        &state,
        json!({"game": "distopia", "seats": ["human", "human"]}),
    )
    .await;
    let (id, t0) = (id(&table), token(&table, 0));
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let request = axum::http::Request::builder()
            .uri(format!("/api/tables/{id}/view"))
            .header("authorization", format!("{scheme} {t0}"))
            .body(axum::body::Body::empty())
            .expect("request");
        let (status, view) = common::send(&state, request).await;
        assert_eq!(status, StatusCode::OK, "{scheme}: {view}");
        assert_eq!(view["seat"], 0);
    }
    let request = axum::http::Request::builder()
        .uri(format!("/api/tables/{id}/view"))
        .header("authorization", format!("Basic {t0}"))
        .body(axum::body::Body::empty())
        .expect("request");
    let (status, error) = common::send(&state, request).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["code"], "auth/required");
}

/// The pages take the games from `GET /api/games` (the catalog's list) and find each
/// game's board module by its name: every game listed has one, served as a script.
#[tokio::test]
async fn every_game_listed_has_its_board_module() {
    let state = memory_state().await;
    // The games `GET /api/games` lists (`lists_the_games_and_their_options`).
    for name in catalog::GAMES {
        let request = axum::http::Request::get(format!("/web/{name}.js"))
            .body(axum::body::Body::empty())
            .expect("request");
        let (status, headers, bytes) = common::send_raw(&state, request).await;
        assert_eq!(status, StatusCode::OK, "/web/{name}.js");
        assert_eq!(
            headers["content-type"], "text/javascript; charset=utf-8",
            "/web/{name}.js"
        );
        assert!(
            String::from_utf8_lossy(&bytes).contains("export function render("),
            "/web/{name}.js draws no board"
        );
    }
}

#[tokio::test]
async fn every_error_answer_has_a_json_code_and_message() {
    let state = memory_state().await;
    let big_body = vec![b' '; 70 * 1024];
    let cases: Vec<(axum::http::Request<axum::body::Body>, StatusCode, &str)> = vec![
        (
            axum::http::Request::get("/nowhere")
                .body(axum::body::Body::empty())
                .expect("r"),
            StatusCode::NOT_FOUND,
            "request/not_found",
        ),
        (
            axum::http::Request::get("/web/nothing.js")
                .body(axum::body::Body::empty())
                .expect("r"),
            StatusCode::NOT_FOUND,
            "request/not_found",
        ),
        (
            axum::http::Request::delete("/api/games")
                .body(axum::body::Body::empty())
                .expect("r"),
            StatusCode::METHOD_NOT_ALLOWED,
            "request/method",
        ),
        (
            axum::http::Request::post("/api/tables")
                .header("content-type", "application/json")
                .body(axum::body::Body::from(big_body))
                .expect("r"),
            StatusCode::PAYLOAD_TOO_LARGE,
            "request/too_large",
        ),
    ];
    for (request, status, code) in cases {
        let what = format!("{} {}", request.method(), request.uri());
        let (got, body) = common::send(&state, request).await;
        assert_eq!(got, status, "{what}: {body}");
        common::assert_coded(&body, code);
    }
}

#[tokio::test]
async fn actions_are_stored_in_their_own_notation() {
    let state = memory_state().await;
    let table = create(
        &state,
        json!({"game": "dropsite", "seats": ["human", "human"]}),
    )
    .await;
    let (id, t0) = (id(&table), token(&table, 0));
    let (_, legal) = get(&state, &format!("/api/tables/{id}/legal"), Some(&t0)).await;
    let first = legal["legal"][0]
        .as_str()
        .expect("a legal action")
        .to_string();
    // The same action, shouted and spread out.
    let sent = format!("  {}  ", first.to_uppercase().replace(' ', "   "));
    assert_ne!(sent, first);
    let (status, reply) = act(&state, &id, &t0, &sent, 0).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let stored = state.hub.store().actions(&id, 0).await.expect("rows");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].action, first);
    let (actions, _) = server_state(&state, &id).await;
    assert_eq!(actions, vec![first]);
}

#[tokio::test]
async fn the_lobby_pages_newest_first_and_filters() {
    let state = memory_state().await;
    let mut made = Vec::new();
    for i in 0..7 {
        let game = ["dropsite", "distopia"][i % 2];
        let seats = vec!["human"; 2];
        made.push(id(
            &create(&state, json!({"game": game, "seats": seats})).await
        ));
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .expect("list")
            .iter()
            .map(|t| t["id"].as_str().expect("id").to_string())
            .collect()
    };
    // Everything, newest first: the last table made is first.
    let (status, all) = get(&state, "/api/tables?limit=100", None).await;
    assert_eq!(status, StatusCode::OK);
    let newest_first: Vec<String> = made.iter().rev().cloned().collect();
    assert_eq!(ids(&all), newest_first);
    // Pages of 3 follow each other with `before`.
    let mut paged = Vec::new();
    let mut uri = "/api/tables?limit=3".to_string();
    for _ in 0..10 {
        let (status, page) = get(&state, &uri, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let page = ids(&page);
        assert!(page.len() <= 3);
        let Some(last) = page.last().cloned() else {
            break;
        };
        paged.extend(page);
        uri = format!("/api/tables?limit=3&before={last}");
    }
    assert_eq!(paged, newest_first);
    // By game and status.
    let (_, distopia) = get(&state, "/api/tables?game=distopia", None).await;
    let expected: Vec<String> = newest_first
        .iter()
        .filter(|id| {
            made.iter()
                .position(|m| m == *id)
                .is_some_and(|i| i % 2 == 1)
        })
        .cloned()
        .collect();
    assert_eq!(ids(&distopia), expected);
    let (_, finished) = get(&state, "/api/tables?status=finished", None).await;
    assert_eq!(finished, json!([]));
    // Bad pages are refused.
    for (uri, code) in [
        ("/api/tables?limit=101", "request/malformed"),
        ("/api/tables?limit=0", "request/malformed"),
        ("/api/tables?limit=ten", "request/malformed"),
        ("/api/tables?before=nosuchtable", "request/malformed"),
        ("/api/tables?game=chess", "game/unknown"),
        ("/api/tables?status=lost", "request/malformed"),
    ] {
        let (status, error) = get(&state, uri, None).await;
        assert!(status.is_client_error(), "{uri}: {status}");
        assert_eq!(error["code"], code, "{uri}");
    }
}

#[tokio::test]
async fn a_move_onto_a_removed_database_file_is_refused_not_lost() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tables.sqlite");
    let state = common::open_unlimited(&format!("sqlite://{}", path.display())).await;
    let table = create(
        &state,
        json!({"game": "distopia", "seats": ["human", "human"]}),
    )
    .await;
    let id = id(&table);
    let view = seat_view(&state, &id, &token(&table, 0)).await;
    let to_act = view["to_act"].as_u64().expect("to act") as usize;
    let mine = seat_view(&state, &id, &token(&table, to_act)).await;
    let legal = mine["legal"][0]
        .as_str()
        .expect("a legal action")
        .to_string();
    std::fs::remove_file(&path).expect("remove the database file");
    let (status, error) = act(&state, &id, &token(&table, to_act), &legal, 0).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{error}");
    assert_eq!(error["code"], "internal", "{error}");
    let (_, after) = get(&state, &format!("/api/tables/{id}/spectate"), None).await;
    assert_eq!(
        after["version"], 0,
        "the refused move did not happen: {after}"
    );
}

#[tokio::test]
async fn calls_that_take_no_body_refuse_a_malformed_one_and_change_nothing() {
    let (state, table) = seeded_pair().await;
    let id = id(&table);
    let before = server_state(&state, &id).await;
    let seat = token(&table, 0);
    for route in ["back", "rematch", "undo", "resign"] {
        let uri = format!("/api/tables/{id}/{route}");
        for body in [&b"{{"[..], b"[1]", b"\"x\"", b"{\"x\":1}", b"nul"] {
            let shown = String::from_utf8_lossy(body).into_owned();
            let (status, error) =
                call(&state, "POST", &uri, Some(&seat), Some(body.to_vec())).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{route} {shown}: {error}");
            assert_eq!(
                error["code"], "request/malformed",
                "{route} {shown}: {error}"
            );
        }
    }
    assert_eq!(server_state(&state, &id).await, before, "nothing changed");
    // No body, or an empty object, is what they take.
    for body in [None, Some(b"{}".to_vec()), Some(b" ".to_vec())] {
        let (status, snap) = call(
            &state,
            "POST",
            &format!("/api/tables/{id}/back"),
            Some(&seat),
            body,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{snap}");
    }
}

/// One request through the router: status, headers and body text.
async fn raw_call(
    state: &AppState,
    method: &str,
    uri: &str,
    body: &str,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let request = axum::http::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .expect("request");
    let (status, headers, bytes) = common::send_raw(state, request).await;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (status, headers, text)
}

#[tokio::test]
async fn every_kind_of_answer_carries_the_security_headers() {
    let (state, _, id) = new_table(json!({"game": "dropsite", "seed": 1})).await;
    let cases = [
        ("GET", "/".to_string(), "", StatusCode::OK),
        ("GET", format!("/play/{id}"), "", StatusCode::OK),
        ("GET", "/web/table.js".to_string(), "", StatusCode::OK),
        ("GET", "/web/style.css".to_string(), "", StatusCode::OK),
        ("GET", "/web/favicon.svg".to_string(), "", StatusCode::OK),
        ("GET", "/favicon.ico".to_string(), "", StatusCode::OK),
        ("GET", "/api/games".to_string(), "", StatusCode::OK),
        ("GET", format!("/api/tables/{id}"), "", StatusCode::OK),
        (
            "GET",
            "/web/nothing.js".to_string(),
            "",
            StatusCode::NOT_FOUND,
        ),
        ("GET", "/nothing".to_string(), "", StatusCode::NOT_FOUND),
        (
            "POST",
            "/api/tables".to_string(),
            "{{",
            StatusCode::BAD_REQUEST,
        ),
        (
            "DELETE",
            "/api/games".to_string(),
            "",
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "GET",
            format!("/api/tables/{id}/view"),
            "",
            StatusCode::UNAUTHORIZED,
        ),
    ];
    for (method, uri, body, expected) in cases {
        let (status, headers, text) = raw_call(&state, method, &uri, body).await;
        assert_eq!(status, expected, "{method} {uri}: {text}");
        for (name, value) in server::headers::SECURITY_HEADERS {
            assert_eq!(
                headers.get(*name).and_then(|v| v.to_str().ok()),
                Some(*value),
                "{method} {uri}: {name}"
            );
        }
    }
    // The page itself needs nothing the policy forbids: no inline script or handler, no
    // style attribute in its markup.
    let (_, _, page) = raw_call(&state, "GET", "/", "").await;
    let lower = page.to_ascii_lowercase();
    assert!(
        !lower.contains("<script>") && !lower.contains("style="),
        "{page}"
    );
    for script in lower.split("<script").skip(1) {
        assert!(
            script
                .trim_start()
                .starts_with("type=\"module\" src=\"/web/"),
            "{page}"
        );
    }
    assert!(!regex_on_attr(&lower), "{page}");
}

/// Whether `html` has an inline event handler attribute (` onclick=`, ` onload=`, …).
fn regex_on_attr(html: &str) -> bool {
    html.match_indices(" on").any(|(i, _)| {
        let rest = &html[i + 3..];
        let name: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
        !name.is_empty() && rest[name.len()..].trim_start().starts_with('=')
    })
}

#[test]
fn a_name_is_measured_as_it_is_stored_in_nfc() {
    // U+0F73 is two characters in NFC: twenty of them are a name of forty, over the limit
    // of 24, however short the name sent.
    let long = "\u{f73}".repeat(20);
    let error = server::domain::display_name(&long).expect_err("40 characters in NFC");
    assert!(
        matches!(
            &error,
            server::domain::TableError::Refused(server::domain::Refusal::Name, _)
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("this one has 40"), "{error:?}");
    // Ten of them make twenty: taken, as stored, and taken again as itself.
    let name = server::domain::display_name(&"\u{f73}".repeat(10)).expect("20 characters");
    assert_eq!(name.chars().count(), 20);
    assert_eq!(server::domain::display_name(&name).ok(), Some(name));
}

#[tokio::test]
async fn names_are_stored_in_nfc_and_a_name_that_looks_like_another_seats_is_refused() {
    let state = memory_state().await;
    // "é" as "e" and a combining accent is stored as the one character.
    let table = create(
        &state,
        json!({"game": "dropsite", "seats": [{"player": "human", "name": "Zoe\u{301}"}, "human"]}),
    )
    .await;
    assert_eq!(table["seats"][0]["name"], "Zo\u{e9}");
    // "Ada" and "Аda" (a Cyrillic А) at one table: refused, in words.
    let (status, error) = post_json(
        &state,
        "/api/tables",
        None,
        &json!({"game": "dropsite", "seats": [
            {"player": "human", "name": "Ada"},
            {"player": "human", "name": "\u{410}da"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert_eq!(error["code"], "seat/name_confusable", "{error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("seat 1")),
        "{error}"
    );
    // A name made to pass for another seat's default name is refused too.
    let (status, error) = post_json(
        &state,
        "/api/tables",
        None,
        &json!({"game": "dropsite", "seats": [{"player": "human", "name": "Seat 2"}, "human"]}),
    )
    .await;
    assert_eq!(error["code"], "seat/name_confusable", "{status} {error}");
    // Joining an open seat under a name like a seated player's is refused, and the seat
    // stays open; another name takes it.
    let table = create(
        &state,
        json!({"game": "dropsite", "seats": [{"player": "human", "name": "Ada"}, "open"]}),
    )
    .await;
    let id = id(&table);
    let join = format!("/api/tables/{id}/seats/1/join");
    for name in ["\u{410}da", "Ada", "\u{1d400}da"] {
        let (status, error) = post_json(&state, &join, None, &json!({ "name": name })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {error}");
        assert_eq!(error["code"], "seat/name_confusable", "{name}: {error}");
    }
    let (_, summary) = get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(summary["open_seats"], json!([1]), "{summary}");
    let (status, seated) = post_json(&state, &join, None, &json!({"name": "Bo"})).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
}

#[tokio::test]
async fn a_name_stored_before_the_checks_is_served_without_its_bidi_controls() {
    // A table from before the checks: seat 1 named "Ada", RIGHT-TO-LEFT OVERRIDE, "gnp.exe"
    // (shown as "Adaexe.png"), and a chat line of it holding an isolate.
    let store = server::SqliteStore::connect("sqlite::memory:")
        .await
        .expect("in-memory sqlite");
    let id = "0000000000000bd1";
    common::store_old_table(&store, id, ["Ada\u{202e}gnp.exe", "Bo"], "hi \u{2067}there").await;
    let state = AppState::with_limits(std::sync::Arc::new(store), common::unlimited())
        .await
        .expect("state");
    let clean = "Adagnp.exe";
    let (_, summary) = get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(summary["seats"][0]["name"], clean, "{summary}");
    let (_, chat) = get(&state, &format!("/api/tables/{id}/chat"), None).await;
    assert_eq!(chat["lines"][0]["name"], clean, "{chat}");
    assert_eq!(chat["lines"][0]["text"], "hi there", "{chat}");
    // Seat 1 moves: the log names it without the override.
    for _ in 0..4 {
        let view = common::seat_view(&state, id, &common::old_token(0)).await;
        let mover = view["to_act"].as_u64().expect("to act") as usize;
        let view = common::seat_view(&state, id, &common::old_token(mover)).await;
        let action = view["legal"][0]
            .as_str()
            .expect("a legal action")
            .to_string();
        let (status, after) = act(
            &state,
            id,
            &common::old_token(mover),
            &action,
            &view["version"],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if mover == 0 {
            break;
        }
    }
    let (_, spectate) = get(&state, &format!("/api/tables/{id}/spectate"), None).await;
    assert_eq!(spectate["names"][0], clean, "{spectate}");
    let (_, log) = get(&state, &format!("/api/tables/{id}/log"), None).await;
    let texts: Vec<&str> = (log["entries"].as_array().expect("entries").iter())
        .flat_map(|e| e["events"].as_array().into_iter().flatten())
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(texts.iter().any(|t| t.contains(clean)), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains('\u{202e}')), "{texts:?}");
    // The record as served names the seats the same way.
    assert!(!log.to_string().contains('\u{202e}'), "{log}");
}

/// Each seat's lines add up to its total, and the totals are the outcome's scores.
/// The seat of `token`, to act, plays one of its legal moves at random through the router.
async fn play_a_random_move(state: &AppState, id: &str, token: &str, rng: &mut impl rand::Rng) {
    let v = seat_view(state, id, token).await;
    let legal: Vec<String> = serde_json::from_value(v["legal"].clone()).expect("legal");
    let action = legal.choose(rng).expect("a legal move");
    let (status, answer) = act(state, id, token, &action, &v["version"]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

fn check_ending(state: &Value) {
    let ending = &state["ending"];
    let why = ending["why"].as_str().expect("why the game ended");
    assert!(
        !why.is_empty() && !why.contains("seat 0") && !why.contains('`'),
        "{why}"
    );
    let totals: Vec<i64> = ending["seats"]
        .as_array()
        .expect("a score per seat")
        .iter()
        .map(|seat| {
            let lines = seat["lines"].as_array().expect("lines");
            assert!(!lines.is_empty(), "{seat}");
            let sum: i64 = lines
                .iter()
                .map(|l| {
                    assert!(l["label"].as_str().is_some_and(|t| !t.is_empty()), "{l}");
                    l["points"].as_i64().expect("points")
                })
                .sum();
            let total = seat["total"].as_i64().expect("total");
            assert_eq!(sum, total, "{seat}");
            total
        })
        .collect();
    let scores: Vec<i64> =
        serde_json::from_value(state["outcome"]["scores"].clone()).expect("scores");
    assert_eq!(totals, scores, "{state}");
}

/// Options that keep a random two-person game short (Drop Site to 20 points, Euphoria at
/// two seats).
fn short_options(game: &str) -> Value {
    match game {
        "dropsite" => json!({"target": 20}),
        "euphoria" => json!({"players": 2}),
        _ => json!({}),
    }
}

/// A table of `game` for two people, Ada and Bo: its id and their tokens.
async fn ada_and_bo(
    state: &AppState,
    game: &str,
    options: Value,
    seed: u64,
) -> (String, [String; 2]) {
    let table = create(
        state,
        json!({"game": game, "options": options, "seed": seed,
               "seats": [{"player": "human", "name": "Ada"}, {"player": "human", "name": "Bo"}]}),
    )
    .await;
    (id(&table), [token(&table, 0), token(&table, 1)])
}

#[tokio::test]
async fn a_finished_table_explains_its_end_and_a_resigned_one_keeps_the_board_scores() {
    let state = memory_state().await;
    for game in ["dropsite", "distopia", "euphoria"] {
        let (id, tokens) = ada_and_bo(&state, game, short_options(game), 4).await;
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let mut last = Value::Null;
        for _ in 0..200_000 {
            let any = seat_view(&state, &id, &tokens[0]).await;
            if any["status"] == "finished" {
                last = any;
                break;
            }
            assert_eq!(any["ending"], Value::Null, "no ending before the end");
            let seat = any["to_act"].as_u64().expect("to act") as usize;
            play_a_random_move(&state, &id, &tokens[seat], &mut rng).await;
        }
        assert_eq!(last["status"], "finished", "{game} did not end");
        check_ending(&last);
    }

    // Drop Site, resigned once a round has been scored: the end keeps the board's totals.
    let (id, tokens) = ada_and_bo(&state, "dropsite", json!({}), 9).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    loop {
        let v = seat_view(&state, &id, &tokens[0]).await;
        if v["view"]["history"]
            .as_array()
            .is_some_and(|h| h.len() >= 2)
        {
            break;
        }
        let seat = v["to_act"].as_u64().expect("to act") as usize;
        play_a_random_move(&state, &id, &tokens[seat], &mut rng).await;
    }
    let (status, after) = post_to(&state, &id, "resign", Some(&tokens[0]), &json!({})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let bo = seat_view(&state, &id, &tokens[1]).await;
    assert_eq!(bo["status"], "finished");
    check_ending(&bo);
    assert_eq!(bo["outcome"]["scores"], bo["view"]["totals"], "{bo}");
    assert_eq!(
        bo["ending"]["why"],
        "Ada resigned, so you won: the only one left in the game"
    );
    assert_eq!(
        bo["ending"]["seats"][0]["lines"].as_array().map(Vec::len),
        bo["view"]["history"].as_array().map(Vec::len),
        "a line a round scored"
    );
}

/// Every viewer's view at every version of a record with table moves in it (an undo), as
/// [`expected_views`] gives them for game actions alone: replayed through a `Session`.
fn session_views(record: &GameRecord) -> Vec<Vec<Value>> {
    let game = catalog::game(&record.game).expect("game");
    let state = game
        .new_state(&record.config, record.seed)
        .expect("record starts");
    let mut session = engine::Session::new(state);
    let viewers = |session: &engine::Session| -> Vec<Value> {
        let state = session.state();
        let mut out: Vec<Value> = (0..state.seats())
            .map(|s| state.view_json(engine::Viewer::Seat(s)))
            .collect();
        out.push(state.view_json(engine::Viewer::Spectator));
        out
    };
    let mut views = vec![viewers(&session)];
    for action in &record.actions {
        let mv = session.parse(action).expect("the record's notation");
        session.play(&mv).expect("record replays");
        views.push(viewers(&session));
    }
    views
}

/// A finished game between two people (the first move that may be taken back is), played
/// at random through the router; returns its id, the two seats' tokens and its record.
async fn finished_game(state: &AppState, game: &str, seed: u64) -> (String, [String; 2], Value) {
    let (id, tokens) = ada_and_bo(state, game, short_options(game), seed).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut undone = false;
    for _ in 0..200_000 {
        let any = seat_view(state, &id, &tokens[0]).await;
        if any["status"] == "finished" {
            break;
        }
        let seat = any["to_act"].as_u64().expect("to act") as usize;
        play_a_random_move(state, &id, &tokens[seat], &mut rng).await;
        let mover = seat_view(state, &id, &tokens[seat]).await;
        if !undone && mover["can_undo"] == json!(true) && mover["status"] != "finished" {
            let (status, body) = post_json(
                state,
                &format!("/api/tables/{id}/undo"),
                Some(&tokens[seat]),
                &json!({}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            undone = true;
        }
    }
    let (status, record) = call(
        state,
        "GET",
        &format!("/api/tables/{id}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game} did not end: {record}");
    (id, tokens, record)
}

#[tokio::test]
async fn a_finished_game_replays_move_by_move_as_each_viewer_saw_it() {
    let state = memory_state().await;
    let mut undone = 0;
    for game in ["dropsite", "distopia", "euphoria"] {
        let (id, tokens, record) = finished_game(&state, game, 11).await;
        let parsed: GameRecord = serde_json::from_value(record["record"].clone()).expect("record");
        let moves = parsed.actions.len() as u64;
        undone += parsed.actions.iter().filter(|a| *a == "undo").count();
        let views = session_views(&parsed);
        // Each viewer's log as the table tells it: a seat's with its token, a spectator's
        // without one.
        let viewers: [(Option<usize>, Option<&str>); 3] = [
            (Some(0), Some(tokens[0].as_str())),
            (Some(1), Some(tokens[1].as_str())),
            (None, None),
        ];
        for (seat, token) in viewers {
            let (status, log) =
                call(&state, "GET", &format!("/api/tables/{id}/log"), token, None).await;
            assert_eq!(status, StatusCode::OK, "{log}");
            let entries = log["entries"].as_array().expect("entries");
            assert_eq!(entries.len() as u64, moves, "{game}: a log entry a move");
            let query = seat.map_or(String::new(), |s| format!("?seat={s}"));
            // The spectator's every moment; a seat's every tenth, the last, and those
            // around a move taken back (each moment replays the game: this keeps it quick).
            let around_undo = |n: u64| {
                (n.saturating_sub(1)..=n)
                    .any(|i| parsed.actions.get(i as usize).is_some_and(|a| a == "undo"))
            };
            let shown = (0..=moves)
                .filter(|&n| seat.is_none() || n % 10 == 0 || n == moves || around_undo(n));
            for n in shown {
                let (status, moment) = call(
                    &state,
                    "GET",
                    &format!("/api/tables/{id}/moments/{n}{query}"),
                    None,
                    None,
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{game} moment {n}: {moment}");
                assert_eq!(moment["version"], json!(n), "{moment}");
                assert_eq!(moment["of"], json!(moves), "{moment}");
                assert_eq!(moment["seat"], json!(seat), "{moment}");
                assert_eq!(moment["names"], json!(["Ada", "Bo"]));
                check_view(&views, seat, n, &moment["view"]);
                // The move that led here, word for word as this viewer's log tells it.
                let told = moment["events"].as_array().expect("events");
                match n.checked_sub(1) {
                    None => assert!(told.is_empty(), "{moment}"),
                    Some(last) => assert_eq!(
                        told.as_slice(),
                        &entries[last as usize..=last as usize],
                        "{game}: moment {n} as {seat:?}"
                    ),
                }
            }
        }
        // Past the end: refused in words.
        let (status, body) = call(
            &state,
            "GET",
            &format!("/api/tables/{id}/moments/{}", moves + 1),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["code"], "request/malformed");
    }
    assert!(undone > 0, "a move taken back is replayed too");
}

#[tokio::test]
async fn an_unfinished_game_shows_no_past_moment_and_is_left_as_it_was() {
    let state = memory_state().await;
    let (id, tokens) = ada_and_bo(&state, "dropsite", json!({}), 3).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for _ in 0..4 {
        let any = seat_view(&state, &id, &tokens[0]).await;
        let seat = any["to_act"].as_u64().expect("to act") as usize;
        play_a_random_move(&state, &id, &tokens[seat], &mut rng).await;
    }
    let (before, _) = server_state(&state, &id).await;
    let (_, view_before) = call(
        &state,
        "GET",
        &format!("/api/tables/{id}/spectate"),
        None,
        None,
    )
    .await;
    for query in ["", "?seat=0", "?seat=1"] {
        for n in [0, 2, 4] {
            let (status, body) = call(
                &state,
                "GET",
                &format!("/api/tables/{id}/moments/{n}{query}"),
                None,
                None,
            )
            .await;
            assert_eq!(status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["code"], "game/not_over", "{body}");
            let message = body["message"].as_str().expect("message");
            assert!(message.contains("once it is over"), "{message}");
            assert!(
                body.get("view").is_none() && body.get("events").is_none(),
                "{body}"
            );
        }
    }
    let (after, _) = server_state(&state, &id).await;
    assert_eq!(before, after, "the refused calls changed nothing");
    let (_, view_after) = call(
        &state,
        "GET",
        &format!("/api/tables/{id}/spectate"),
        None,
        None,
    )
    .await;
    assert_eq!(view_before, view_after);
}

#[tokio::test]
async fn two_illegal_drop_site_moves_answer_two_refusal_codes() {
    let (state, table, id) = new_table(json!({"game": "dropsite", "seed": 11})).await;
    let tokens = common::seat_tokens(&table);
    let any = seat_view(&state, &id, &tokens[0]).await;
    let seat = any["to_act"].as_u64().expect("to act") as usize;
    let mover = seat_view(&state, &id, &tokens[seat]).await;
    let legal: Vec<String> = serde_json::from_value(mover["legal"].clone()).expect("legal");
    // A card in hand that drop site 1 (dealt at the start) does not take: not lower.
    let high = legal
        .iter()
        .filter_map(|m| m.strip_suffix(" debt"))
        .find(|c| !legal.contains(&format!("{c} on 1")))
        .expect("a card drop site 1 does not take");
    for (action, refusal) in [
        (format!("{high} on 1"), "dropsite/not_lower"),
        (format!("{high} on 4"), "dropsite/no_such_site"),
    ] {
        let (status, error) = act(&state, &id, &tokens[seat], &action, 0).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{action}: {error}"
        );
        assert_eq!(error["code"], "action/illegal", "{error}");
        assert_eq!(error["refusal"], refusal, "{error}");
    }
    // An error with no finer code has no `refusal`.
    let (_, stale) = act(&state, &id, &tokens[seat], format!("{high} debt"), 7).await;
    assert_eq!(stale["code"], "action/stale_version", "{stale}");
    assert!(stale.get("refusal").is_none(), "{stale}");
}

/// `GET /board` answers each viewer the game's own text of that viewer's view (what the
/// terminal prints), at a position a few moves in: a seat's with its token, the
/// spectators' without; a bad token is refused and answers no board.
#[tokio::test]
async fn the_board_as_text_is_each_viewers_own_view() {
    let two = json!({"players": 2});
    for (game, options) in [
        ("dropsite", &two),
        ("distopia", &json!({})),
        ("euphoria", &two),
    ] {
        let (state, table, id) =
            new_table(json!({"game": game, "options": options, "seed": 5})).await;
        let tokens = common::seat_tokens(&table);
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut played = Vec::new();
        for _ in 0..6 {
            let any = seat_view(&state, &id, &tokens[0]).await;
            let Some(seat) = any["to_act"].as_u64() else {
                break;
            };
            let view = seat_view(&state, &id, &tokens[seat as usize]).await;
            let legal: Vec<String> = serde_json::from_value(view["legal"].clone()).expect("legal");
            let action = legal.choose(&mut rng).expect("a legal move").clone();
            let (status, answer) = act(
                &state,
                &id,
                &tokens[seat as usize],
                &action,
                &view["version"],
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{game}: {answer}");
            played.push(action);
        }
        // The same game here: its views' texts are what the server must answer.
        let mut here = catalog::game(game)
            .expect("game")
            .new_state(options, 5)
            .expect("state");
        for action in &played {
            let action = here.parse_action(action).expect("notation");
            here.apply_any(&action).expect("replays");
        }
        let uri = format!("/api/tables/{id}/board");
        for (token, viewer) in [
            (Some(tokens[0].as_str()), engine::Viewer::Seat(0)),
            (Some(tokens[1].as_str()), engine::Viewer::Seat(1)),
            (None, engine::Viewer::Spectator),
        ] {
            let (status, board) = get(&state, &uri, token).await;
            assert_eq!(status, StatusCode::OK, "{game}: {board}");
            assert_eq!(board["version"], json!(played.len()), "{game}: {board}");
            assert_eq!(
                board["text"].as_str(),
                Some(here.view_text(viewer).as_str()),
                "{game}: {viewer:?}"
            );
        }
        let (status, refused) = get(&state, &uri, Some(&"0".repeat(64))).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{game}: {refused}");
        assert_eq!(refused["code"], "auth/bad_token", "{refused}");
        assert!(refused.get("text").is_none(), "{refused}");
    }
}
