//! MCTS iterations per second for each game: `cargo bench -p bots --bench mcts`.
//! Criterion reports the throughput in elements/s, one element being one iteration.
use bots::{Budget, IsmctsBot, IsmctsOptions, Observer};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use engine::prelude::*;
use rand::SeedableRng;
use std::hint::black_box;

const ITERATIONS: u32 = 1000;

/// A position `steps` random actions into a seeded game, so the search starts mid-game.
fn midgame<G: Game>(config: &G::Config, steps: usize) -> G {
    let mut game = G::new(config, 42).expect("the default config is valid");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    engine::testkit::play_randomly(&mut game, &mut rng, steps);
    game
}

fn bench_game<G: Game>(c: &mut Criterion, config: &G::Config, steps: usize) {
    let game = midgame::<G>(config, steps);
    let mut group = c.benchmark_group("ismcts");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(10);
    // The default playout (to the end of the turn) and a longer one of 64 random moves.
    for (label, turns, depth) in [("turn", Some(0), Some(32)), ("moves64", None, Some(64))] {
        let options = IsmctsOptions::default()
            .with_budget(Budget::Iterations(ITERATIONS))
            .with_playout_turns(turns)
            .with_playout_depth(depth);
        let mut bot = IsmctsBot::<G>::with_options(options, 1);
        group.bench_function(BenchmarkId::new(G::NAME, label), |b| {
            b.iter(|| {
                let observer = Observer::new(&game).expect("the game is running");
                black_box(bot.analyse(&observer))
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<dropsite::DropSite>(c, &dropsite::Config::default(), 10);
    bench_game::<distopia::Distopia>(c, &distopia::Config::default(), 10);
    bench_game::<euphoria::Euphoria>(c, &euphoria::Config::default().with_offers(1), 200);
}

criterion_group!(mcts, benches);
criterion_main!(mcts);
