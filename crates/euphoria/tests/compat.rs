//! Games made before issue 16 changed the notation, the JSON and the trading rules still
//! load: records (and the server's stored actions, which are the same action texts) made
//! by the `tabletop` binary of that time are brought up to today's format (2) once, when
//! loaded (`src/upgrade.rs`), and replay to their end; a state file written then is
//! brought up too, loads, validates and plays on.

use engine::prelude::*;
use engine::{load_state, load_state_file, replay, rng_from_seed, DynGame, GameRecord};
use engine::{StateFile, Typed};
use euphoria::cards::Recruit;
use euphoria::{Config, Euphoria, Trading};
use rand::Rng;

fn record(name: &str) -> GameRecord {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    serde_json::from_str(&text).expect("a game record")
}

/// The state of a new game of `players` (seed `seed`), as a state file holds it: it
/// loads, so what an edit of it makes refused is the edit.
fn new_state(players: usize, seed: u64) -> serde_json::Value {
    let game = Euphoria::new(&euphoria::Config::players(players), seed).expect("a game");
    let state = serde_json::to_value(&game).expect("serializes");
    assert!(
        load_state::<Euphoria>(&state).is_ok(),
        "the game as it was loads"
    );
    state
}

/// Why loading `state` after `edit` is refused (it must be).
fn refused_edit(state: &serde_json::Value, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut edited = state.clone();
    edit(&mut edited);
    let err = load_state::<Euphoria>(&edited).expect_err("the edited state is refused");
    err.to_string()
}

#[test]
fn records_made_before_issue_16_replay_to_their_end() {
    for k in 1..=5 {
        let rec = record(&format!("main-record-{k}.json"));
        assert_eq!(rec.format, 1, "a record that names no format is format 1");
        // Brought up to today's format once: today's notation, and the trading rule and
        // the decisions it was played under named in its config.
        let (upgraded, sources) = Typed::<Euphoria>::default()
            .upgrade_record(&rec)
            .unwrap_or_else(|e| panic!("record {k}: {e}"));
        assert_eq!(upgraded.format, Euphoria::FORMAT);
        assert_eq!(upgraded.config["trading"], "one_offer_before_placing");
        assert_eq!(sources.len(), upgraded.actions.len());
        assert!(sources.windows(2).all(|w| w[0] < w[1]), "record {k}");
        for (new, &old) in upgraded.actions.iter().zip(&sources) {
            let was = &rec.actions[old];
            assert!(
                new == was || (was.starts_with("offer ") && new.starts_with("offer p")),
                "record {k}: `{was}` became `{new}`"
            );
        }
        assert!(upgraded
            .actions
            .iter()
            .all(|a| !a.starts_with("offer ") || a.starts_with("offer p")));
        let again: Euphoria = replay(&upgraded).unwrap_or_else(|e| panic!("record {k}: {e}"));
        let game: Euphoria = match replay(&rec) {
            Ok(g) => g,
            Err(e) => panic!("record {k}: {e}"),
        };
        assert!(game.outcome().is_some(), "record {k} did not reach its end");
        // Where it ends (config aside) is kept beside it: the step that will bring such
        // records up to today's decisions, at load, must end them in the same place.
        let mut end = serde_json::to_value(&game).expect("a state");
        if let Some(fields) = end.as_object_mut() {
            fields.remove("config");
        }
        let path = format!(
            "{}/tests/fixtures/main-record-{k}.end.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let kept: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
        assert_eq!(end, kept, "record {k} ends elsewhere than it did");
        assert_eq!(
            again, game,
            "record {k}: the upgraded record ends elsewhere"
        );
    }
}

/// A random game played under the decisions of before issue 16 (payments good by good),
/// written as a record of that time: its config as written then (six options), its
/// new-worker answers as a bare `use KEY`, its offers `offer N` counted from 0; at most
/// `moves` actions.
fn old_game(seed: u64, moves: usize) -> (GameRecord, Euphoria) {
    let config = Config {
        players: 3,
        trading: Trading::OneOfferBeforePlacing,
        legacy_actions: true,
        ..Config::default()
    };
    let mut game = Euphoria::new(&config, seed).expect("a game");
    let mut rng = rng_from_seed(seed);
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while game.to_act().is_some() && actions.len() < moves {
        game.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        game.apply(a).expect("a legal action");
        let text = a.to_string();
        actions.push(match text.split_whitespace().collect::<Vec<_>>()[..] {
            ["use", key] if key.ends_with("-new") => format!("use {}", &key[..key.len() - 4]),
            ["offer", seat] => format!("offer {}", seat[1..].parse::<u8>().expect("p1..") - 1),
            _ => text,
        });
    }
    let config = serde_json::json!({
        "players": 3, "edition": "v2", "knowledge_check": "continuous",
        "tunnel_end_requires_faction": true, "doubles_cost_morale": false,
        "starting_recruit_discards": "return_to_deck"
    });
    let record = GameRecord {
        game: "euphoria".into(),
        config,
        seed,
        actions,
        format: 1,
    };
    (record, game)
}

#[test]
fn old_records_are_upgraded_to_the_same_position_with_todays_decisions_where_they_can() {
    let (mut today, mut as_played, mut bare_uses) = (0, 0, 0);
    for seed in 0..40 {
        // A whole game nearly always pays artifact cards, whose order matters later, in
        // an order of its own; its start does not.
        let (rec, played) = old_game(seed, if seed % 2 == 0 { 120 } else { 3000 });
        let (upgraded, sources) = Typed::<Euphoria>::default()
            .upgrade_record(&rec)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let game: Euphoria = replay(&upgraded).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut end = serde_json::to_value(&game).expect("a state");
        let mut was = serde_json::to_value(&played).expect("a state");
        for v in [&mut end, &mut was] {
            v.as_object_mut().map(|f| f.remove("config"));
        }
        assert_eq!(end, was, "seed {seed}: the upgraded record ends elsewhere");
        for (new, &old) in upgraded.actions.iter().zip(&sources) {
            let old = &rec.actions[old];
            if new != old && new.starts_with("use ") {
                assert_eq!(format!("{old}-new"), *new, "seed {seed}");
                bare_uses += 1;
            }
        }
        // Only the pays today's rules make by themselves are dropped.
        let dropped = (0..rec.actions.len()).filter(|i| !sources.contains(i));
        assert!(dropped.clone().all(|i| rec.actions[i].starts_with("pay ")));
        if upgraded.config["legacy_actions"] == false {
            assert!(dropped.count() > 0 || upgraded.actions.len() == rec.actions.len());
            today += 1;
        } else {
            assert_eq!(upgraded.actions.len(), rec.actions.len(), "seed {seed}");
            as_played += 1;
        }
    }
    // Both ends of the step are met, and bare uses are rewritten.
    assert!(
        today > 0 && as_played > 0,
        "{today} with today's decisions, {as_played} as played"
    );
    assert!(bare_uses > 0, "no new-worker offer answered in 40 games");
}

#[test]
fn a_state_file_written_before_issue_16_loads_and_plays_on() {
    let path = format!(
        "{}/tests/fixtures/state-before-16.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let file: StateFile =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    assert_eq!(file.format, 1, "a file that names no format is format 1");
    let mut game: Euphoria = load_state_file(&file).expect("the old state loads");
    // It is brought up to today's format: its config names the rules it was played under.
    assert_eq!(game.config().trading, Trading::OneOfferBeforePlacing);
    assert!(game.config().legacy_actions);
    // Today's format names no old variant: the old names are read by the step alone.
    assert!(load_state::<Euphoria>(&file.state).is_err());
    // It was saved while seat 0 built an offer to seat 2 (seats from 0 in JSON).
    assert_eq!(game.to_act(), Some(0));
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let texts: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert!(texts.iter().any(|t| t.starts_with("give ")), "{texts:?}");
    assert!(texts.contains(&"cancel".to_string()), "{texts:?}");
    game.apply("cancel".parse().expect("notation"))
        .expect("cancel is legal");
    assert_eq!(game.validate(), Ok(()));
}

#[test]
fn a_state_file_with_a_list_longer_than_the_rules_allow_is_refused() {
    let path = format!(
        "{}/tests/fixtures/state-before-16.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut file: StateFile =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    file.state["recruit_deck"] = serde_json::json!(vec![1; 49]);
    let err = load_state_file::<Euphoria>(&file).expect_err("49 recruits in the deck");
    assert!(err.to_string().contains("at most 48"), "{err}");
}

#[test]
fn a_state_file_whose_steps_name_a_seat_the_table_lacks_is_refused() {
    // Two seats, in the setup: seat 1 keeps a recruit face down next. A file naming seat
    // 2 there loaded before, and the legal actions then looked up a player that is not.
    let state = new_state(2, 1);
    let mut stack = state["stack"].clone();
    let steps = stack.as_array_mut().expect("a list of steps");
    let at = (steps.iter())
        .position(|s| s == &serde_json::json!({"choose_down": 1}))
        .expect("seat 1 keeps a recruit face down");
    steps[at] = serde_json::json!({"choose_down": 2});
    let err = refused_edit(&state, |s| s["stack"] = stack);
    assert!(err.contains("names seat 2 at a table of 2"), "{err}");
    for (field, value) in [("current", 2), ("first_player", 5)] {
        let err = refused_edit(&state, |s| s[field] = serde_json::json!(value));
        assert!(
            err.contains(&format!("names seat {value}")),
            "{field}: {err}"
        );
    }
}

#[test]
fn a_state_file_holding_a_number_that_is_no_recruit_is_refused() {
    // Recruits are numbered 1 to 48: a 0 dealt to a seat was not counted, loaded, and
    // determinizing then dealt some recruit twice.
    let err = refused_edit(&new_state(3, 2), |s| {
        s["players"][2]["dealt"] = serde_json::json!([0]);
    });
    assert!(
        err.contains("recruit number 0 is no recruit (1 to 48)"),
        "{err}"
    );
}

#[test]
fn a_position_edited_past_what_a_list_holds_is_refused() {
    let five: Vec<(Recruit, bool)> = Recruit::ALL[..5].iter().map(|&r| (r, true)).collect();
    let err = euphoria::Builder::started(&euphoria::Config::players(4), 1)
        .expect("config")
        .recruits(0, &five)
        .build()
        .expect_err("five recruits");
    assert!(
        err.problems
            .iter()
            .any(|p| p.contains("more than 4 recruits")),
        "{err}"
    );
}

#[test]
fn a_state_file_naming_a_die_a_player_does_not_have_is_refused() {
    // A die is one of four, 0 to 3: a file naming another is refused, never wrapped round
    // to one that exists (the typed die of a step or of the turn, or a number a pending
    // ability held before its trigger was typed).
    let state = new_state(3, 2);
    let err = refused_edit(&state, |s| s["turn"]["die"] = serde_json::json!(7));
    assert!(err.contains("die 7; a player has 4"), "{err}");
    // A bare number (a pending ability's trigger before triggers were typed) is read
    // only in a format-1 file, by the step that brings it up to today's format.
    let mut edited = state.clone();
    let stack = edited["stack"].as_array_mut().expect("a stack");
    stack.push(serde_json::json!({"ask": {"seat": 0, "id": 1, "arg": 9}}));
    assert!(load_state::<Euphoria>(&edited).is_err());
    let old = StateFile {
        game: "euphoria".into(),
        format: 1,
        state: edited,
    };
    let err = load_state_file::<Euphoria>(&old).expect_err("Amanda's die 9");
    assert!(
        err.to_string()
            .contains("a pending ability of Amanda the Broker names 9, which is no die or card"),
        "{err}"
    );
}

#[test]
fn a_state_file_naming_a_card_past_the_last_is_refused() {
    // Dilemma 6 and market tile 18 are no cards: counted as the card they wrap round to,
    // they passed the count and the view then looked them up.
    let state = new_state(3, 2);
    for (at, cards, what) in [
        ("/players/0/dilemma", 6, "dilemma card"),
        ("/markets/0/tile", 18, "market tile"),
    ] {
        let mut past = 0;
        let err = refused_edit(&state, |s| {
            let card = s.pointer_mut(at).expect("a card");
            past = card.as_u64().expect("a card number") + cards;
            *card = serde_json::json!(past);
        });
        let said = format!("{what} {past} is no {what} (0 to {})", cards - 1);
        assert!(err.contains(&said), "{err}");
    }
}
