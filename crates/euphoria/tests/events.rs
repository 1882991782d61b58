//! Random games produce each kind of event a move can have, and every move is told.
use engine::{Event, Game, Names, Viewer};
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
