//! The ethical dilemma (spec 5.8).

use crate::cards::{Good, Recruit, DILEMMAS};
use crate::refusal::Refusal;
use crate::state::{DilemmaState, Euphoria, HeldRecruit, Step};
use engine::shuffle;
use engine::Seat;

impl Euphoria {
    /// Why `seat` may not start resolving its dilemma.
    pub fn check_dilemma(&self, seat: Seat) -> Result<(), Refusal> {
        let p = &self.players[seat];
        if p.dilemma_state != DilemmaState::Unresolved {
            return Err(Refusal::DilemmaResolved);
        }
        let pictured = DILEMMAS[p.dilemma as usize].pictured;
        if p.count(pictured) == 0 && p.hand_size() < 2 {
            return Err(Refusal::DilemmaCost(pictured));
        }
        Ok(())
    }

    /// Why `seat` may not pay `g` towards its dilemma now.
    pub fn check_dilemma_pay(&self, seat: Seat, paid: u8, g: Good) -> Result<(), Refusal> {
        let p = &self.players[seat];
        if !g.is_artifact() || p.count(g) == 0 {
            return Err(Refusal::NoCard(g));
        }
        let pictured = DILEMMAS[p.dilemma as usize].pictured;
        if paid == 0 && g != pictured && p.hand_size() < 2 {
            return Err(Refusal::DilemmaPictured(pictured));
        }
        Ok(())
    }

    /// Reveals the dilemma and queues its payment and choice; the turn ends after it.
    pub(crate) fn start_dilemma(&mut self) {
        self.stack.push(Step::EndTurn);
        self.stack.push(Step::DilemmaChoice);
        self.stack.push(Step::DilemmaPay { paid: 0 });
    }

    /// Rebel: draw 2 recruits (reshuffling the discards if needed, A-26) and keep 1.
    pub(crate) fn rebel(&mut self, seat: Seat) {
        self.stack.pop();
        self.players[seat].dilemma_state = DilemmaState::Rebelled;
        if self.recruit_deck.len() < 2 {
            let mut back = std::mem::take(&mut self.recruit_discard);
            self.recruit_deck.append(&mut back);
            shuffle(&mut self.recruit_deck[..], &mut self.rng);
        }
        let take = self.recruit_deck.len().min(2);
        let drawn = self.recruit_deck.split_off(self.recruit_deck.len() - take);
        match drawn.len() {
            0 => {}
            1 => self.players[seat].recruits.push(HeldRecruit {
                id: drawn[0],
                up: false,
                star: false,
            }),
            _ => self.stack.push(Step::DilemmaKeep(drawn.to_vec())),
        }
    }

    /// Keeps drawn recruit `r` (face down; the reveal check flips it if its faction is
    /// unlocked, A-08) and discards the other.
    pub(crate) fn keep_drawn(&mut self, seat: Seat, r: Recruit) {
        let Some(Step::DilemmaKeep(ids)) = self.stack.pop() else {
            return;
        };
        for id in ids {
            if id == r {
                self.players[seat].recruits.push(HeldRecruit {
                    id,
                    up: false,
                    star: false,
                });
            } else {
                self.recruit_discard.push(id);
            }
        }
    }
}
