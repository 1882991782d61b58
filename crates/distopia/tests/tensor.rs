//! Action indices and observation tensors: the engine's harness, and a seat's own cards.
use crate::common;

use common::{card, game, put, put_won};
use distopia::{Border, Builder, Config, Distopia};
use engine::prelude::*;
use engine::{tensor, Tensor, Viewer};

#[test]
fn harness_basic_and_advanced() {
    for config in [Config::default(), Config::advanced(Border::Coast)] {
        let s = tensor::check::<Distopia>(&config, 6, 0);
        assert!(s.steps > 100, "{config:?}: {s:?}");
        assert!(s.distinguished > 100, "{config:?}: {s:?}");
    }
}

/// Seat 0 has won `won`; a few cards lie in the districts.
fn position(won: &str) -> Distopia {
    let mut s = Builder::empty();
    put(&mut s, 0, vec![card("board game")]);
    put(&mut s, 5, vec![card("yo-yo")]);
    put_won(&mut s, 0, vec![card(won)]);
    game(s)
}

#[test]
fn a_won_pile_shows_to_its_owner_only() {
    let a = position("kite");
    let b = position("paint set");
    // Two different won piles for seat 0: two different tensors for seat 0 ...
    assert_ne!(
        a.observation(Viewer::Seat(0)),
        b.observation(Viewer::Seat(0))
    );
    // ... and the same one for seat 1, who sees only how many cards seat 0 won.
    assert_eq!(
        a.observation(Viewer::Seat(1)),
        b.observation(Viewer::Seat(1))
    );
    let mut rng = engine::rng_from_seed(9);
    for _ in 0..20 {
        assert_eq!(
            a.determinize(1, &mut rng).observation(Viewer::Seat(1)),
            a.observation(Viewer::Seat(1))
        );
        assert_eq!(
            a.determinize(0, &mut rng).observation(Viewer::Seat(0)),
            a.observation(Viewer::Seat(0))
        );
    }
}
