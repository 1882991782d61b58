//! The lesson calls: the list, one lesson's steps as the learner sees them, and a move at
//! a step, through the router; bad addresses and bodies get typed errors in words.

use crate::common;

use axum::http::StatusCode;
use common::{call, get, memory_state, post_json};
use engine::lesson::Attempt;
use engine::Viewer;
use serde_json::{json, Value};

/// Whether `value` holds an object with key `key` anywhere.
fn has_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key) || map.values().any(|v| has_key(v, key)),
        Value::Array(list) => list.iter().any(|v| has_key(v, key)),
        _ => false,
    }
}

#[tokio::test]
async fn every_game_lists_its_lessons_and_serves_each_step_as_the_learner_sees_it() {
    let state = memory_state().await;
    for name in catalog::GAMES {
        let game = catalog::game(name).expect("a listed game");
        let lessons = game.lessons().expect("lessons parse");
        let (status, list) = get(&state, &format!("/api/games/{name}/lessons"), None).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        assert_eq!(list["title"], game.about().title);
        let listed = list["lessons"].as_array().expect("a list");
        assert_eq!(listed.len(), lessons.len());
        for (got, lesson) in listed.iter().zip(&lessons) {
            assert_eq!(got["id"], lesson.id.as_str());
            assert_eq!(got["steps"], lesson.steps.len());
            let (status, out) = get(
                &state,
                &format!("/api/games/{name}/lessons/{}", lesson.id),
                None,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{out}");
            assert_eq!(out["seat"], lesson.seat);
            // Only the learner's view: no full state, no random stream, no other hand.
            assert!(
                !has_key(&out, "rng") && !has_key(&out, "state"),
                "{name}: {out}"
            );
            let starts = lesson.starts(game.as_ref()).expect("positions load");
            let steps = out["steps"].as_array().expect("steps");
            assert_eq!(steps.len(), starts.len());
            for (i, (step, start)) in steps.iter().zip(&starts).enumerate() {
                assert_eq!(step["n"], i + 1);
                assert_eq!(step["text"], lesson.steps[i].text.as_str());
                assert_eq!(
                    step["view"],
                    start.view_json(Viewer::Seat(lesson.seat)),
                    "{name} {i}"
                );
                assert_eq!(
                    step["moves"],
                    serde_json::to_value(start.moves()).expect("moves")
                );
                assert_eq!(step["to_act"], lesson.seat);
            }
        }
    }
}

#[tokio::test]
async fn a_move_at_a_step_is_played_by_the_engine_and_answered_in_words() {
    let state = memory_state().await;
    for name in catalog::GAMES {
        let game = catalog::game(name).expect("a listed game");
        for lesson in game.lessons().expect("lessons parse") {
            let starts = lesson.starts(game.as_ref()).expect("positions load");
            for (i, (step, start)) in lesson.steps.iter().zip(&starts).enumerate() {
                let uri = format!("/api/games/{name}/lessons/{}/steps/{}", lesson.id, i + 1);
                let (status, got) =
                    post_json(&state, &uri, None, &json!({ "action": step.ask[0] })).await;
                assert_eq!(status, StatusCode::OK, "{got}");
                assert_eq!(got["asked"], true);
                assert_eq!(got["message"], step.then.as_str());
                let asked = start.parse_action(&step.ask[0]).expect("asked");
                let Attempt::Asked { after, log } =
                    engine::lesson::attempt(&lesson, step, start.as_ref(), &asked)
                else {
                    panic!("{name}: the asked move is not taken");
                };
                assert_eq!(got["view"], after.view_json(Viewer::Seat(lesson.seat)));
                assert_eq!(got["log"], serde_json::to_value(&log).expect("log"));
                assert!(!got["log"][0]["events"]
                    .as_array()
                    .expect("events")
                    .is_empty());
                let next = if i + 1 < lesson.steps.len() {
                    json!(i + 2)
                } else {
                    Value::Null
                };
                assert_eq!(got["next"], next);
                // A legal move the step does not ask for: why another is asked.
                let asked: Vec<String> = step
                    .ask
                    .iter()
                    .filter_map(|a| start.parse_action(a).ok().map(|a| a.to_string()))
                    .collect();
                if let Some(other) = start.legal().into_iter().find(|m| !asked.contains(m)) {
                    let (status, got) =
                        post_json(&state, &uri, None, &json!({ "action": other })).await;
                    assert_eq!(status, StatusCode::OK, "{got}");
                    assert_eq!(got["asked"], false);
                    assert_eq!(got["log"], json!([]));
                    assert!(got["view"].is_null());
                    if let Some(wrong) = &step.wrong {
                        assert_eq!(got["message"], wrong.as_str());
                    } else {
                        assert!(got["message"].as_str().is_some_and(|m| m.starts_with("This step asks for another move: ")), "{got}");
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn a_refused_move_gets_the_rule_in_words_and_bad_calls_typed_errors() {
    let state = memory_state().await;
    let step1 = "/api/games/dropsite/lessons/basics/steps/1";
    // The rules refuse it: the rule, in words.
    let (status, got) = post_json(&state, step1, None, &json!({ "action": "12 on 1" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{got}");
    assert_eq!(got["code"], "action/illegal");
    assert_eq!(got["refusal"], "dropsite/not_lower", "{got}");
    assert_eq!(
        got["message"],
        "a card played on a drop site must be lower than its top card, and 12 is not lower than 10"
    );
    // Text that is no move of the game.
    let (status, got) = post_json(&state, step1, None, &json!({ "action": "fly" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{got}");
    assert_eq!(got["code"], "action/malformed");
    assert!(
        got["message"]
            .as_str()
            .is_some_and(|m| m.contains("cannot read `fly`")),
        "{got}"
    );
    // Bodies that are not a move.
    for body in [
        &b"not json"[..],
        b"[\"8 on 1\"]",
        b"{}",
        b"{\"action\": \"8 on 1\", \"x\": 1}",
    ] {
        let (status, got) = call(&state, "POST", step1, None, Some(body.to_vec())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{got}");
        assert_eq!(got["code"], "request/malformed", "{got}");
    }
    // Addresses that name nothing.
    let cases = [
        (
            "GET",
            "/api/games/chess/lessons",
            "game/unknown",
            "unknown game `chess`",
        ),
        (
            "GET",
            "/api/games/dropsite/lessons/nope",
            "lesson/unknown",
            "Drop Site has no lesson `nope` (its lessons: basics)",
        ),
        (
            "POST",
            "/api/games/dropsite/lessons/nope/steps/1",
            "lesson/unknown",
            "no lesson `nope`",
        ),
        (
            "POST",
            "/api/games/dropsite/lessons/basics/steps/0",
            "lesson/no_step",
            "steps 1 to 6, not `0`",
        ),
        (
            "POST",
            "/api/games/dropsite/lessons/basics/steps/7",
            "lesson/no_step",
            "steps 1 to 6, not `7`",
        ),
        (
            "POST",
            "/api/games/dropsite/lessons/basics/steps/two",
            "lesson/no_step",
            "not `two`",
        ),
    ];
    for (method, uri, code, words) in cases {
        let body =
            (method == "POST").then(|| json!({ "action": "8 on 1" }).to_string().into_bytes());
        let (status, got) = call(&state, method, uri, None, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {got}");
        assert_eq!(got["code"], code, "{uri}");
        assert!(
            got["message"].as_str().is_some_and(|m| m.contains(words)),
            "{uri}: {got}"
        );
    }
}
