//! How good a position looks for a seat, for bots that stop searching before the end.
use crate::action::Action;
use crate::state::Distopia;
use engine::{Search, Seat};
use rand::Rng;

/// How much of an exposed card's value the evaluation counts as already moved.
const EXPOSURE: f64 = 0.5;

impl Distopia {
    /// The provisional score difference, squashed into [0, 1]; a finished game gives its
    /// reward.
    pub(crate) fn estimate(&self, seat: Seat) -> f64 {
        if let Some(outcome) = engine::GameRules::outcome(self) {
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

impl Search for Distopia {
    fn position_key(&self) -> Option<engine::PositionKey> {
        self.key()
    }
    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        self.resample(seat, rng)
    }
    fn rounds(&self) -> u32 {
        self.turns
    }
    fn holdings(&self, seat: Seat, moment: engine::Moment) -> Vec<engine::Holding> {
        self.held(seat, moment)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.estimate(seat)
    }
    /// Mid-turn moves may be taken back, the move that ends the turn may not (ruling X14).
    fn may_take_back(&self, action: Action) -> bool {
        self.may_take_back_action(action)
    }
}
