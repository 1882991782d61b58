//! What bots and studies read: determinization, evaluation, where a turn stands, deals,
//! what may be taken back, what a seat held.
use super::rules::GameRules;
use crate::holding::{Holding, Moment};
use crate::key::{Deal, PositionKey};
use crate::seat::Seat;

/// The hooks search and statistics use; every default is safe (a bot then knows less).
pub trait Search: GameRules {
    /// A state that `seat` cannot tell apart from this one: everything hidden from `seat`
    /// (other hands, face-down piles, deck order, the future random stream) is resampled
    /// consistently with what `seat` sees.
    fn determinize<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self;
    /// A heuristic value of the position for `seat`, higher is better. Bots use it for
    /// look-ahead; the default only knows finished games.
    fn evaluate(&self, seat: Seat) -> f64 {
        match self.outcome() {
            Some(o) => o.reward(seat),
            None => 0.5,
        }
    }
    /// [`Search::evaluate`] for every seat in order, into `out` (emptied first). A game
    /// whose value for one seat compares it with the others may work them all out at
    /// once; the values must be those `evaluate` gives.
    fn evaluate_all(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend((0..self.seats()).map(|s| self.evaluate(s)));
    }
    /// Where the game stands for the seat to act, for bots that must not go round in
    /// circles within a turn (see [`PositionKey`]); `None` once the game is over. Worked
    /// out only from what the seat to act may know: the conformance harness checks that
    /// it stays the same when what that seat cannot see is resampled. The default gives
    /// none, and bots then keep no memory of the turn.
    fn position_key(&self) -> Option<PositionKey> {
        None
    }
    /// What `action`, taken now, does in a deal between seats (a trade offer): nothing,
    /// pursue one (open, build, send or accept it) or drop one (cancel or decline it).
    /// Bots pursue a deal only when their search finds it better than leaving it; the
    /// statistics count both kinds as trading. The default: no action is part of a deal.
    fn deal(&self, action: Self::Action) -> Deal {
        let _ = action;
        Deal::None
    }
    /// Whether `action`, taken now by the seat to act, could be taken back afterwards
    /// (undo, see [`Session`]): it draws, turns, rolls or shuffles nothing (no card drawn
    /// or revealed, no die rolled), shows nothing hidden to anyone, and needs no other
    /// seat's part (an accepted trade, a decision that passes to another seat). An action
    /// that is not legal here cannot be taken back. Answer from what the seat to act may
    /// know: the conformance harness checks that the answer stays the same when what that
    /// seat cannot see is resampled. When in doubt, `false`; the default takes nothing
    /// back.
    fn may_take_back(&self, action: Self::Action) -> bool {
        let _ = action;
        false
    }
    /// The seat that `action`, taken now, opens a proposal to: a deal (a trade offer)
    /// that seat will be asked to answer in this turn. Bots open at most one a turn to
    /// each seat. The default opens none.
    fn proposal_to(&self, action: Self::Action) -> Option<Seat> {
        let _ = action;
        None
    }
    /// What `seat` holds at `moment`, for studies of win rate by what a seat held. A
    /// study asks the new game ([`Moment::Start`]) and the finished one ([`Moment::End`])
    /// and keeps both answers, so a game answers each aspect at the moment it is known
    /// (a first hand at the start, recruits chosen during play at the end). The default
    /// holds nothing.
    fn holdings(&self, seat: Seat, moment: Moment) -> Vec<Holding> {
        let _ = (seat, moment);
        Vec::new()
    }
    /// Rounds played so far (for statistics); games without rounds report 1.
    fn rounds(&self) -> u32 {
        1
    }
}
