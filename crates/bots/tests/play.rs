//! Bots play whole seeded games legally and reproducibly.
use crate::common;

use bots::{make_bot, Bot, BotSpec, Observer};
use engine::prelude::*;

/// Plays a game with one bot per seat, checking every choice is legal; returns the actions.
fn play<G: Game>(config: &G::Config, seed: u64, bots: &mut [Box<dyn Bot<G>>]) -> Vec<String> {
    let mut game = G::new(config, seed).expect("valid config");
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while let Some(observer) = Observer::new(&game) {
        let seat = observer.seat();
        let bot = &mut bots[seat % bots.len()];
        let action = bot
            .choose(&observer)
            .expect("a running game has a legal action");
        game.legal_actions(&mut legal);
        assert!(
            legal.contains(&action),
            "{} chose illegal {action} (seed {seed})",
            bot.name()
        );
        game.apply(action).expect("legal");
        actions.push(action.to_string());
    }
    assert!(game.outcome().is_some());
    actions
}

/// Seat `s` gets bot kind `s + offset` of [`common::all_bots`], so every kind plays.
fn table<G: Game>(seats: usize, seed: u64, offset: usize) -> Vec<Box<dyn Bot<G>>> {
    (0..seats)
        .map(|s| {
            let mut kinds = common::all_bots::<G>(seed + s as u64);
            let k = (s + offset) % kinds.len();
            kinds.swap_remove(k)
        })
        .collect()
}

fn legal_and_deterministic<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let seats = G::new(config, seed).expect("valid").seats();
        let offset = seed as usize;
        let first = play::<G>(config, seed, &mut table::<G>(seats, seed, offset));
        let again = play::<G>(config, seed, &mut table::<G>(seats, seed, offset));
        assert_eq!(first, again, "seed {seed} did not replay identically");
    }
}

#[test]
fn dropsite_bots_play_legal_reproducible_games() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    legal_and_deterministic::<dropsite::DropSite>(&config, 0..2);
}

#[test]
fn distopia_bots_play_legal_reproducible_games() {
    legal_and_deterministic::<distopia::Distopia>(&distopia::Config::default(), 0..4);
}

#[test]
fn euphoria_bots_play_legal_reproducible_games() {
    // Whole games with searching bots are long in debug: one, with the cheap bots.
    let config = euphoria::Config::default().with_offers(1);
    let mut bots: Vec<Box<dyn Bot<euphoria::Euphoria>>> = vec![
        make_bot(&BotSpec::Random, 1).expect("bot"),
        Box::new(bots::HeuristicBot::with_options(
            bots::HeuristicOptions::default()
                .with_determinizations(1)
                .with_own_lookahead(2),
            2,
        )),
    ];
    let first = play(&config, 3, &mut bots);
    assert!(!first.is_empty());
}

#[test]
fn euphoria_search_chooses_legal_actions_midgame() {
    let config = euphoria::Config::default().with_offers(1);
    let mut legal = Vec::new();
    for game in common::positions::<euphoria::Euphoria>(&config, 5, 61, 12) {
        game.legal_actions(&mut legal);
        for mut bot in common::all_bots::<euphoria::Euphoria>(9) {
            let observer = Observer::new(&game).expect("running");
            let action = bot.choose(&observer).expect("an action");
            assert!(
                legal.contains(&action),
                "{} chose illegal {action}",
                bot.name()
            );
        }
    }
}

/// Two heuristic bots once played this advanced Distop-IA game for ever: each turn one
/// picked up its guarded district, sent the guard across with Spy Pets and played the card
/// back, and the other did the same in reply. A position that comes up a third time now
/// ends the game (ruling X15).
#[test]
fn heuristic_bots_in_a_spy_pets_loop_reach_the_end() {
    use distopia::{Border, Config, Distopia};
    let seed = engine::derive_seed(1, 111);
    let mut game = Distopia::new(&Config::advanced(Border::Coast), seed).expect("valid");
    let mut bots: Vec<bots::HeuristicBot<Distopia>> = (0..2)
        .map(|s| bots::HeuristicBot::new(engine::derive_seed(seed, s + 1)))
        .collect();
    let mut moves = 0;
    while let Some(observer) = Observer::new(&game) {
        let action = bots[observer.seat()].choose(&observer).expect("an action");
        game.apply(action).expect("legal");
        moves += 1;
        assert!(moves < 2_000, "still playing after {moves} moves");
    }
    assert!(
        game.ended_by_repetition(),
        "it ended by the loop, after {moves} moves"
    );
}
