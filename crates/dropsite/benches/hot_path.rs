//! The hot path: legal actions, apply, and a whole random round.
use criterion::{criterion_group, criterion_main, Criterion};
use dropsite::{Config, DropSite};
use engine::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use std::hint::black_box;

fn hot_path(c: &mut Criterion) {
    let game = DropSite::new(&Config::default(), 1).expect("config");
    let mut legal = Vec::with_capacity(64);
    c.bench_function("dropsite legal_actions", |b| {
        b.iter(|| {
            black_box(&game).legal_actions(&mut legal);
            legal.len()
        })
    });
    game.legal_actions(&mut legal);
    let action = legal[0];
    c.bench_function("dropsite clone + apply", |b| {
        b.iter(|| {
            let mut g = black_box(&game).clone();
            g.apply(action).expect("legal");
            g
        })
    });
    for players in [2, 4] {
        let config = Config {
            players,
            max_rounds: 1000,
            target: 10_000,
            ..Config::default()
        };
        let mut g = DropSite::new(&config, 2).expect("config");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        c.bench_function(&format!("dropsite random round, {players} players"), |b| {
            b.iter(|| {
                let start = g.rounds();
                while g.rounds() == start {
                    if g.to_act().is_none() {
                        g = DropSite::new(&config, 2).expect("config");
                        break;
                    }
                    g.legal_actions(&mut legal);
                    let a = *legal.choose(&mut rng).expect("a legal action");
                    g.apply(a).expect("legal");
                }
            })
        });
    }
}

criterion_group!(benches, hot_path);
criterion_main!(benches);
