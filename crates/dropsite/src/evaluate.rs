//! How good a position looks for a seat, for bots that stop searching before the end.
use crate::action::Action;
use crate::rules::score_round;
use crate::state::DropSite;
use engine::{Search, Seat};

impl DropSite {
    /// The seat's totals plus what the debts would score if the round ended now, as a
    /// margin over the best other seat, squashed into (0, 1). A finished game gives its
    /// reward.
    pub(crate) fn estimate(&self, seat: Seat) -> f64 {
        if let Some(o) = engine::GameRules::outcome(self) {
            return o.reward(seat);
        }
        let provisional = score_round(&self.config.deck, &self.piles, &self.debts);
        let mine = self.totals[seat] + provisional[seat];
        let best_other = (0..self.config.players)
            .filter(|&s| s != seat)
            .map(|s| self.totals[s] + provisional[s])
            .max()
            .unwrap_or(0);
        let margin = (mine - best_other) as f64 / 20.0;
        1.0 / (1.0 + (-margin).exp())
    }
}

impl Search for DropSite {
    fn position_key(&self) -> Option<engine::PositionKey> {
        self.key()
    }
    /// Nothing can be taken back in Drop Site (ruling S23): every action ends with a card
    /// drawn from the deck, so it is the engine's default, stated here on purpose.
    fn may_take_back(&self, _action: Action) -> bool {
        false
    }
    fn determinize<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        self.resample(seat, rng)
    }
    fn rounds(&self) -> u32 {
        self.history.len() as u32
    }
    fn holdings(&self, seat: Seat, moment: engine::Moment) -> Vec<engine::Holding> {
        self.held(seat, moment)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.estimate(seat)
    }
}
