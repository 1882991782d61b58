//! The end explained: random games to their end and resignations along the way. Each
//! seat's lines (stars by where they stand) add up to its score, the outcome's.
use engine::prelude::*;
use engine::{rng_from_seed, Names, Session};
use euphoria::{Config, Euphoria};
use rand::seq::IndexedRandom;

const STEP_CAP: usize = 200_000;

/// A random game of `players` to its end, checking there is no ending before it; then
/// the ending, and sessions where all but the seat to act resigned at a few points.
fn check(players: usize, seed: u64) {
    let config = Config::players(players).with_offers(2);
    let mut game = Euphoria::new(&config, seed).expect("a valid config");
    let mut rng = rng_from_seed(seed);
    let mut legal = Vec::new();
    let mut resigns = 0;
    for step in 0..STEP_CAP {
        if game.to_act().is_none() {
            break;
        }
        assert_eq!(game.ending(&Names::default()), None, "step {step}");
        if step % 97 == 0 {
            resigned(&game);
            resigns += 1;
        }
        game.legal_actions(&mut legal);
        let action = *legal.choose(&mut rng).expect("an action");
        game.apply(action).expect("legal");
    }
    let outcome = game.outcome().expect("the game ended");
    let ending = game.ending(&Names::default()).expect("an ending");
    assert_eq!(ending.check(&outcome), Ok(()), "seed {seed}");
    assert!(ending.why.contains("authority star"), "{}", ending.why);
    for (seat, score) in ending.seats.iter().enumerate() {
        let left = i64::from(game.player(seat).stars_left);
        assert_eq!(score.total, i64::from(euphoria::cards::STARS) - left);
    }
    assert!(resigns > 0);
}

fn resigned(game: &Euphoria) {
    let stays = game.to_act().expect("in play");
    let mut session = Session::new(Box::new(game.clone()));
    for seat in (0..game.seats()).filter(|&s| s != stays) {
        session.resign(seat).expect("in play");
    }
    let outcome = session.outcome().expect("everyone else resigned");
    let ending = session.ending(&Names::default()).expect("over");
    assert_eq!(ending.check(&outcome), Ok(()));
    // The stars on the board stand: each seat keeps the stars it placed.
    for (seat, &score) in outcome.scores.iter().enumerate() {
        let left = i64::from(game.player(seat).stars_left);
        assert_eq!(score, i64::from(euphoria::cards::STARS) - left);
    }
    assert!(ending.why.contains("resigned"), "{}", ending.why);
}

#[test]
fn random_games_explain_their_end_and_resignations() {
    for (players, seed) in [(2, 1), (2, 2), (3, 3), (4, 4), (6, 5)] {
        check(players, seed);
    }
}
