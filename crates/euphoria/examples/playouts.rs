//! Random playouts: games per second and average game length.
//!
//! `cargo run --release -p euphoria --example playouts -- [games] [players] [v1|v2]`

use engine::prelude::*;
use engine::rng_from_seed;
use engine::testkit::play_randomly;
use euphoria::{Config, Edition, Euphoria};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let edition = match args.next().as_deref() {
        Some("v1") => Edition::V1,
        _ => Edition::V2,
    };
    let config = Config {
        edition,
        ..Config::players(players)
    };
    let start = Instant::now();
    let mut actions = 0u64;
    let mut turns = 0u64;
    let mut longest = 0u64;
    for seed in 0..games {
        let Ok(mut game) = Euphoria::new(&config, seed) else {
            eprintln!("bad config");
            return;
        };
        let mut rng = rng_from_seed(seed ^ 0x5EED);
        let n = play_randomly(&mut game, &mut rng, usize::MAX) as u64;
        actions += n;
        turns += game.turns() as u64;
        longest = longest.max(n);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {players} players, {edition:?}: {:.1} games/s, {:.1} actions/game (longest {longest}), {:.1} turns/game",
        games as f64 / secs,
        actions as f64 / games as f64,
        turns as f64 / games as f64
    );
}
