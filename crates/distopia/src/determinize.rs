//! Determinization: what a seat cannot see, dealt again at random.
use crate::cards::Card;
use crate::state::{Distopia, Phase};
use engine::Seat;
use rand::seq::SliceRandom;
use rand::Rng;

impl Distopia {
    /// Everything `seat` cannot see, dealt again: the deck's order, and the opponent's won
    /// pile (contraband only) swapped with the deck's contraband until the game is over.
    pub(crate) fn resample<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Distopia {
        let mut game = self.clone();
        let opp = 1 - seat % 2;
        // Once over, the won piles have been turned up; only the deck stays unknown.
        let hidden_won = self.phase != Phase::Over;
        if hidden_won {
            // Won piles hold only contraband, so only the deck's contraband can swap with
            // them; the deck keeps its number of guards.
            let mut pool: Vec<Card> = self
                .deck
                .iter()
                .copied()
                .filter(|c| !c.is_guard())
                .collect();
            pool.extend_from_slice(&self.won[opp]);
            pool.sort_unstable();
            pool.shuffle(rng);
            let won = pool.split_off(pool.len() - self.won[opp].len());
            pool.extend(self.deck.iter().copied().filter(|c| c.is_guard()));
            game.deck = pool;
            game.won[opp] = won;
            game.locate_cards();
        }
        // Sorted first so the sample depends only on what `seat` sees, not on the hidden
        // order.
        game.deck.sort_unstable();
        game.deck.shuffle(rng);
        game.rng = engine::rng_from_seed(rng.random());
        game
    }
}
