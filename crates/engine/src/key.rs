//! Position keys: where a game stands, as the seat to act knows it, in a few words.
//!
//! A bot remembers the keys of the positions it chose at during its own turn, and does not
//! choose the same action at the same position twice in one turn (see the `bots` crate):
//! that is what stops two bots from opening and dropping a trade for ever.
use crate::Seat;
use serde::{Deserialize, Serialize};

/// Where a game stands for the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PositionKey {
    /// Which turn this is: a number that changes whenever a new turn begins (a bot forgets
    /// its memory of the turn when it changes).
    pub turn: u64,
    /// Whose turn it is (the seat to act may be another one, answering an offer).
    pub owner: Seat,
    /// A hash of everything the seat to act sees that decisions can change: the board,
    /// the hands it may see, the decision pending and any open offer; not the counters
    /// that only count (offers made, moves played), so going round a circle comes back to
    /// the same key.
    pub position: u64,
}

/// What an action does in a deal between seats (see [`crate::Search::deal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Deal {
    /// No part of a deal.
    None,
    /// Opens, builds, sends or accepts one.
    Pursue,
    /// Cancels or declines one.
    Drop,
}

impl Deal {
    /// Whether the action is part of a deal at all (trading, for statistics).
    pub fn is_trade(self) -> bool {
        self != Deal::None
    }
}

/// A small, fixed hash for position keys: the same in every build and on every machine
/// (a multiply and a rotation per word, our own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyHasher(u64);

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher(0x243f_6a88_85a3_08d3)
    }
}

impl KeyHasher {
    /// Mixes one word in.
    #[inline]
    pub fn word(&mut self, word: u64) -> &mut Self {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
        self
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        // A last avalanche so that close inputs end far apart.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        KeyHasher::finish(self)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word) ^ (chunk.len() as u64) << 56);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::hash::Hash;

    fn key_of(lists: &[&[u8]]) -> u64 {
        let mut h = KeyHasher::default();
        for list in lists {
            list.hash(&mut h);
        }
        h.finish()
    }

    #[test]
    fn lists_are_closed_by_their_length() {
        // Slices hash their length first, so `[1] [2]` and `[1, 2] []` differ.
        let a = key_of(&[&[1], &[2]]);
        let b = key_of(&[&[1, 2], &[]]);
        assert_ne!(a, b);
        assert_eq!(a, key_of(&[&[1], &[2]]));
    }
}
