//! Action indices and observation tensors: the engine's harness, and a seat's own cards.
use crate::common;
use common::config;

use dropsite::{Config, DropSite};
use engine::prelude::*;
use engine::{tensor, Tensor, Viewer};
use rand::SeedableRng;

#[test]
fn harness_on_every_table_size() {
    for players in 2..=4 {
        let s = tensor::check::<DropSite>(&config(players), 3, 0);
        assert!(s.steps > 100, "{players} players: {} steps", s.steps);
        assert!(s.distinguished > 100, "{players} players: {s:?}");
    }
    let open = Config {
        open_debt: true,
        ..config(3)
    };
    tensor::check::<DropSite>(&open, 2, 10);
}

#[test]
fn a_seat_sees_its_hand_and_not_the_others() {
    let a = common::no_debts([&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10]], &[&[9]], &[]);
    let b = common::no_debts([&[1, 2, 3, 4, 6], &[5, 7, 8, 9, 10]], &[&[9]], &[]);
    // Two different hands for seat 0: two different tensors for seat 0 ...
    assert_ne!(
        a.observation(Viewer::Seat(0)),
        b.observation(Viewer::Seat(0))
    );
    // ... and for seat 1, whose hand differs too.
    assert_ne!(
        a.observation(Viewer::Seat(1)),
        b.observation(Viewer::Seat(1))
    );
    // Seat 1's tensor is the same whatever seat 0's hand and the deck hold.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        assert_eq!(
            a.determinize(1, &mut rng).observation(Viewer::Seat(1)),
            a.observation(Viewer::Seat(1))
        );
    }
}

#[test]
fn a_debt_shows_only_to_its_owner_and_only_with_open_debt() {
    for open_debt in [false, true] {
        let config = Config {
            open_debt,
            ..config(2)
        };
        let hands: &[&[u8]] = &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10]];
        let piles: &[&[u8]] = &[&[9]];
        let a = common::position_with(config.clone(), 0, hands, &[&[11], &[]], piles, &[]);
        let b = common::position_with(config, 0, hands, &[&[12], &[]], piles, &[]);
        assert_eq!(
            a.observation(Viewer::Seat(0)) != b.observation(Viewer::Seat(0)),
            open_debt
        );
        assert_eq!(
            a.observation(Viewer::Seat(1)),
            b.observation(Viewer::Seat(1))
        );
    }
}
