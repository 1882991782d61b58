//! Why the rules refuse an action, one variant per rule, in plain words.
use engine::Coded;
use engine::Seat;
use std::fmt;

/// A rule an action breaks in this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over: nobody acts.
    GameOver,
    /// The seat to act does not hold that card (To Play: you play from your hand).
    NotHeld { seat: Seat, card: u8 },
    /// There is no drop site with that number.
    NoSuchSite { site: usize, sites: usize },
    /// The drop site holds two zeros (ruling S7).
    SiteClosed { site: usize },
    /// A card played on a drop site must be lower than its top card (ruling S9).
    NotLower { card: u8, top: u8 },
}

/// Each rule's stable code, `dropsite/<rule>` (docs/http-api.md lists them): an API, so a
/// code keeps its meaning once given.
impl Coded for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::GameOver => "dropsite/game_over",
            Refusal::NotHeld { .. } => "dropsite/card_not_in_hand",
            Refusal::NoSuchSite { .. } => "dropsite/no_such_site",
            Refusal::SiteClosed { .. } => "dropsite/site_closed",
            Refusal::NotLower { .. } => "dropsite/not_lower",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Seats and drop sites are counted from 1 wherever a person reads them.
        match *self {
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotHeld { seat, card } => write!(f, "seat {} holds no {card}", seat + 1),
            Refusal::NoSuchSite { site, sites } => {
                write!(f, "there is no drop site {} (there are {sites})", site + 1)
            }
            Refusal::SiteClosed { site } => write!(
                f,
                "drop site {} holds two zeros: no more cards may be played on it",
                site + 1
            ),
            Refusal::NotLower { card, top } => write!(
                f,
                "a card played on a drop site must be lower than its top card, and {card} is not lower than {top}"
            ),
        }
    }
}
