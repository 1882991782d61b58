//! Random games over many seeds, checking invariants; prints the first failure (debugging aid).
//!
//! `cargo run --release -p euphoria --example fuzz -- PLAYERS GAMES [v1]`

use engine::prelude::*;
use engine::rng_from_seed;
use euphoria::{Config, Edition, Euphoria};
use rand::seq::IndexedRandom;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let edition = if args.get(2).is_some_and(|a| a == "v1") {
        Edition::V1
    } else {
        Edition::V2
    };
    let config = Config {
        edition,
        ..Config::players(players)
    };
    let mut legal = Vec::new();
    for seed in 0..games {
        let Ok(mut game) = Euphoria::new(&config, seed) else {
            return;
        };
        let mut rng = rng_from_seed(seed ^ 0xF00D);
        let mut n = 0u64;
        while game.to_act().is_some() {
            game.legal_actions(&mut legal);
            let Some(&a) = legal.choose(&mut rng) else {
                println!(
                    "seed {seed} step {n}: no legal action; stack {:?}",
                    game.stack()
                );
                println!("{}", game.view(engine::Viewer::Spectator));
                return;
            };
            let before = game.clone();
            if let Err(e) = game.apply(a) {
                println!("seed {seed} step {n}: {e}");
                return;
            }
            if let Err(p) = game.validate() {
                println!(
                    "seed {seed} step {n} after `{a}`: {p:?}\nstack before {:?}",
                    before.stack()
                );
                return;
            }
            n += 1;
            if n > 2_000_000 {
                println!("seed {seed}: move cap");
                return;
            }
        }
    }
    println!("{games} games fine");
}
