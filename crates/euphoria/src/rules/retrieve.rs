//! Retrieving workers (spec 5.4).

use crate::action::RetrievePay;
use crate::cards::{Good, Penalty, Space, DICE};
use crate::state::{DieLoc, Euphoria, Step};

impl Euphoria {
    /// Why the current player may not pick the die showing `value` on `space`, given the
    /// dice already picked (`picked`, a bitmask).
    pub fn check_retrieve(&self, picked: u8, value: u8, space: Space) -> Result<(), String> {
        match self.retrievable(picked, value, space) {
            Some(_) => Ok(()),
            None if picked == 0 => Err(format!("you have no worker showing {value} on {space}")),
            None => Err(format!(
                "you have no other worker showing {value} on {space} to pick"
            )),
        }
    }

    fn retrievable(&self, picked: u8, value: u8, space: Space) -> Option<usize> {
        let p = &self.players[self.current as usize];
        (0..DICE).find(|&i| picked & (1 << i) == 0 && p.dice[i] == DieLoc::Board(space, value))
    }

    /// Picks one more die to retrieve (the first pick starts the retrieval).
    pub fn pick_retrieve(&mut self, value: u8, space: Space) {
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
    pub fn check_finish_retrieve(&self, pay: RetrievePay) -> Result<(), String> {
        let p = &self.players[self.current as usize];
        match pay {
            RetrievePay::Food if p.count(Good::Food) == 0 => Err("you have no food".into()),
            RetrievePay::Bliss if p.count(Good::Bliss) == 0 => Err("you have no bliss".into()),
            _ => Ok(()),
        }
    }

    /// Takes the picked dice back, pays (1 food or bliss: morale +2; free: morale −1, −2
    /// under the Cafeteria penalty), rolls them, and ends the turn.
    pub fn finish_retrieve(&mut self, pay: RetrievePay) {
        let Some(Step::Retrieve { dice }) = self.stack.pop() else {
            return;
        };
        let seat = self.current as usize;
        match pay {
            RetrievePay::Food => {
                self.spend(seat, Good::Food, 1);
                self.shift_morale(seat, 2);
            }
            RetrievePay::Bliss => {
                self.spend(seat, Good::Bliss, 1);
                self.shift_morale(seat, 2);
            }
            RetrievePay::Free => {
                let loss = if self.penalized(seat, Penalty::CostlyRetrieval) {
                    2
                } else {
                    1
                };
                self.shift_morale(seat, -loss);
            }
        }
        for i in 0..DICE {
            if dice & (1 << i) != 0 {
                if let DieLoc::Board(_, v) = self.players[seat].dice[i] {
                    self.players[seat].dice[i] = DieLoc::Ready(v);
                }
            }
        }
        self.stack.push(Step::EndTurn);
        if let Some(step) = self.roll_dice(seat, dice) {
            self.stack.push(step);
        }
    }
}
