//! Which decisions may be taken back (undo at the table; rulings in `docs/rulings.md`,
//! "Taking back a move").
//!
//! A decision may be taken back when the turn's player makes it on their own turn and it
//! draws, turns or rolls nothing, shows nothing hidden and involves no one else. By kind,
//! never: keeping a recruit (setup's secret choice, and the next seat chooses), anything
//! of the dilemma (the card is revealed, recruits are drawn), drawing an artifact card,
//! finishing a retrieval (the dice are rolled), anything of a trade (the partner takes
//! part), `end` and `pass` (the turn passes). Every other decision is tried on a copy and
//! qualifies only if afterwards the same seat is to act in the same turn, the random
//! stream, every deck, discard pile and box, the market tiles, every seat's recruits and
//! dilemma and every other seat's whole player are as they were, and no faction was
//! unlocked. So a placement that bumps (a re-roll), completes a market (a tile is
//! turned), unlocks a faction (hidden recruits of it turn up), triggers a knowledge check
//! that rolls, hands a decision to another seat, or is paid with artifact cards (shown on
//! the discard pile) is not taken back; a plain placement, its payment in commodities or
//! resources, a resource taken, a star placed and picking dice to retrieve are.
use crate::action::Action;
use crate::cards::Faction;
use crate::state::Euphoria;
use crate::state::Step;
use engine::prelude::*;

impl Euphoria {
    /// Whether `action`, taken now by the seat to act, may be taken back afterwards.
    pub(crate) fn may_take_back_action(&self, action: Action) -> bool {
        let Some(seat) = self.actor() else {
            return false;
        };
        if !self.setup_done || self.over || seat != self.current as usize {
            return false;
        }
        // Only a placement, and only one that resolves completely (the turn then waits
        // for `end`, a trade or a doubled die): any decision it leads to (a payment, a
        // tunnel's take or draw, a recruit's offer, a star's spot) may depend on what
        // others cannot see.
        if !matches!(action, Action::Place { .. }) {
            return false;
        }
        let mut after = self.clone();
        if GameRules::apply(&mut after, action).is_err() {
            return false;
        }
        let tiles = |g: &Euphoria| g.markets.map(|m| (m.tile, m.built));
        // A faction unlocked (tier 3, a tunnel at 6) turns up every hidden recruit of it;
        // whether any is in someone's hand is hidden, so unlocking is never taken back.
        let unlocked = |g: &Euphoria| Faction::ALL.map(|f| g.unlocked(f));
        let secrets = |g: &Euphoria, s: usize| {
            let p = &g.players[s];
            (p.recruits, p.dealt, p.dilemma, p.dilemma_state)
        };
        after.actor() == Some(seat)
            && matches!(after.stack.last(), Some(Step::Finish | Step::Doubles))
            && !after.over
            && after.current == self.current
            && after.turns == self.turns
            && after.rng == self.rng
            && after.artifact_deck == self.artifact_deck
            && after.artifact_discard == self.artifact_discard
            && after.recruit_deck == self.recruit_deck
            && after.recruit_discard == self.recruit_discard
            && after.recruit_box == self.recruit_box
            && after.dilemma_box == self.dilemma_box
            && after.box_tiles == self.box_tiles
            && tiles(&after) == tiles(self)
            && unlocked(&after) == unlocked(self)
            && after.players[seat].hand == self.players[seat].hand
            && secrets(&after, seat) == secrets(self, seat)
            && (0..self.n())
                .filter(|&s| s != seat)
                .all(|s| after.players[s] == self.players[s])
    }
}
