//! What a seat held, for studies of win rate by holding (`Search::holdings`).
use crate::cards::Character;
use crate::Distopia;
use engine::{Holding, Moment, Seat};

impl Distopia {
    /// At the start: the seat's character, the border set, and the collaborator and
    /// mission in play (`none` outside advanced mode).
    pub(crate) fn held(&self, seat: Seat, moment: Moment) -> Vec<Holding> {
        if moment == Moment::End {
            return Vec::new();
        }
        let character = match self.characters[seat % 2] {
            Character::Teacher => "Teacher",
            Character::Collector => "Collector",
        };
        let collaborator = self
            .collaborator
            .map_or_else(|| "none".to_string(), |c| c.card.to_string());
        let mission = self
            .mission
            .map_or_else(|| "none".to_string(), |m| m.card.to_string());
        vec![
            Holding::name("character", character),
            Holding::name("border", self.config.border),
            Holding::name("collaborator", collaborator),
            Holding::name("mission", mission),
        ]
    }
}
