//! The guard every bot plays behind: no going round in circles within its own turn.
//!
//! Within its own turn a bot does not choose, at a position it has already chosen at in
//! that turn, the action it chose there before, while another action exists; and it opens
//! at most one proposal (a trade offer) to each other seat a turn. Positions are told
//! apart by [`engine::Search::position_key`], which leaves out counters that only count, so
//! opening an offer and dropping it (or having it declined) comes back to the same
//! position, and the bot then does something else there. A seat answering another's
//! offer is not in its own turn: it answers on the merits, declining included.
//!
//! The guard knows no game: it needs only the position key and [`engine::Search::proposal_to`].
use crate::{Bot, Observer};
use engine::prelude::*;
use engine::{KeyHasher, Seat};
use std::hash::{Hash, Hasher};

/// What a bot remembers of its own turn: the (position, action) pairs it chose and the
/// seats it proposed to. Forgotten when a new turn begins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnMemory {
    /// The turn remembered: its number and whose it is.
    turn: Option<(u64, Seat)>,
    /// (position key, action hash) of every choice made in the turn.
    chosen: Vec<(u64, u64)>,
    /// Seats proposed to in the turn, a bit each.
    proposed: u64,
}

impl TurnMemory {
    fn seat_bit(seat: Seat) -> u64 {
        1u64.checked_shl(seat as u32).unwrap_or(0)
    }
}

fn action_hash<A: Hash>(action: &A) -> u64 {
    let mut h = KeyHasher::default();
    action.hash(&mut h);
    Hasher::finish(&h)
}

/// A bot behind the guard (see the module's text). [`crate::make_bot`] gives every bot
/// this way.
pub struct Guarded<G: Game> {
    inner: Box<dyn Bot<G>>,
    memory: TurnMemory,
    legal: Vec<G::Action>,
    avoid: Vec<G::Action>,
}

impl<G: Game> Guarded<G> {
    /// `inner` behind the guard, remembering nothing yet.
    pub fn new(inner: Box<dyn Bot<G>>) -> Self {
        Guarded {
            inner,
            memory: TurnMemory::default(),
            legal: Vec::new(),
            avoid: Vec::new(),
        }
    }

    /// What the bot remembers of its turn.
    pub fn memory(&self) -> &TurnMemory {
        &self.memory
    }

    /// Gives the bot back what it remembered of its turn.
    pub fn remember(&mut self, memory: TurnMemory) {
        self.memory = memory;
    }
}

impl<G: Game> Bot<G> for Guarded<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action> {
        let seat = observer.seat();
        let key = match observer.position_key() {
            Some(key) if key.owner == seat => key,
            // Not its own turn (answering an offer), or a game with no key: on the merits.
            _ => return self.inner.choose(observer),
        };
        if self.memory.turn != Some((key.turn, key.owner)) {
            self.memory.turn = Some((key.turn, key.owner));
            self.memory.chosen.clear();
            self.memory.proposed = 0;
        }
        observer.legal_actions(&mut self.legal);
        self.avoid.clear();
        for &a in &self.legal {
            let again = self
                .memory
                .chosen
                .contains(&(key.position, action_hash(&a)));
            let proposed = observer
                .proposal_to(a)
                .is_some_and(|to| self.memory.proposed & TurnMemory::seat_bit(to) != 0);
            if again || proposed {
                self.avoid.push(a);
            }
        }
        if self.avoid.len() == self.legal.len() {
            // Every action was tried here: the game must go on, so any may be chosen.
            self.avoid.clear();
        }
        let choice = self.inner.choose(&observer.avoiding(&self.avoid))?;
        self.memory
            .chosen
            .push((key.position, action_hash(&choice)));
        if let Some(to) = observer.proposal_to(choice) {
            self.memory.proposed |= TurnMemory::seat_bit(to);
        }
        Some(choice)
    }
}
