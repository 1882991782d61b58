//! Plays one random game and prints the board after a number of actions (debugging aid).
//!
//! `cargo run -p euphoria --example debug_seed -- PLAYERS SEED STEPS`

use engine::prelude::*;
use engine::{rng_from_seed, Viewer};
use euphoria::{Config, Euphoria};
use rand::seq::IndexedRandom;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (players, seed, steps) = match args.as_slice() {
        [p, s, n] => (*p as usize, *s, *n),
        _ => (4, 0, 1000),
    };
    let Ok(mut game) = Euphoria::new(&Config::players(players), seed) else {
        return;
    };
    let mut rng = rng_from_seed(seed.wrapping_mul(31) + 5);
    let mut legal = Vec::new();
    for _ in 0..steps {
        if game.to_act().is_none() {
            break;
        }
        game.legal_actions(&mut legal);
        let Some(&a) = legal.choose(&mut rng) else {
            break;
        };
        if game.apply(a).is_err() {
            break;
        }
    }
    println!("{}", game.view(Viewer::Spectator));
}
