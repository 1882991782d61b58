use dropsite::{Config, DropSite};
use engine::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
fn main() {
    for players in 2..=4 {
        let mut g = DropSite::new(
            &Config {
                players,
                target: 10_000,
                ..Config::default()
            },
            1,
        )
        .unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut legal = Vec::new();
        while g.rounds() < 500 {
            g.legal_actions(&mut legal);
            g.apply(*legal.choose(&mut rng).unwrap()).unwrap();
        }
        let per: Vec<f64> = g.totals().iter().map(|&t| t as f64 / 500.0).collect();
        let debt: f64 = g
            .history()
            .iter()
            .map(|r| r.debts.iter().map(|d| d.len()).sum::<usize>() as f64)
            .sum::<f64>()
            / 500.0;
        println!("{players}p: per-round {per:?} debt cards/round {debt}");
    }
}
