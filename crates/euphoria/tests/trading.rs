//! Trading as the rulebook has it (spec 1.9, 5.10): any time in your own turn, before,
//! between and after your placements until you `end` the turn; any goods and cards in any
//! amounts; several offers a turn, bounded only by `offers_per_turn`; each refusal.

use crate::common;

use common::*;
use engine::prelude::*;
use euphoria::cards::Good;
use euphoria::{Config, Euphoria, Refusal, Trading};

fn fresh(config: Config) -> Euphoria {
    bare(&config, 21)
}

#[test]
fn trading_before_between_and_after_placements_until_end() {
    let mut g = fresh(Config::players(3));
    edit(&mut g, |e| e.good(0, Good::Gold, 3).good(1, Good::Water, 3));
    // Two dice showing 2: a doubled placement.
    edit(&mut g, |e| e.dice(0, &[ready(2), ready(2)]));
    // Before placing.
    offer(&mut g, "p2", &["give gold", "ask water"]);
    act(&mut g, "accept");
    act(&mut g, "2@gen");
    // Between the doubled placements.
    assert!(offered(&g, "trade") && offered(&g, "end"));
    offer(&mut g, "p2", &["give gold", "ask water"]);
    act(&mut g, "accept");
    act(&mut g, "2@aqu");
    // After the last placement the turn waits for `end`.
    assert_eq!(g.to_act(), Some(0));
    assert_eq!(legal(&g), ["end", "trade"]);
    offer(&mut g, "p2", &["give gold", "ask water"]);
    act(&mut g, "accept");
    assert_eq!(g.player(0).count(Good::Gold), 0);
    // Three traded, one from the Aquifer.
    assert_eq!(g.player(0).count(Good::Water), 4);
    assert_eq!(g.player(1).count(Good::Gold), 3);
    act(&mut g, "end");
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn an_offer_holds_any_goods_and_cards_in_any_amounts() {
    let mut g = fresh(Config::players(3));
    edit(&mut g, |e| {
        e.good(0, Good::Food, 6)
            .good(0, Good::Book, 2)
            .good(2, Good::Stone, 5)
            .good(2, Good::Bat, 1)
            .morale(2, 6)
            .morale(0, 6)
    });
    let mut items = vec!["give food"; 6];
    items.extend(["give book", "give book"]);
    items.extend(vec!["ask stone"; 5]);
    items.push("ask bat");
    offer(&mut g, "p3", &items);
    act(&mut g, "accept");
    assert_eq!(g.player(0).count(Good::Food), 0);
    assert_eq!(g.player(0).count(Good::Stone), 5);
    assert_eq!(g.player(0).count(Good::Bat), 1);
    assert_eq!(g.player(2).count(Good::Food), 6);
    assert_eq!(g.player(2).count(Good::Book), 2);
    // A single item is an offer too.
    offer(&mut g, "p3", &["give stone"]);
    act(&mut g, "accept");
    assert_eq!(g.player(2).count(Good::Stone), 1);
}

#[test]
fn several_offers_a_turn_up_to_the_configured_bound() {
    let mut g = fresh(Config::players(3));
    edit(&mut g, |e| e.good(0, Good::Gold, 1));
    for _ in 0..5 {
        offer(&mut g, "p2", &["give gold"]);
        act(&mut g, "decline");
    }
    assert!(offered(&g, "trade"));
    let mut g = fresh(Config::players(3).with_offers(2));
    edit(&mut g, |e| e.good(0, Good::Gold, 1));
    offer(&mut g, "p2", &["give gold"]);
    act(&mut g, "decline");
    offer(&mut g, "p3", &["give gold"]);
    act(&mut g, "decline");
    assert_refused!(&mut g, "trade", Refusal::OfferLimit(2));
    // With no offer left, the last placement ends the turn by itself.
    act(&mut g, "1@gen");
    assert_eq!(g.to_act(), Some(1));
    // The next turn has its own offers.
    edit(&mut g, |e| e.good(1, Good::Gold, 1));
    assert!(offered(&g, "trade"));
}

#[test]
fn refusals_say_what_is_wrong_and_change_nothing() {
    let mut g = fresh(Config::players(3));
    edit(&mut g, |e| e.good(0, Good::Gold, 1));
    act(&mut g, "trade");
    assert_refused!(&mut g, "offer p1", Refusal::SelfTrade);
    assert_refused!(&mut g, "offer p5", Refusal::NoSuchSeat(4));
    act(&mut g, "offer p2");
    // An empty offer.
    assert_refused!(&mut g, "propose", Refusal::EmptyOffer);
    // Goods you lack.
    assert_refused!(
        &mut g,
        "give water",
        Refusal::NothingToGive {
            good: Good::Water,
            more: false
        }
    );
    act(&mut g, "give gold");
    assert_refused!(
        &mut g,
        "give gold",
        Refusal::NothingToGive {
            good: Good::Gold,
            more: true
        }
    );
    // Goods the partner lacks.
    assert_refused!(
        &mut g,
        "ask stone",
        Refusal::PartnerLacks {
            good: Good::Stone,
            more: false,
            ..
        }
    );
    assert_refused!(&mut g, "ask book", Refusal::PartnerCards { .. });
    act(&mut g, "propose");
    // An offer off your turn: the partner, answering, may not open one.
    assert_eq!(g.to_act(), Some(1));
    assert_refused!(&mut g, "trade", Refusal::TradeOutOfTurn);
    act(&mut g, "decline");
    assert_eq!(g.to_act(), Some(0));
}

#[test]
fn accepting_needs_what_was_asked_and_the_hand_limit_follows() {
    let mut g = fresh(Config::players(2));
    edit(&mut g, |e| {
        e.good(0, Good::Gold, 1)
            .good(0, Good::Book, 1)
            .good(1, Good::Bear, 1)
            .morale(0, 1)
    });
    offer(&mut g, "p2", &["give gold", "ask bear"]);
    act(&mut g, "accept");
    assert_eq!(g.player(0).count(Good::Bear), 1);
    assert_eq!(g.player(1).count(Good::Gold), 1);
    // Two cards and morale 1: seat 0 discards one, choosing.
    assert_eq!(g.to_act(), Some(0));
    assert_eq!(legal(&g), ["discard book", "discard bear"]);
    act(&mut g, "discard book");
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn the_rule_before_issue_16_stays_for_old_games() {
    let config = Config {
        trading: Trading::OneOfferBeforePlacing,
        ..Config::players(3)
    };
    let mut g = fresh(config);
    edit(&mut g, |e| e.good(0, Good::Gold, 5));
    act(&mut g, "trade");
    act(&mut g, "offer p2");
    for _ in 0..4 {
        act(&mut g, "give gold");
    }
    assert_refused!(&mut g, "give gold", Refusal::OfferItems);
    act(&mut g, "propose");
    act(&mut g, "decline");
    assert_refused!(&mut g, "trade", Refusal::OfferLimit(1));
    // The last placement ends the turn by itself.
    act(&mut g, "1@gen");
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn a_config_written_out_before_issue_16_keeps_its_trading_rule() {
    let old = serde_json::json!({"players":3,"edition":"v2","knowledge_check":"continuous",
        "tunnel_end_requires_faction":true,"doubles_cost_morale":false,
        "starting_recruit_discards":"return_to_deck"});
    // In a record of format 1 (every record that names no format), brought up to today's
    // format when it is loaded.
    let record = |format: u32| engine::GameRecord {
        game: "euphoria".into(),
        config: old.clone(),
        seed: 3,
        actions: Vec::new(),
        format,
    };
    let g: Euphoria = engine::replay(&record(1)).expect("an old record");
    assert_eq!(g.config().trading, Trading::OneOfferBeforePlacing);
    // In today's format, an option left out is today's default.
    let g: Euphoria = engine::replay(&record(Euphoria::FORMAT)).expect("a record of today");
    assert_eq!(g.config().trading, Trading::Rulebook);
    let c: Config = serde_json::from_value(old).expect("a config");
    assert_eq!(c.trading, Trading::Rulebook);
    // Anything shorter, or naming the new options, is a config of today.
    let c: Config = serde_json::from_str(r#"{"players":3}"#).expect("config");
    assert_eq!(c.trading, Trading::Rulebook);
    assert_eq!(c.offers_per_turn, None);
    let c: Config = serde_json::from_str(r#"{"offers_per_turn":1}"#).expect("config");
    assert_eq!(c.offers_per_turn, Some(1));
    let today = serde_json::to_string(&Config::default()).expect("JSON");
    let back: Config = serde_json::from_str(&today).expect("reads back");
    assert_eq!(back, Config::default());
    assert!(serde_json::from_str::<Config>(r#"{"offers":1}"#).is_err());
}

#[test]
fn refusals_are_told_in_words_with_seats_counted_from_1() {
    assert_eq!(Refusal::NoSuchSeat(4).to_string(), "there is no seat 5");
    let lacks = Refusal::PartnerLacks {
        partner: 1,
        good: Good::Stone,
        more: true,
    };
    assert_eq!(lacks.to_string(), "seat 2 does not have another stone");
    let cards = Refusal::PartnerCards { partner: 0 };
    assert_eq!(
        cards.to_string(),
        "seat 1 does not hold that many artifact cards"
    );
    assert_eq!(
        Refusal::OfferLimit(1).to_string(),
        "at most 1 offer per turn in this game"
    );
    assert_eq!(
        Refusal::OfferLimit(2).to_string(),
        "at most 2 offers per turn in this game"
    );
}

/// While an offer waits, the words speak to the partner who answers it, and the board
/// text names that seat first (a partner used to read "You: seat 2 answers the offer").
#[test]
fn a_waiting_offer_asks_its_partner_to_accept_or_decline() {
    let mut g = fresh(Config::players(3));
    edit(&mut g, |e| e.good(0, Good::Gold, 1).good(1, Good::Water, 1));
    act(&mut g, "trade");
    act(&mut g, "offer p2");
    act(&mut g, "give gold");
    act(&mut g, "ask water");
    assert_eq!(
        g.view(engine::Viewer::Seat(0)).prompt,
        "build the offer: what you give and what you ask"
    );
    act(&mut g, "propose");
    assert_eq!(g.to_act(), Some(1));
    for viewer in [
        engine::Viewer::Seat(1),
        engine::Viewer::Seat(2),
        engine::Viewer::Spectator,
    ] {
        let view = g.view(viewer);
        assert_eq!(view.prompt, "accept or decline the offer");
        let text = view.to_string();
        assert!(
            text.ends_with("seat 2 to act: accept or decline the offer"),
            "{text}"
        );
        assert!(
            text.contains("Offer from seat 1 to seat 2: gives 1 gold for 1 water"),
            "{text}"
        );
    }
    act(&mut g, "decline");
    assert_eq!(g.to_act(), Some(0));
    let view = g.view(engine::Viewer::Seat(0));
    let text = view.to_string();
    assert!(
        text.ends_with(&format!("seat 1 to act: {}", view.prompt)),
        "{text}"
    );
    assert!(!text.contains("Offer from"), "{text}");
}
