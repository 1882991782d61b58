//! How good a position looks for a seat, for bots that stop searching before the end.
use crate::state::Distopia;
use engine::Seat;

/// How much of an exposed card's value the evaluation counts as already moved.
const EXPOSURE: f64 = 0.5;

impl Distopia {
    /// The provisional score difference, squashed into [0, 1]; a finished game gives its
    /// reward.
    pub(crate) fn estimate(&self, seat: Seat) -> f64 {
        if let Some(outcome) = engine::Game::outcome(self) {
            return outcome.reward(seat);
        }
        // The provisional score difference, squashed into [0, 1]; 30 points is a rout.
        // Cards above the limit of an unguarded district are half lost already: the other
        // player takes them with one card (see `exposed`).
        let (me, opp) = (seat % 2, 1 - seat % 2);
        let [mine_at_risk, theirs_to_take] = self.exposed(me);
        let [theirs_at_risk, mine_to_take] = self.exposed(opp);
        let swing = (mine_to_take + theirs_at_risk - mine_at_risk - theirs_to_take) as f64;
        let totals = self.totals();
        let diff = (totals[me] - totals[opp]) as f64 + EXPOSURE * swing;
        (0.5 + diff / 60.0).clamp(0.0, 1.0)
    }
}
