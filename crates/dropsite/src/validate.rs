//! Validation: every invariant a position must keep (a loaded state, a built position).
use crate::cards::VALUES;
use crate::state::{DropSite, Pile};

impl DropSite {
    /// Every problem with this state (the body of `Formats::validate`).
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if let Err(e) = self.config.validate() {
            p.extend(e.problems);
            return p;
        }
        let n = self.config.players;
        for (name, len) in [
            ("hands", self.hands.len()),
            ("debts", self.debts.len()),
            ("totals", self.totals.len()),
        ] {
            if len != n {
                p.push(format!("{name} has {len} entries for {n} players"));
            }
        }
        // Hands are kept in ascending order (a card drawn goes to its place): the legal
        // actions list each value once by skipping repeats.
        for (s, h) in self.hands.iter().enumerate() {
            if h.windows(2).any(|w| w[1] < w[0]) {
                p.push(format!(
                    "seat {}'s hand {h:?} is not in ascending order",
                    s + 1
                ));
            }
        }
        let mut all = self
            .deck
            .iter()
            .chain(self.hands.iter().flatten())
            .chain(self.debts.iter().flatten())
            .chain(self.piles.iter().flat_map(|pile| pile.cards.iter()));
        if let Some(bad) = all.find(|&&c| c as usize >= VALUES) {
            p.push(format!("card value {bad} is not in the deck (0-12)"));
        }
        let census = self.census();
        for (v, &n) in census.iter().enumerate() {
            let copies = self.config.deck.copies(v as u8);
            if n != copies {
                p.push(format!("{n} cards of value {v} instead of {copies}"));
            }
        }
        if self.piles.is_empty() {
            p.push("there is no drop site".into());
        }
        if self.piles.len() > self.config.pile_limit() {
            p.push(format!(
                "{} drop sites, more than the {} that end a round",
                self.piles.len(),
                self.config.pile_limit()
            ));
        }
        for (i, pile) in self.piles.iter().enumerate() {
            if let Err(e) = check_pile(pile) {
                p.push(format!("drop site {}: {e}", i + 1));
            }
        }
        if let Some(seat) = self.to_act {
            if seat >= n {
                p.push(format!("seat {} is to act at a table of {n}", seat + 1));
            }
            if self.deck.is_empty() {
                p.push("a round is being played with an empty deck".into());
            }
            if self.piles.len() >= self.config.pile_limit() {
                p.push("a round is being played past its drop-site limit".into());
            }
            for (s, h) in self.hands.iter().enumerate() {
                if h.len() != crate::cards::HAND {
                    p.push(format!(
                        "seat {} holds {} cards during play instead of {}",
                        s + 1,
                        h.len(),
                        crate::cards::HAND
                    ));
                }
            }
        } else if self.leader().is_none() {
            p.push("the game is marked over but nobody leads alone at or above the target".into());
        }
        if self.round_first >= n {
            p.push(format!(
                "round_first is seat {} at a table of {n}",
                self.round_first + 1
            ));
        }
        // The rounds scored: each with a debt and a score for every seat (the views and
        // the game log show them seat by seat), its cards cards of the deck.
        for r in &self.history {
            for (name, len) in [("debts", r.debts.len()), ("scores", r.scores.len())] {
                if len != n {
                    p.push(format!(
                        "round {} scored {name} for {len} seats at a table of {n}",
                        r.round
                    ));
                }
            }
            let mut cards = r.debts.iter().chain(&r.shown).flatten();
            if let Some(bad) = cards.find(|&&c| c as usize >= VALUES) {
                p.push(format!(
                    "round {} shows card value {bad}, not in the deck (0-12)",
                    r.round
                ));
            }
        }
        for (s, total) in self.totals.iter().enumerate() {
            let sum: i64 = self
                .history
                .iter()
                .map(|r| r.scores.get(s).copied().unwrap_or(0))
                .sum();
            if sum != *total {
                p.push(format!(
                    "seat {}'s total {total} is not the sum of its round scores {sum}",
                    s + 1
                ));
            }
        }
        p
    }
}

fn check_pile(pile: &Pile) -> Result<(), String> {
    let cards = &pile.cards;
    if cards.is_empty() {
        return Err("empty".into());
    }
    // The zero that turned the pile sideways, if any, and the new site above it.
    let zero = cards.iter().position(|&c| c == 0);
    let (below, above) = match zero {
        Some(z) => (&cards[..=z], &cards[z + 1..]),
        None => (&cards[..], &cards[..0]),
    };
    let descending = |run: &[u8]| run.windows(2).all(|w| w[1] < w[0]);
    if !descending(below) {
        return Err(format!("cards {below:?} do not descend"));
    }
    if !descending(above) {
        return Err(format!("the new site {above:?} does not descend"));
    }
    let sideways = zero.is_some();
    let restarted = !above.is_empty();
    let closed = restarted && above.last() == Some(&0);
    if pile.sideways != sideways || pile.restarted != restarted || pile.closed != closed {
        return Err(format!(
            "flags (sideways {}, restarted {}, closed {}) do not fit its cards {cards:?}",
            pile.sideways, pile.restarted, pile.closed
        ));
    }
    Ok(())
}
