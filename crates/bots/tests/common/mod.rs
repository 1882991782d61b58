//! Bots and positions shared by the bot tests.
#![allow(dead_code)]
use bots::{Bot, Budget, HeuristicBot, HeuristicOptions, IsmctsBot, IsmctsOptions};
use bots::{PimcBot, PimcOptions, RandomBot};
use engine::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

/// Every kind of bot, with budgets small enough for debug tests.
pub fn all_bots<G: Game>(seed: u64) -> Vec<Box<dyn Bot<G>>> {
    vec![
        Box::new(RandomBot::<G::Action>::new(seed)),
        Box::new(HeuristicBot::<G>::with_options(
            HeuristicOptions::default().with_determinizations(2),
            seed,
        )),
        Box::new(IsmctsBot::<G>::with_options(
            IsmctsOptions::default().with_budget(Budget::Iterations(40)),
            seed,
        )),
        Box::new(IsmctsBot::<G>::with_options(
            IsmctsOptions::default()
                .with_budget(Budget::Iterations(20))
                .with_trees(2),
            seed,
        )),
        Box::new(PimcBot::<G>::named(
            "pimc:3x10".into(),
            PimcOptions::default()
                .with_determinizations(3)
                .with_search(IsmctsOptions::default().with_budget(Budget::Iterations(10))),
            seed,
        )),
    ]
}

/// Positions along a seeded random game: one every `every` actions, at most `max`.
pub fn positions<G: Game>(config: &G::Config, seed: u64, every: usize, max: usize) -> Vec<G> {
    let mut game = G::new(config, seed).expect("valid config");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut out = Vec::new();
    for step in 0.. {
        if game.to_act().is_none() || out.len() >= max {
            break;
        }
        if step % every == 0 {
            out.push(game.clone());
        }
        game.legal_actions(&mut legal);
        let a = *legal
            .choose(&mut rng)
            .expect("a running game has a legal action");
        game.apply(a).expect("legal");
    }
    out
}
