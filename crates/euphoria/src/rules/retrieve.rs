//! Retrieving workers (spec 5.4).

use crate::action::RetrievePay;
use crate::cards::{Faction, Good, Penalty, Recruit, Space, DICE};
use crate::refusal::Refusal;
use crate::state::{DieLoc, Euphoria, Step, Trigger};
use engine::Seat;

impl Euphoria {
    /// Why the current player may not pick the die showing `value` on `space`, given the
    /// dice already picked (`picked`, a bitmask).
    pub fn check_retrieve(&self, picked: u8, value: u8, space: Space) -> Result<(), Refusal> {
        match self.retrievable(picked, value, space) {
            Some(_) => Ok(()),
            None if picked == 0 => Err(Refusal::NoWorker { value, space }),
            None => Err(Refusal::NoOtherWorker { value, space }),
        }
    }

    fn retrievable(&self, picked: u8, value: u8, space: Space) -> Option<usize> {
        let p = &self.players[self.current as usize];
        (0..DICE).find(|&i| picked & (1 << i) == 0 && p.dice[i] == DieLoc::Board(space, value))
    }

    /// Picks one more die to retrieve (the first pick starts the retrieval).
    pub(crate) fn pick_retrieve(&mut self, value: u8, space: Space) {
        let picked = match self.stack.last() {
            Some(Step::Retrieve { dice }) => *dice,
            _ => 0,
        };
        let Some(i) = self.retrievable(picked, value, space) else {
            return;
        };
        match self.stack.last_mut() {
            Some(Step::Retrieve { dice }) => *dice |= 1 << i,
            _ => self.stack.push(Step::Retrieve { dice: 1 << i }),
        }
    }

    /// Why the current player may not finish the retrieval paying `pay`.
    pub fn check_finish_retrieve(&self, pay: RetrievePay) -> Result<(), Refusal> {
        let seat = self.current as usize;
        let p = &self.players[seat];
        match pay {
            RetrievePay::Food if p.count(Good::Food) == 0 => Err(Refusal::NoGood(Good::Food)),
            RetrievePay::Bliss if p.count(Good::Bliss) == 0 => Err(Refusal::NoGood(Good::Bliss)),
            RetrievePay::Energy if !self.has(seat, Recruit::Jefferson) => {
                Err(Refusal::EnergyNeedsJefferson)
            }
            RetrievePay::Energy if p.count(Good::Energy) == 0 => Err(Refusal::NoGood(Good::Energy)),
            _ => Ok(()),
        }
    }

    /// The morale a retrieval paid with `pay` moves by, before it is kept within 1..=6:
    /// food or bliss +2 (with Gidget, a bliss one may be paid in knowledge instead),
    /// Jefferson's energy +1, free −1, −2 under the Cafeteria penalty, and nothing in the
    /// first edition when Yordy brings back the last two workers.
    pub fn retrieval_morale(&self, seat: Seat, pay: RetrievePay) -> i32 {
        match pay {
            RetrievePay::Food | RetrievePay::Bliss => 2,
            RetrievePay::Energy => 1,
            RetrievePay::Free
                if self.v1()
                    && self.has(seat, Recruit::Yordy)
                    && self.players[seat].owned_dice() == 2 =>
            {
                0
            }
            RetrievePay::Free if self.penalized(seat, Penalty::CostlyRetrieval) => -2,
            RetrievePay::Free => -1,
        }
    }

    /// A retrieval paid with bliss: morale +2. It is given when the retrieval's recruit
    /// hook runs, Gidget's, whose owner may take knowledge −2 instead (and is given if
    /// they decline).
    pub(crate) fn bliss_retrieval_morale(&mut self, seat: Seat) {
        self.shift_morale(seat, self.retrieval_morale(seat, RetrievePay::Bliss));
    }

    /// Takes the picked dice back and pays (1 food or bliss: morale +2; free: morale −1,
    /// −2 under the Cafeteria penalty; Jefferson's energy: knowledge −1, morale +1); the
    /// retrieval recruits act before the roll (Pete, Sheppard, Yordy) and after it
    /// (Maggie); then the turn ends.
    pub(crate) fn finish_retrieve(&mut self, pay: RetrievePay) {
        let Some(Step::Retrieve { dice }) = self.stack.pop() else {
            return;
        };
        let seat = self.current as usize;
        // The steps that follow, pushed in the order they run and turned over at the end
        // (on the stack, the first to run is on top): nothing is allocated a retrieval.
        let base = self.stack.len();
        match pay {
            RetrievePay::Food => {
                self.spend(seat, Good::Food, 1);
                self.shift_morale(seat, self.retrieval_morale(seat, pay));
            }
            RetrievePay::Bliss => {
                self.spend(seat, Good::Bliss, 1);
                self.stack.push(Step::Hook {
                    seat: seat as u8,
                    id: Recruit::Gidget,
                    arg: Trigger::Plain,
                });
            }
            RetrievePay::Energy => {
                self.spend(seat, Good::Energy, 1);
                self.shift_knowledge(seat, -1);
                self.shift_morale(seat, self.retrieval_morale(seat, pay));
            }
            RetrievePay::Free => self.shift_morale(seat, self.retrieval_morale(seat, pay)),
        }
        let pre: &[Recruit] = if pay == RetrievePay::Free && !self.v1() {
            &[Recruit::Pete, Recruit::Sheppard, Recruit::Yordy]
        } else {
            &[Recruit::Pete, Recruit::Sheppard]
        };
        for &id in pre {
            if self.has(seat, id) {
                self.stack.push(Step::Hook {
                    seat: seat as u8,
                    id,
                    arg: Trigger::Plain,
                });
            }
        }
        self.stack.push(Step::RetrieveRoll { dice });
        let subterra = (0..DICE).filter(|i| dice & (1 << i) != 0).all(|i| {
            matches!(self.players[seat].dice[i], DieLoc::Board(sp, _) if sp.region() == Some(Faction::Subterran))
        });
        if subterra && self.has(seat, Recruit::Maggie) {
            self.stack.push(Step::Hook {
                seat: seat as u8,
                id: Recruit::Maggie,
                arg: Trigger::Plain,
            });
        }
        self.stack.push(Step::EndTurn);
        self.stack[base..].reverse();
    }

    /// The retrieved dice still on the board return and are rolled.
    pub(crate) fn retrieve_roll(&mut self, dice: u8) {
        let seat = self.current as usize;
        let mut mask = 0u8;
        for i in 0..DICE {
            if dice & (1 << i) != 0 {
                if let DieLoc::Board(_, v) = self.players[seat].dice[i] {
                    self.players[seat].dice[i] = DieLoc::Ready(v);
                    mask |= 1 << i;
                }
            }
        }
        if mask != 0 {
            let steps = self.roll_dice(seat, mask);
            self.push_seq(steps);
        }
    }
}
