//! Random playouts per second: `cargo run --release -p distopia --example playouts`.
use distopia::{Border, Config, Distopia};
use engine::Game;
use rand::seq::IndexedRandom;
use std::time::Instant;

fn main() {
    for advanced in [false, true] {
        for border in Border::all() {
            let config = Config {
                border,
                advanced,
                ..Config::default()
            };
            let mut rng = engine::rng_from_seed(7);
            let mut legal = Vec::new();
            let games = 20_000u64;
            let mut actions = 0u64;
            let start = Instant::now();
            for seed in 0..games {
                let Ok(mut game) = Distopia::new(&config, seed) else {
                    eprintln!("bad config {config:?}");
                    return;
                };
                while game.to_act().is_some() {
                    game.legal_actions(&mut legal);
                    let Some(&a) = legal.choose(&mut rng) else {
                        break;
                    };
                    if game.apply(a).is_err() {
                        break;
                    }
                    actions += 1;
                }
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{border:9} advanced={advanced:5}: {:>8.0} playouts/s, {:.1} actions/game",
                games as f64 / secs,
                actions as f64 / games as f64
            );
        }
    }
}
