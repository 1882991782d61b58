//! Determinization: what a seat cannot see, dealt again at random.
use crate::state::DropSite;
use engine::Seat;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

impl DropSite {
    /// Everything `seat` cannot see, shuffled back into the same places (S11: nobody sees
    /// a debt during the round, unless `open_debt` shows the owner their own).
    pub(crate) fn resample<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> DropSite {
        let mut game = self.clone();
        let mut unseen: Vec<u8> = game.deck.clone();
        for s in 0..game.config.players {
            if s != seat {
                unseen.extend_from_slice(&game.hands[s]);
            }
            if s != seat || !game.config.open_debt {
                unseen.extend_from_slice(&game.debts[s]);
            }
        }
        // Sorted first so the sample depends only on what `seat` sees, not on where the
        // hidden cards happen to lie.
        unseen.sort_unstable();
        unseen.shuffle(rng);
        let mut rest = unseen.into_iter();
        let mut refill = |slot: &mut Vec<u8>| {
            for c in slot.iter_mut() {
                *c = rest.next().unwrap_or(0);
            }
        };
        refill(&mut game.deck);
        for s in 0..game.config.players {
            if s != seat {
                refill(&mut game.hands[s]);
                game.hands[s].sort_unstable();
            }
            if s != seat || !game.config.open_debt {
                refill(&mut game.debts[s]);
            }
        }
        game.rng = engine::GameRng::seed_from_u64(rng.next_u64());
        game
    }
}
