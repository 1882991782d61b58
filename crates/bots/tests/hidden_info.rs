//! A bot never reads hidden information: two states its seat cannot tell apart (the
//! second a determinization of the first from that seat) get the same action from bots
//! with the same seed.
use crate::common;

use bots::Observer;
use engine::prelude::*;
use engine::Viewer;
use rand::SeedableRng;

fn check<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>, every: usize) {
    let mut checked = 0;
    for seed in seeds {
        for (i, game) in common::positions::<G>(config, seed, every, 6)
            .iter()
            .enumerate()
        {
            let seat = game.to_act().expect("running");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed * 100 + i as u64);
            let other = game.determinize(seat, &mut rng);
            assert_eq!(
                game.view(Viewer::Seat(seat)),
                other.view(Viewer::Seat(seat)),
                "a determinization changed the seat's view"
            );
            let bot_seed = seed ^ 0x5eed;
            let mut first = common::all_bots::<G>(bot_seed);
            let mut second = common::all_bots::<G>(bot_seed);
            for (a, b) in first.iter_mut().zip(second.iter_mut()) {
                let x = a.choose(&Observer::new(game).expect("running"));
                let y = b.choose(&Observer::new(&other).expect("running"));
                assert_eq!(
                    x,
                    y,
                    "{} chose differently in states seat {seat} cannot tell apart (seed {seed}, position {i})",
                    a.name()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn dropsite_bots_see_only_the_view() {
    check::<dropsite::DropSite>(&dropsite::Config::default(), 0..3, 17);
}

#[test]
fn distopia_bots_see_only_the_view() {
    check::<distopia::Distopia>(&distopia::Config::default(), 0..3, 7);
}

#[test]
fn euphoria_bots_see_only_the_view() {
    check::<euphoria::Euphoria>(&euphoria::Config::default().with_offers(1), 0..2, 97);
}

/// The coach's hint is a function of the asking seat's view: in states that seat cannot
/// tell apart, the same seed and budget give the same advice, byte for byte (its JSON).
fn check_hint<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>, every: usize) {
    let mut checked = 0;
    for seed in seeds {
        for (i, game) in common::positions::<G>(config, seed, every, 5)
            .iter()
            .enumerate()
        {
            let seat = game.to_act().expect("running");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed * 1000 + i as u64);
            let other = game.determinize(seat, &mut rng);
            let options = bots::CoachOptions {
                iterations: 60,
                seed: seed ^ 0xc0ac,
            };
            let hint = bots::hint(game, &options, 3);
            let again = bots::hint(&other, &options, 3);
            assert!(!hint.is_empty(), "a running game has a hint");
            assert_eq!(
                serde_json::to_string(&hint).expect("advice serializes"),
                serde_json::to_string(&again).expect("advice serializes"),
                "{}: hints differ in states seat {seat} cannot tell apart (seed {seed}, position {i})",
                G::NAME
            );
            for a in &hint {
                assert!((0.0..=1.0).contains(&a.chance), "{a:?}");
                assert_eq!(a.place.is_some(), game.seats() > 2, "{a:?}");
                assert!(!a.label.trim().is_empty(), "{a:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn dropsite_hints_see_only_the_view() {
    let config = dropsite::Config {
        players: 3,
        ..dropsite::Config::default()
    };
    check_hint::<dropsite::DropSite>(&config, 0..3, 13);
}

#[test]
fn distopia_hints_see_only_the_view() {
    check_hint::<distopia::Distopia>(&distopia::Config::default(), 0..3, 7);
}

#[test]
fn euphoria_hints_see_only_the_view() {
    check_hint::<euphoria::Euphoria>(&euphoria::Config::default().with_offers(1), 0..2, 61);
}
