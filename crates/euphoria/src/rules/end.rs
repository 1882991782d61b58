//! End of the game and the tie-break chain (spec 1.10, 5.11, A-23).

use crate::state::{DieLoc, Euphoria};
use engine::{Outcome, Seat};
use rand::Rng;
use std::cmp::Reverse;

/// Most roll-off rounds before still-tied players share the place.
const ROLLOFF_ROUNDS: usize = 20;

/// The ranking key: stars placed, morale, lower knowledge, stars on markets, lower roll-off
/// totals round by round.
pub type RankKey = (u8, u8, Reverse<u8>, u32, Vec<Reverse<u8>>);

impl Euphoria {
    /// Ends the game: tied winners roll off.
    pub(crate) fn finish(&mut self) {
        self.over = true;
        self.stack.clear();
        let winners: Vec<Seat> = (0..self.n())
            .filter(|&s| self.players[s].stars_left == 0)
            .collect();
        let mut groups: Vec<Vec<Seat>> = Vec::new();
        for &s in &winners {
            let key = self.chain_key(s);
            match groups.iter_mut().find(|g| self.chain_key(g[0]) == key) {
                Some(g) => g.push(s),
                None => groups.push(vec![s]),
            }
        }
        for g in groups {
            self.rolloff_group(g, 0);
        }
    }

    fn chain_key(&self, s: Seat) -> (u8, Reverse<u8>, u32) {
        let p = &self.players[s];
        (p.morale, Reverse(p.knowledge), self.market_stars(s))
    }

    fn ready_dice(&self, s: Seat) -> usize {
        self.players[s]
            .dice
            .iter()
            .filter(|d| matches!(d, DieLoc::Ready(_)))
            .count()
    }

    fn rolloff_group(&mut self, group: Vec<Seat>, round: usize) {
        if group.len() < 2 || round >= ROLLOFF_ROUNDS {
            return;
        }
        // Players without available dice total 0 every round: rolling again cannot part them.
        if group.iter().all(|&s| self.ready_dice(s) == 0) {
            return;
        }
        let mut totals = Vec::new();
        for &s in &group {
            let total: u8 = (0..self.ready_dice(s))
                .map(|_| self.rng.random_range(1..=6u8))
                .sum();
            self.rolloff[s].push(total);
            totals.push(total);
        }
        let mut distinct = totals.clone();
        distinct.sort_unstable();
        distinct.dedup();
        for t in distinct {
            let sub: Vec<Seat> = group
                .iter()
                .zip(&totals)
                .filter(|(_, &x)| x == t)
                .map(|(&s, _)| s)
                .collect();
            self.rolloff_group(sub, round + 1);
        }
    }

    /// The ranking key of a seat.
    pub fn rank_key(&self, s: Seat) -> RankKey {
        let p = &self.players[s];
        (
            crate::cards::STARS - p.stars_left,
            p.morale,
            Reverse(p.knowledge),
            self.market_stars(s),
            self.rolloff[s].iter().map(|&t| Reverse(t)).collect(),
        )
    }

    /// The outcome once the game is over: score = stars placed.
    pub fn final_outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let scores = self
            .players
            .iter()
            .map(|p| (crate::cards::STARS - p.stars_left) as i64)
            .collect();
        let keys: Vec<RankKey> = (0..self.n()).map(|s| self.rank_key(s)).collect();
        Some(Outcome::ranked(scores, &keys))
    }
}
