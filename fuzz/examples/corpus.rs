//! Writes the fixed seed corpus of every target into `fuzz/corpus/<target>/` (a handful
//! of small files each, made from the games themselves): run from `fuzz/` with
//! `cargo run --example corpus`. The files are kept in the repository; this only makes
//! them again (docs/fuzzing.md).
// Linked for the coverage callbacks the instrumented build calls (its `main` is not used).
use engine::{DynState, Typed};
use libfuzzer_sys as _;
use serde_json::{json, Value};
use std::path::Path;
use tabletop_fuzz::games::{reached, Fuzzed};

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new("corpus").join(target);
    std::fs::create_dir_all(&dir).expect("corpus folder");
    std::fs::write(dir.join(name), bytes).expect("corpus file");
}

/// An action-text input: option bytes, seed, moves, then lines of actions: some legal
/// at the position reached, one from further on (refused here), one malformed.
fn actions<G: Fuzzed>(target: &str, cases: &[[u8; 4]]) {
    for (i, &[a, b, seed, moves]) in cases.iter().enumerate() {
        let config = Typed::<G>::config(&G::options(a, b)).expect("the harness's options");
        let game: G = reached(&config, u64::from(seed), usize::from(moves % 64));
        let later: G = reached(&config, u64::from(seed), usize::from(moves % 64) + 7);
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let mut lines: Vec<String> = legal.iter().take(2).map(ToString::to_string).collect();
        later.legal_actions(&mut legal);
        lines.extend(legal.first().map(ToString::to_string));
        lines.push("  not an action ".into());
        let mut bytes = vec![a, b, seed, moves];
        bytes.extend(lines.join("\n").into_bytes());
        write(target, &format!("seed-{i}"), &bytes);
    }
}

/// State files of positions reached by random moves (the start, the middle, the end).
fn states<G: Fuzzed>(target: &str, cases: &[([u8; 2], u64, usize)]) {
    for (i, &([a, b], seed, moves)) in cases.iter().enumerate() {
        let config = Typed::<G>::config(&G::options(a, b)).expect("the harness's options");
        let game: G = reached(&config, seed, moves);
        let file = DynState::state_json(&game);
        write(
            target,
            &format!("seed-{i}.json"),
            file.to_string().as_bytes(),
        );
    }
}

fn cards(target: &str, files: &[Value]) {
    for (i, file) in files.iter().enumerate() {
        write(
            target,
            &format!("seed-{i}.json"),
            file.to_string().as_bytes(),
        );
    }
}

/// The printed Drop Site deck as card data (from `crates/dropsite/data/deck.csv`).
fn printed_deck() -> Value {
    serde_json::to_value(dropsite::cards::Deck::default()).expect("the deck serializes")
}

/// The printed Distop-IA contraband as card data (from `crates/distopia/data/cards.csv`).
fn printed_contraband() -> Value {
    let text = include_str!("../../crates/distopia/data/cards.csv");
    let cards: Vec<Value> = (text.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let kind = match fields[1] {
                "H" => "hobby",
                "E" => "education",
                _ => "survival",
            };
            json!({"type": kind, "points": fields[2].parse::<u8>().unwrap_or(1), "siren": fields[3] == "1"})
        })
        .collect();
    Value::Array(cards)
}

/// A fresh two-seat table's first legal actions, as the server's fixture makes it.
fn first_legal(game: &str) -> Vec<String> {
    let dyn_game = catalog::game(game).expect("a catalog game");
    let mut options = serde_json::Map::new();
    dyn_game.with_players(&mut options, 2).expect("two seats");
    let mut config = dyn_game.default_config();
    if let Value::Object(map) = &mut config {
        map.extend(options);
    }
    let state = dyn_game.new_state(&config, 0).expect("a new game");
    state.legal()
}

fn prefixed(prefix: &[u8], rest: &str) -> Vec<u8> {
    let mut bytes = prefix.to_vec();
    bytes.extend(rest.as_bytes());
    bytes
}

fn main() {
    let action_cases = [
        [0, 0, 1, 0],
        [1, 7, 2, 5],
        [2, 3, 3, 20],
        [9, 200, 4, 40],
        [4, 1, 5, 63],
    ];
    actions::<dropsite::DropSite>("dropsite_action", &action_cases);
    actions::<distopia::Distopia>("distopia_action", &action_cases);
    actions::<euphoria::Euphoria>("euphoria_action", &action_cases);

    states::<dropsite::DropSite>(
        "dropsite_state",
        &[
            ([0, 0], 1, 0),
            ([1, 0], 2, 9),
            ([2, 16], 3, 30),
            ([0, 0], 4, 10_000),
        ],
    );
    states::<distopia::Distopia>(
        "distopia_state",
        &[
            ([0, 0], 1, 0),
            ([5, 2], 2, 11),
            ([6, 21], 3, 25),
            ([0, 0], 4, 10_000),
        ],
    );
    states::<euphoria::Euphoria>(
        "euphoria_state",
        &[([0, 2], 1, 0), ([1, 1], 2, 12), ([8, 6], 3, 40)],
    );

    cards(
        "dropsite_cards",
        &[
            json!({}),
            json!({"deck": printed_deck()}),
            json!({"deck": printed_deck(), "players": 4, "target": 50}),
            json!({"deck": [{"value": 0, "copies": 4, "points": 2}]}),
        ],
    );
    cards(
        "distopia_cards",
        &[
            json!({"limits": [2, 3, 3, 4]}),
            json!({"contraband": printed_contraband()}),
            json!({"limits": [1, 10, 1, 10], "contraband": printed_contraband(), "advanced": true}),
            json!({"limits": [0, 3, 3, 3]}),
        ],
    );
    cards(
        "euphoria_cards",
        &[
            json!({"rewards": {"area": [1, 2, 3], "tunnel_end": 4}}),
            json!({"rewards": {"area": [1, 1, 2]}, "players": 2}),
            json!({"rewards": {"tunnel_end": 9}, "players": 6, "edition": "v1"}),
            json!({"rewards": {"tunnel_end": 0}}),
        ],
    );

    let decode = [
        prefixed(&[0], r#"{"type":"sync"}"#),
        prefixed(&[0], r#"{"type":"action","action":"7 debt","version":3}"#),
        prefixed(&[1], "Ada"),
        prefixed(&[1], "  E\u{301}mile "),
        prefixed(&[2], "good game"),
        prefixed(&[3], r#"{"player":"human","name":"Bo"}"#),
        prefixed(
            &[4],
            r#"{"clock":{"kind":"total","seconds":600,"increment":5},"on_timeout":"resign"}"#,
        ),
        prefixed(
            &[4],
            r#"{"clock":{"kind":"correspondence","days":2},"takeover":"random","away_seconds":0}"#,
        ),
    ];
    for (i, bytes) in decode.iter().enumerate() {
        write("server_decode", &format!("seed-{i}"), bytes);
    }

    let mut socket = vec![prefixed(&[0, 0, 0], r#"{"type":"sync"}"#)];
    for (g, name) in catalog::GAMES.iter().enumerate() {
        let legal = first_legal(name);
        let g = g as u8;
        socket.push(prefixed(
            &[g, 0, 0],
            &json!({"type": "action", "action": legal[0], "version": 0}).to_string(),
        ));
        socket.push(prefixed(
            &[g, 0, 1],
            &json!({"type": "action", "action": legal[legal.len() - 1], "version": 0}).to_string(),
        ));
    }
    socket.push(prefixed(
        &[0, 0, 0],
        r#"{"type":"action","action":"resign 1","version":0}"#,
    ));
    for (i, bytes) in socket.iter().enumerate() {
        write("server_socket", &format!("seed-{i}"), bytes);
    }

    let route = |path: &str| -> u8 {
        let at = [
            "create", "actions", "undo", "resign", "back", "join", "chat", "rematch", "lobby",
            "view", "log", "chat-get", "spectate", "legal",
        ];
        at.iter().position(|p| *p == path).expect("a route") as u8
    };
    let distopia_first = first_legal("distopia");
    let http = [
        prefixed(&[route("create"), 0, 0], r#"{"game":"dropsite"}"#),
        prefixed(
            &[route("create"), 0, 0],
            r#"{"game":"euphoria","options":{"players":2},"seats":[{"player":"human","name":"Ada"},"random"],"table":{"clock":{"kind":"per_move","seconds":60}}}"#,
        ),
        prefixed(
            &[route("actions"), 1, 0],
            &json!({"action": distopia_first[0], "version": 0}).to_string(),
        ),
        prefixed(&[route("undo"), 1, 8], r#"{"version":1}"#),
        prefixed(&[route("resign"), 0, 0], ""),
        prefixed(&[route("back"), 2, 0], "{}"),
        prefixed(&[route("join"), 0, 0], r#"{"name":"Bo"}"#),
        prefixed(
            &[route("chat"), 0, 2],
            r#"{"text":"gl hf","name":"Kibitzer"}"#,
        ),
        prefixed(&[route("rematch"), 0, 0], ""),
        prefixed(
            &[route("lobby"), 0, 0],
            "status=open,running&game=dropsite&limit=5",
        ),
        prefixed(&[route("view"), 2, 24], "since=0"),
        prefixed(&[route("log"), 1, 16], "since=1&token=x"),
        prefixed(&[route("chat-get"), 0, 0], "since=0"),
        prefixed(&[route("spectate"), 0, 0], "since=2"),
        prefixed(&[route("legal"), 2, 0], ""),
    ];
    for (i, bytes) in http.iter().enumerate() {
        write("server_http", &format!("seed-{i}"), bytes);
    }
}
