//! A bot never reads hidden information: two states its seat cannot tell apart (the
//! second a determinization of the first from that seat) get the same action from bots
//! with the same seed.
use crate::common;

use bots::Observer;
use engine::prelude::*;
use engine::Viewer;
use rand::SeedableRng;

/// Two states the seat to act cannot tell apart: a position of a seeded random game and a
/// determinization of it from that seat's view.
struct Twins<G> {
    seed: u64,
    /// Which position of the game.
    i: usize,
    seat: usize,
    game: G,
    other: G,
}

/// For each seed, positions of a random game (one every `every` actions, at most `max`),
/// each with its twin; `salt` seeds the determinizations (`seed * salt + i`).
fn twins<G: Game>(
    config: &G::Config,
    seeds: std::ops::Range<u64>,
    every: usize,
    max: usize,
    salt: u64,
) -> Vec<Twins<G>> {
    let mut out = Vec::new();
    for seed in seeds {
        for (i, game) in common::positions::<G>(config, seed, every, max)
            .into_iter()
            .enumerate()
        {
            let seat = game.to_act().expect("running");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed * salt + i as u64);
            let other = game.determinize(seat, &mut rng);
            out.push(Twins {
                seed,
                i,
                seat,
                game,
                other,
            });
        }
    }
    assert!(!out.is_empty());
    out
}

fn check<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>, every: usize) {
    let mut checked = 0;
    for t in twins::<G>(config, seeds, every, 6, 100) {
        let (seed, i, seat) = (t.seed, t.i, t.seat);
        assert_eq!(
            t.game.view(Viewer::Seat(seat)),
            t.other.view(Viewer::Seat(seat)),
            "a determinization changed the seat's view"
        );
        let bot_seed = seed ^ 0x5eed;
        let mut first = common::all_bots::<G>(bot_seed);
        let mut second = common::all_bots::<G>(bot_seed);
        for (a, b) in first.iter_mut().zip(second.iter_mut()) {
            let x = a.choose(&Observer::new(&t.game).expect("running"));
            let y = b.choose(&Observer::new(&t.other).expect("running"));
            assert_eq!(
                x,
                y,
                "{} chose differently in states seat {seat} cannot tell apart (seed {seed}, position {i})",
                a.name()
            );
            checked += 1;
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
    for t in twins::<G>(config, seeds, every, 5, 1000) {
        let (seed, i, seat) = (t.seed, t.i, t.seat);
        let options = bots::CoachOptions {
            iterations: 60,
            seed: seed ^ 0xc0ac,
        };
        let hint = bots::hint(&t.game, &options, 3);
        let again = bots::hint(&t.other, &options, 3);
        assert!(!hint.is_empty(), "a running game has a hint");
        assert_eq!(
            serde_json::to_string(&hint).expect("advice serializes"),
            serde_json::to_string(&again).expect("advice serializes"),
            "{}: hints differ in states seat {seat} cannot tell apart (seed {seed}, position {i})",
            G::NAME
        );
        for a in &hint {
            assert!((0.0..=1.0).contains(&a.chance), "{a:?}");
            assert_eq!(a.place.is_some(), t.game.seats() > 2, "{a:?}");
            assert!(!a.label.trim().is_empty(), "{a:?}");
        }
    }
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
