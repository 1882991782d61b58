use crate::Seat;
use serde::{Deserialize, Serialize};

/// The result of a finished game: a score per seat and a place per seat after all
/// tie-breaks (0 is first; seats still tied after every tie-break share a place).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub scores: Vec<i64>,
    pub places: Vec<u8>,
}

impl Outcome {
    /// Places from a ranking key per seat (higher is better, compared in order: score
    /// first, then each tie-break). Equal keys share a place.
    pub fn ranked<K: Ord>(scores: Vec<i64>, keys: &[K]) -> Outcome {
        let places = keys
            .iter()
            .map(|k| keys.iter().filter(|other| *other > k).count() as u8)
            .collect();
        Outcome { scores, places }
    }

    /// The seats in first place.
    pub fn winners(&self) -> Vec<Seat> {
        (0..self.places.len())
            .filter(|&s| self.places[s] == 0)
            .collect()
    }

    /// 1 for a sole winner, 1/k for a k-way shared win, 0 otherwise.
    pub fn reward(&self, seat: Seat) -> f64 {
        if self.places.get(seat) == Some(&0) {
            1.0 / self.winners().len() as f64
        } else {
            0.0
        }
    }

    /// Checks that the outcome fits a table of `seats`.
    ///
    /// # Errors
    /// A description of the first inconsistency.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        if self.scores.len() != seats || self.places.len() != seats {
            return Err(format!(
                "outcome has {} scores and {} places for {seats} seats",
                self.scores.len(),
                self.places.len()
            ));
        }
        if !self.places.contains(&0) {
            return Err("outcome has nobody in first place".into());
        }
        for s in 0..seats {
            let better = self.places.iter().filter(|&&p| p < self.places[s]).count();
            if better != self.places[s] as usize {
                return Err(format!(
                    "seat {s} has place {} but {better} seats are ahead",
                    self.places[s]
                ));
            }
        }
        Ok(())
    }
}
