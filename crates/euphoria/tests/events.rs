//! Random games produce each kind of event a move can have, and every move is told.
use engine::prelude::*;
use engine::{Event, Names, Viewer};
use euphoria::events::EuphoriaEvent;
use euphoria::{Config, Euphoria};
use rand::seq::IndexedRandom;
use std::collections::BTreeSet;

/// The event kinds a spectator is told over a few seeded random games of `players`.
fn kinds_seen(players: usize, games: u64) -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    let names = Names::for_viewer(Viewer::Spectator);
    for seed in 0..games {
        let config = Config {
            players,
            ..Config::default()
        };
        let mut game = Euphoria::new(&config, seed).expect("a game");
        let mut rng = engine::rng_from_seed(seed ^ 0xE7E);
        let mut legal = Vec::new();
        while game.to_act().is_some() {
            game.legal_actions(&mut legal);
            let action = *legal.choose(&mut rng).expect("an action");
            let before = game.clone();
            game.apply(action).expect("legal");
            let events = Euphoria::events(&before, action, &game, Viewer::Spectator);
            assert!(!events.is_empty(), "`{action}` is told");
            for event in &events {
                assert!(!event.text(&names).is_empty());
                let json = serde_json::to_value(event).expect("serializes");
                kinds.insert(json["kind"].as_str().expect("kind").to_string());
                if let EuphoriaEvent::Decided { decision, .. } = event {
                    let json = serde_json::to_value(decision).expect("serializes");
                    kinds.insert(format!("decided:{}", json["what"].as_str().expect("what")));
                }
            }
        }
    }
    kinds
}

/// Asserts that `line` is among the texts told.
fn told_line(texts: &[String], line: &str) {
    assert!(
        texts.iter().any(|t| t == line),
        "{line:?} is not in {texts:?}"
    );
}

#[test]
fn random_games_tell_bumps_lost_dice_markets_trades_dilemmas_and_the_end() {
    let kinds = kinds_seen(4, 6);
    for kind in [
        "bumped",
        "changed",
        "star_placed",
        "market_built",
        "recruit",
        "game_over",
        "decided:placed",
        "decided:started_trade",
        "decided:dilemma",
    ] {
        assert!(kinds.contains(kind), "no `{kind}` in {kinds:?}");
    }
}

// --- One test per kind of effect: the event a spectator is told, and its words.

use euphoria::cards::{site_cost, Faction, Good, Penalty, Recruit, Space, DILEMMAS, MARKET_TILES};
use euphoria::{Action, Builder, DieLoc};

/// A 3-player table past setup, seat 0 to play; nobody holds recruits; everyone has one
/// die showing 1, knowledge 3 and morale 3.
fn table() -> Builder {
    let mut e = Builder::started(&Config::players(3), 5).expect("config");
    for s in 0..3 {
        e = e
            .recruits(s, &[])
            .dice(s, &[DieLoc::Ready(1)])
            .knowledge(s, 3)
            .morale(s, 3);
    }
    e.turn(0)
}

/// Applies `text`, returning the spectator's events of that move and their words.
fn told(g: &mut Euphoria, text: &str) -> (Vec<EuphoriaEvent>, Vec<String>) {
    let action: Action = text.parse().expect("notation");
    let before = g.clone();
    if let Err(e) = g.apply(action) {
        panic!("`{text}` refused: {e}");
    }
    let events = Euphoria::events(&before, action, g, Viewer::Spectator);
    let names = Names::for_viewer(Viewer::Spectator);
    let texts = events.iter().map(|e| e.text(&names)).collect();
    (events, texts)
}

fn position(e: Builder) -> Euphoria {
    e.build().expect("a possible position")
}

#[test]
fn a_bump_is_told_with_its_re_roll() {
    let tunnel = Space::tunnel(Faction::Euphorian);
    let mut g = position(
        table()
            .dice(1, &[DieLoc::Board(tunnel, 3), DieLoc::Ready(1)])
            .dice(0, &[DieLoc::Ready(2)])
            .good(0, Good::Energy, 1),
    );
    let (events, texts) = told(&mut g, &format!("2@{tunnel}"));
    let rolled = events
        .iter()
        .find_map(|e| match e {
            EuphoriaEvent::Bumped {
                seat: 1,
                space,
                rolled,
            } if *space == tunnel => Some(*rolled),
            _ => None,
        })
        .expect("a bump event");
    assert!(g.player(1).dice.contains(&DieLoc::Ready(rolled)));
    told_line(
        &texts,
        &format!(
            "seat 2's die on the {} was bumped and re-rolled: {rolled}",
            tunnel.name()
        ),
    );
}

#[test]
fn a_die_lost_to_the_knowledge_check_is_told() {
    // Seat 2's two sixes and knowledge 4 make 16: the check takes a die at the next step.
    let mut g = position(
        table()
            .dice(1, &[DieLoc::Ready(6), DieLoc::Ready(6)])
            .knowledge(1, 4),
    );
    let (events, texts) = told(&mut g, "1@gen");
    assert!(
        events.contains(&EuphoriaEvent::DieLost { seat: 1 }),
        "{events:?}"
    );
    told_line(
        &texts,
        "seat 2 lost a die: the dice's knowledge was too high",
    );
}

#[test]
fn a_market_completion_is_told_with_its_stars_and_penalty() {
    let tile = MARKET_TILES
        .iter()
        .position(|t| t.penalty == Penalty::NoPair)
        .expect("the Courthouse") as u8;
    let mut g = position(
        table()
            .tile(0, tile)
            .dice(1, &[DieLoc::Board(Space::site(0, 0), 4), DieLoc::Ready(1)])
            .dice(0, &[DieLoc::Ready(3)])
            .good(0, site_cost(0, 1), 1),
    );
    let (events, texts) = told(&mut g, &format!("3@{}", Space::site(0, 1)));
    let card = &MARKET_TILES[tile as usize];
    assert!(
        events.contains(&EuphoriaEvent::MarketBuilt {
            market: "EA".into(),
            tile,
            name: card.name.into(),
            stars: vec![0, 1],
            penalty: Penalty::NoPair.text(),
        }),
        "{events:?}"
    );
    let expected = format!(
        "Euphorian market A is built, the {}: stars for seat 1 and seat 2; from now on the others: {}",
        card.name,
        Penalty::NoPair.text()
    );
    told_line(&texts, &expected);
    for seat in [0, 1] {
        assert!(events
            .iter()
            .any(|e| matches!(e, EuphoriaEvent::StarPlaced { seat: s, .. } if *s == seat)));
    }
}

#[test]
fn a_recruit_ability_is_told_with_what_it_did() {
    let mut g = position(
        table()
            .recruits(0, &[(Recruit::Gidget, true)])
            .dice(0, &[DieLoc::Board(Space::area(Faction::Euphorian), 1)])
            .good(0, Good::Bliss, 1),
    );
    told(&mut g, "ret 1@gen");
    told(&mut g, "fin bliss");
    let (events, texts) = told(&mut g, "use gidget");
    let name = Recruit::Gidget.name();
    told_line(&texts, &format!("seat 1 used the ability of {name}"));
    assert!(
        events.iter().any(|e| matches!(
            e,
            EuphoriaEvent::Changed {
                seat: 0,
                knowledge: -2,
                ..
            }
        )),
        "{events:?}"
    );
}

#[test]
fn a_trade_is_told_by_its_goods() {
    let mut g = position(table().good(0, Good::Gold, 1).good(1, Good::Water, 1));
    for step in ["trade", "offer p2", "give gold", "ask water", "propose"] {
        told(&mut g, step);
    }
    let (events, texts) = told(&mut g, "accept");
    told_line(&texts, "seat 2 accepted the trade");
    for (seat, gold, water) in [(0, -1, 1), (1, 1, -1)] {
        assert!(
            events.contains(&EuphoriaEvent::Changed {
                seat,
                goods: vec![(Good::Water, water), (Good::Gold, gold)],
                knowledge: 0,
                morale: 0,
                artifacts: 0,
            }),
            "{events:?}"
        );
    }
    told_line(&texts, "seat 1: +1 water, -1 gold");
}

#[test]
fn a_dilemma_is_told_with_its_star() {
    let g = position(table());
    let pictured = DILEMMAS[g.player(0).dilemma as usize].pictured;
    let mut g = position(g.edit().good(0, pictured, 1));
    let (_, texts) = told(&mut g, "dilemma");
    told_line(&texts, "seat 1 turned up their ethical dilemma");
    let (events, texts) = told(&mut g, "conform");
    assert!(events.contains(&EuphoriaEvent::StarPlaced {
        seat: 0,
        target: "on the dilemma card".into(),
    }));
    told_line(&texts, "seat 1 placed a star on the dilemma card");
}

#[test]
fn a_tier_reward_is_told_in_the_goods_it_gives() {
    // Icarite allegiance at tier 1 and a face-up Icarite recruit: the Cloud Mine gives 1
    // bliss more.
    for (up, bliss) in [(true, 2), (false, 1)] {
        let mut g = position(
            table()
                .allegiance(Faction::Icarite, 2)
                .recruits(0, &[(Recruit::Amanda, up)]),
        );
        let (_, texts) = told(&mut g, &format!("1@{}", Space::area(Faction::Icarite)));
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with(&format!("seat 1: +{bliss} bliss"))),
            "{texts:?}"
        );
    }
}

/// The artifact card `seat` drew: the one kind its hand holds one more of.
fn card_drawn(before: &Euphoria, after: &Euphoria, seat: usize) -> Good {
    let more: Vec<Good> = Good::ARTIFACT_KINDS
        .into_iter()
        .filter(|&g| after.player(seat).count(g) == before.player(seat).count(g) + 1)
        .collect();
    assert_eq!(more.len(), 1, "a draw adds one card: {more:?}");
    more[0]
}

#[test]
fn the_drawing_seat_is_told_its_artifact_card_and_the_others_only_that_one_was_drawn() {
    use euphoria::events::{good_name, Decision};
    let mut draws = 0;
    for seed in 0..40 {
        let mut game = Euphoria::new(&Config::players(3), seed).expect("a game");
        let mut rng = engine::rng_from_seed(seed ^ 0xD4A);
        let mut legal = Vec::new();
        while game.to_act().is_some() && draws < 12 {
            game.legal_actions(&mut legal);
            // Draw whenever drawing is allowed, else a random move.
            let action = match legal.iter().find(|a| matches!(a, Action::Draw)) {
                Some(&draw) => draw,
                None => *legal.choose(&mut rng).expect("an action"),
            };
            let before = game.clone();
            let seat = before.to_act().expect("running");
            game.apply(action).expect("legal");
            if action != Action::Draw {
                continue;
            }
            draws += 1;
            let card = card_drawn(&before, &game, seat);
            // The drawer's own log names the card.
            let mine = Euphoria::events(&before, action, &game, Viewer::Seat(seat));
            assert_eq!(
                mine[0],
                EuphoriaEvent::Decided {
                    seat,
                    decision: Decision::DrewArtifact { card: Some(card) }
                }
            );
            let names = Names::for_viewer(Viewer::Seat(seat));
            assert_eq!(
                mine[0].text(&names),
                format!("you drew a {} card", good_name(card))
            );
            let json = serde_json::to_value(&mine[0]).expect("serializes");
            assert_eq!(
                json["decision"]["card"],
                serde_json::to_value(card).expect("a good")
            );
            // Every other viewer is told that an artifact card was drawn, not which.
            let others = (0..3)
                .filter(|&s| s != seat)
                .map(Viewer::Seat)
                .chain([Viewer::Spectator]);
            for viewer in others {
                let theirs = Euphoria::events(&before, action, &game, viewer);
                assert_eq!(
                    theirs[0],
                    EuphoriaEvent::Decided {
                        seat,
                        decision: Decision::DrewArtifact { card: None }
                    },
                    "{viewer:?}"
                );
                let names = Names::for_viewer(viewer);
                let texts: Vec<String> = theirs.iter().map(|e| e.text(&names)).collect();
                assert_eq!(texts[0], format!("seat {} drew an artifact card", seat + 1));
                for text in &texts {
                    for kind in Good::ARTIFACT_KINDS {
                        assert!(
                            !text.contains(&format!(" {} ", good_name(kind))),
                            "{viewer:?} is told the card: {text}"
                        );
                    }
                }
                let json = serde_json::to_value(&theirs[0]).expect("serializes");
                assert_eq!(json["decision"]["card"], serde_json::Value::Null);
            }
        }
        if draws >= 12 {
            break;
        }
    }
    assert!(draws >= 12, "only {draws} draws in 40 games");
}
