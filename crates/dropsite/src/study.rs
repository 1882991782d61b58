//! What a seat held, for studies of win rate by holding (`Search::holdings`).
use crate::DropSite;
use engine::{Holding, Moment, Seat};

impl DropSite {
    /// At the start: the points of the seat's first hand (studies bucket them by quintile).
    pub(crate) fn held(&self, seat: Seat, moment: Moment) -> Vec<Holding> {
        match moment {
            Moment::Start => {
                let points: i64 = self.hand(seat).iter().map(|&c| self.points(c)).sum();
                vec![Holding::number("first hand points", points as f64)]
            }
            Moment::End => Vec::new(),
        }
    }
}
