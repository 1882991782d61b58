//! Validation: every invariant a position must keep (a loaded state, a built position).
use crate::cards::*;
use crate::state::*;

impl Distopia {
    /// The invariants: every card in exactly one place, stacks well formed, the phase
    /// consistent. Reports every problem.
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut count = [0u32; CARDS];
        let mut tally = |cards: &[Card], place: &str, problems: &mut Vec<String>| {
            for &c in cards {
                match count.get_mut(c.0 as usize) {
                    Some(n) => *n += 1,
                    None => problems.push(format!(
                        "{place} holds card id {}, which does not exist",
                        c.0
                    )),
                }
            }
        };
        for (i, d) in self.districts.iter().enumerate() {
            tally(d, &format!("district {i}"), &mut problems);
            if d.iter().any(|c| !c.is_valid()) {
                continue;
            }
            if let Some(g) = d.iter().position(|c| c.is_guard()) {
                if d[g..].iter().any(|c| !c.is_guard()) {
                    problems.push(format!(
                        "seat {}'s district {} has contraband on top of a guard",
                        owner(i),
                        crate::action::letter_char(letter_of(i))
                    ));
                }
            }
        }
        tally(&self.deck, "the deck", &mut problems);
        for seat in 0..2 {
            tally(
                &self.won[seat],
                &format!("seat {seat}'s won pile"),
                &mut problems,
            );
            if self.won[seat].iter().any(|c| c.is_valid() && c.is_guard()) {
                problems.push(format!("seat {seat} has won a guard"));
            }
        }
        tally(&self.turn.hand, "the hand", &mut problems);
        for card in Card::all() {
            match count[card.0 as usize] {
                1 => {}
                0 => problems.push(format!("card {card} is missing")),
                n => problems.push(format!("card {card} is in {n} places")),
            }
        }
        if let Err(e) = self.config.choices() {
            problems.extend(e.problems.into_iter().map(|p| format!("config: {p}")));
        }
        if self.current > 1 || self.first > 1 {
            problems.push("a seat number is not 0 or 1".into());
        }
        if self.characters[0] == self.characters[1] {
            problems.push("both players have the same character".into());
        }
        if let Some(c) = self.collaborator {
            if c.holder.is_some_and(|h| h > 1) {
                problems.push("the collaborator is held by a seat that does not exist".into());
            }
        }
        if let Some(m) = self.mission {
            if m.claimed_by.is_some_and(|h| h > 1) {
                problems.push("the mission is claimed by a seat that does not exist".into());
            }
        }
        let t = &self.turn;
        if t.picked >= DISTRICTS || t.pos >= DISTRICTS {
            problems.push("the turn's district is off the table".into());
        }
        match self.phase {
            Phase::Play => {
                if t.hand.is_empty() {
                    problems.push("playing a hand but the hand is empty".into());
                }
                if t.picked < DISTRICTS && owner(t.picked) != self.current {
                    problems.push("the picked district is not the player's own".into());
                }
            }
            Phase::Pick | Phase::Raid | Phase::Over => {
                if !t.hand.is_empty() {
                    problems.push(format!("cards in hand during the {:?} phase", self.phase))
                }
            }
        }
        if self.phase == Phase::Raid
            && !matches!(self.collaborator, Some(c) if c.card == Collaborator::ShelfRaider)
        {
            problems.push("a Shelf Raider decision without The Shelf Raider in play".into());
        }
        problems
    }
}
