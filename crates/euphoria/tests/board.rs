//! What a person reads: the component data the server serves, the JSON of the state and
//! view (snake_case, no Rust `Debug` text), and the text board with costs, progress,
//! ability texts, penalties in words and an offer by its goods.

use crate::common;

use common::*;
use engine::prelude::*;
use engine::Viewer;
use euphoria::cards::{card_data, Good, Penalty, Recruit, Space};
use euphoria::{Builder, Config, Euphoria};

fn fresh(players: usize) -> Euphoria {
    bare(&Config::players(players), 21)
}

#[test]
fn card_data_gives_costs_penalties_and_abilities_as_data_and_words() {
    let data = serde_json::to_value(card_data()).expect("JSON");
    assert_eq!(data["recruits"].as_array().map(Vec::len), Some(48));
    assert_eq!(data["recruits"][0]["name"], "Amanda the Broker");
    assert_eq!(data["recruits"][0]["key"], "amanda");
    assert!(data["recruits"][38]["text"]
        .as_str()
        .is_some_and(|t| t.contains("new worker")));
    let tiles = data["tiles"].as_array().expect("tiles");
    assert_eq!(tiles.len(), 18);
    let loss = tiles
        .iter()
        .find(|t| t["penalty"] == serde_json::json!({"roll_loss": 2}))
        .expect("a roll-loss tile in data form");
    assert_eq!(
        loss["penalty_text"],
        "each die you roll showing 2 costs 1 commodity or resource"
    );
    assert!(tiles.iter().any(|t| t["penalty"] == "no_pair"));
    assert!(tiles.iter().all(|t| t["cost"]["text"].is_string()));
    let ea1 = &data["spaces"][Space::site(0, 0).0 as usize];
    assert_eq!(ea1["code"], "ea1");
    assert_eq!(ea1["cost"]["fixed"], serde_json::json!([["clay", 1]]));
    assert_eq!(ea1["cost_text"], "1 clay");
    // No Rust Debug text: no PascalCase variant anywhere.
    let text = data.to_string();
    for debug in ["RollLoss", "NoPair", "Euphorian\"", "\"Clay\""] {
        assert!(!text.contains(debug), "{debug} in the card data");
    }
}

/// A 3-seat game where `seat` has a die showing 2 on the Generator and one ready showing
/// 3, changed further by `more`.
fn generator_and_ready(seat: usize, more: impl FnOnce(Builder) -> Builder) -> Euphoria {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        more(e.dice(
            seat,
            &[on(Space::area(euphoria::Faction::Euphorian), 2), ready(3)],
        ))
    });
    g
}

#[test]
fn state_and_view_json_use_snake_case_variants() {
    let g = generator_and_ready(1, |e| e);
    let state = serde_json::to_string(&g).expect("JSON");
    assert!(state.contains("\"board\"") && state.contains("\"ready\""));
    assert!(state.contains("\"unresolved\"") && state.contains("\"reserve\""));
    for debug in ["\"Board\"", "\"Ready\"", "\"Reserve\"", "\"Unresolved\""] {
        assert!(!state.contains(debug), "{debug} in the state");
    }
    let back: Euphoria = serde_json::from_str(&state).expect("reads back");
    assert_eq!(back, g);
    let view = serde_json::to_string(&g.view(Viewer::Seat(1))).expect("JSON");
    assert!(view.contains("\"board\"") && !view.contains("\"Board\""));
}

#[test]
fn the_text_board_shows_costs_progress_abilities_penalties_and_offers() {
    let mut g = fresh(4);
    edit(&mut g, |e| {
        e.dice(1, &[on(Space::site(2, 0), 4)])
            .built(5, tile(Penalty::RollLoss(3)), &[1])
            .recruits(0, &[(Recruit::Chase, true)])
    });
    let text = g.view(Viewer::Seat(0)).to_string();
    assert!(
        text.contains("[sa1] pay 1 gold workers seat 2 (4)"),
        "{text}"
    );
    assert!(text.contains("1 of 3 workers"), "{text}");
    assert!(
        text.contains("without a star: each die you roll showing 3 costs 1 commodity or resource"),
        "{text}"
    );
    assert!(text.contains("Chase the Miner"), "{text}");
    assert!(
        text.contains("new worker: may place it this turn"),
        "{text}"
    );
    assert!(
        text.contains(
            "Nimbus Loft [nimbus]: pay 3 of any resource; get 1 star in the Icarite territory"
        ),
        "{text}"
    );
    assert!(text.contains("Chase the Miner (Subterran)"), "{text}");
    assert!(
        text.contains(">seat 1:"),
        "seats are counted from 1: {text}"
    );
    // An offer shows its goods.
    edit(&mut g, |e| e.good(0, Good::Water, 2).good(1, Good::Gold, 1));
    act(&mut g, "trade");
    act(&mut g, "offer p2");
    act(&mut g, "give water");
    act(&mut g, "give water");
    act(&mut g, "ask gold");
    let text = g.view(Viewer::Spectator).to_string();
    assert!(
        text.contains("Offer from seat 1 to seat 2: gives 2 water for 1 gold"),
        "{text}"
    );
}

#[test]
fn fin_free_and_fin_food_say_what_they_do() {
    let mut g = generator_and_ready(0, |e| e.good(0, Good::Food, 1));
    act(&mut g, "ret 2@gen");
    let text = g.view(Viewer::Seat(0)).to_string();
    assert!(
        text.contains("paying 1 food or 1 bliss gives morale +2"),
        "{text}"
    );
    assert!(text.contains("paying nothing costs 1 morale"), "{text}");
    // Each retrieval says what it does to this seat's morale.
    let fin = |pay| g.describe(euphoria::Action::FinishRetrieve(pay)).label;
    assert_eq!(
        fin(euphoria::RetrievePay::Food),
        "Retrieve, paying 1 food: morale +2"
    );
    assert_eq!(
        fin(euphoria::RetrievePay::Free),
        "Retrieve for free: morale −1 (morale cannot go below 1)"
    );
}
