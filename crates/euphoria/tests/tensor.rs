//! Action indices and observation tensors: the engine's harness, and a seat's own cards.
use engine::prelude::*;
use engine::{tensor, Tensor, Viewer};
use euphoria::{Config, Euphoria};

#[test]
fn harness_on_two_and_four_seats() {
    for players in [2, 4] {
        let s = tensor::check::<Euphoria>(&Config::players(players), 2, 0);
        assert!(s.steps > 100, "{players} players: {s:?}");
        assert!(s.distinguished > 100, "{players} players: {s:?}");
    }
}

/// A game a few dozen random actions in, so that hands and recruits are dealt.
fn midgame(players: usize, seed: u64) -> Euphoria {
    let mut game = Euphoria::new(&Config::players(players), seed).expect("valid");
    let mut rng = engine::rng_from_seed(seed);
    let mut legal = Vec::new();
    for _ in 0..60 {
        game.legal_actions(&mut legal);
        let Some(&action) = rand::seq::IndexedRandom::choose(legal.as_slice(), &mut rng) else {
            break;
        };
        game.apply(action).expect("legal");
    }
    game
}

#[test]
fn a_seat_sees_its_own_cards_and_not_the_others() {
    let game = midgame(3, 4);
    let mut rng = engine::rng_from_seed(1);
    let mut different_hands = 0;
    for _ in 0..30 {
        // Seat 1 cannot see seat 0's cards: resampled for seat 1, seat 0 may hold others.
        let other = game.determinize(1, &mut rng);
        assert_eq!(
            other.observation(Viewer::Seat(1)),
            game.observation(Viewer::Seat(1))
        );
        let mine = |g: &Euphoria| {
            let v = g.view(Viewer::Seat(0));
            (
                v.players[0].hand,
                v.players[0].recruits.clone(),
                v.players[0].dilemma,
            )
        };
        if mine(&other) != mine(&game) {
            different_hands += 1;
            assert_ne!(
                other.observation(Viewer::Seat(0)),
                game.observation(Viewer::Seat(0))
            );
        }
    }
    assert!(different_hands > 0, "seat 0's cards never differed");
}
