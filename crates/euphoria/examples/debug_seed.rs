//! Plays one random game and prints the board after a number of actions (debugging aid).
//!
//! `cargo run -p euphoria --example debug_seed -- PLAYERS SEED STEPS`

use engine::prelude::*;
use engine::{rng_from_seed, Viewer};
use euphoria::{Config, Euphoria};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (players, seed, steps) = match args.as_slice() {
        [p, s, n] => (*p as usize, *s, *n as usize),
        _ => (4, 0, 1000),
    };
    let Ok(mut game) = Euphoria::new(&Config::players(players), seed) else {
        return;
    };
    let mut rng = rng_from_seed(seed.wrapping_mul(31) + 5);
    engine::testkit::play_randomly(&mut game, &mut rng, steps);
    println!("{}", game.view(Viewer::Spectator));
}
