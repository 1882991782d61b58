//! Perfect-information Monte Carlo (PIMC): sample the hidden cards, search each sample as
//! if every card were seen, and let the samples vote.
use crate::ismcts::{add_stats, most_visited, search, Stop, Tree, Worlds};
use crate::{Bot, Budget, IsmctsOptions, Observer};
use engine::derive_seed;
use engine::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Options of the [`PimcBot`].
#[derive(Clone, Debug, PartialEq)]
pub struct PimcOptions {
    /// Determinizations searched a decision, one after another.
    pub determinizations: u32,
    /// The search of one determinization: its budget is per determinization; its
    /// exploration constant and playout as for [`crate::IsmctsBot`]; its time cap, if
    /// any, bounds the whole decision (determinizations not begun by then are skipped);
    /// `trees` is ignored.
    pub search: IsmctsOptions,
}

impl Default for PimcOptions {
    /// 10 determinizations of 100 iterations: 1,000 in all, as `medium`.
    fn default() -> Self {
        PimcOptions {
            determinizations: 10,
            search: IsmctsOptions::default().with_budget(Budget::Iterations(100)),
        }
    }
}

impl PimcOptions {
    /// Sets [`PimcOptions::determinizations`] (at least 1).
    pub fn with_determinizations(mut self, n: u32) -> Self {
        self.determinizations = n.max(1);
        self
    }
    /// Sets [`PimcOptions::search`].
    pub fn with_search(mut self, search: IsmctsOptions) -> Self {
        self.search = search;
        self
    }
    /// Iterations a decision when no time cap cuts it short (`None` for a time budget).
    pub fn iterations(&self) -> Option<u64> {
        match self.search.budget {
            Budget::Iterations(n) => Some(u64::from(n) * u64::from(self.determinizations)),
            Budget::Millis(_) => None,
        }
    }
}

/// Perfect-information Monte Carlo (Ginsberg's GIB; Long et al. 2010): for each of a few
/// determinizations of what the seat knows (each from its own seed), a plain UCT search of
/// that one world, every card in it seen by every seat; the root visits are summed over the
/// determinizations and the most visited legal action is played (the mean reward breaks
/// ties; a deal only when it beats the best other move by [`crate::deals::DEAL_MARGIN`]).
///
/// A yardstick beside [`crate::IsmctsBot`]: the same playouts and evaluation, the same
/// iterations, only the handling of hidden information differs (PIMC's searches assume
/// the opponents know the cards and plan for one world at a time).
pub struct PimcBot<G: Game> {
    options: PimcOptions,
    name: String,
    rng: ChaCha8Rng,
    tree: Tree<G::Action>,
    legal: Vec<G::Action>,
}

impl<G: Game> PimcBot<G> {
    /// A bot with default options.
    pub fn new(seed: u64) -> Self {
        Self::named("pimc".into(), PimcOptions::default(), seed)
    }

    /// A bot with the given options, named for tables and logs.
    pub fn named(name: String, options: PimcOptions, seed: u64) -> Self {
        PimcBot {
            options,
            name,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tree: Tree::new(),
            legal: Vec::new(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &PimcOptions {
        &self.options
    }

    /// Searches every determinization and returns each root action with its visits and
    /// total reward, summed over them (for analysis and tests).
    pub fn analyse(&mut self, observer: &Observer<'_, G>) -> Vec<(G::Action, u32, f64)> {
        let base = self.rng.random::<u64>();
        let start = Instant::now();
        let deadline = self.options.search.time_cap.map(|cap| start + cap);
        let mut votes = Vec::new();
        for d in 0..u64::from(self.options.determinizations.max(1)) {
            if d > 0 && deadline.is_some_and(|end| Instant::now() >= end) {
                break;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(base, d));
            let world = observer.determinize(&mut rng);
            let own = Stop::of(&self.options.search, Instant::now());
            let stop = Stop {
                deadline: match (own.deadline, deadline) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                },
                ..own
            };
            let worlds = Worlds::Fixed(&world);
            let options = &self.options.search;
            search::<G, false>(&mut self.tree, observer, worlds, options, stop, &mut rng);
            add_stats(&mut votes, self.tree.root_stats());
        }
        votes
    }
}

impl<G: Game> Bot<G> for PimcBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action> {
        observer.legal_actions(&mut self.legal);
        if self.legal.len() <= 1 {
            return self.legal.first().copied();
        }
        let votes = self.analyse(observer);
        most_visited(observer, &self.legal, &votes)
    }
}
