use crate::{Bot, Observer};
use engine::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal action. `A` is the game's action type; the bot keeps
/// its action buffer between moves so a playout does not allocate.
pub struct RandomBot<A> {
    rng: ChaCha8Rng,
    legal: Vec<A>,
}

impl<A: Copy> RandomBot<A> {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            legal: Vec::new(),
        }
    }

    /// A random legal action of `game` (for playouts, which own the whole state).
    pub fn pick<G: Game<Action = A>>(&mut self, game: &G) -> Option<A> {
        game.legal_actions(&mut self.legal);
        self.legal.choose(&mut self.rng).copied()
    }
}

impl<G: Game> Bot<G> for RandomBot<G::Action> {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action> {
        observer.legal_actions(&mut self.legal);
        self.legal.choose(&mut self.rng).copied()
    }
}
