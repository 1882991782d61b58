//! How good a position looks for a seat, for bots that stop searching before the end.
use crate::rules::score_round;
use crate::state::DropSite;
use engine::Seat;

impl DropSite {
    /// The seat's totals plus what the debts would score if the round ended now, as a
    /// margin over the best other seat, squashed into (0, 1). A finished game gives its
    /// reward.
    pub(crate) fn estimate(&self, seat: Seat) -> f64 {
        if let Some(o) = engine::Game::outcome(self) {
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
