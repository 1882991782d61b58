//! What a seat held, for studies of win rate by holding (`Search::holdings`).
use crate::cards::Faction;
use crate::state::{DilemmaState, Euphoria};
use engine::{Holding, Moment, Seat};

impl Euphoria {
    /// At the end (recruits are chosen and gained during play): each recruit the seat
    /// held, each faction among those recruits (once a seat however many it held of it),
    /// and how its ethical dilemma ended (`conformed`: a star on the card; `rebelled`:
    /// recruits drawn; `unresolved`).
    pub(crate) fn held(&self, seat: Seat, moment: Moment) -> Vec<Holding> {
        let Some(player) = self.players.get(seat) else {
            return Vec::new();
        };
        if moment == Moment::Start {
            return Vec::new();
        }
        let mut held: Vec<Holding> = player
            .recruits
            .iter()
            .map(|r| Holding::name("recruit", r.id.name()))
            .collect();
        for faction in Faction::ALL {
            if player.recruits.iter().any(|r| r.id.faction() == faction) {
                held.push(Holding::name("faction", faction_name(faction)));
            }
        }
        let dilemma = match player.dilemma_state {
            DilemmaState::Unresolved => "unresolved",
            DilemmaState::Rebelled => "rebelled",
            DilemmaState::Conformed => "conformed",
        };
        held.push(Holding::name("dilemma", dilemma));
        held
    }
}

fn faction_name(faction: Faction) -> &'static str {
    match faction {
        Faction::Euphorian => "Euphorian",
        Faction::Subterran => "Subterran",
        Faction::Wastelander => "Wastelander",
        Faction::Icarite => "Icarite",
    }
}
