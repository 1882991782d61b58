//! The four factions (and their regions), as the board and the recruits name them.
use serde::{Deserialize, Serialize};
use std::fmt;

/// The four factions (and their regions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    Euphorian,
    Subterran,
    Wastelander,
    Icarite,
}

impl Faction {
    /// All four, in board order.
    pub const ALL: [Faction; 4] = [
        Faction::Euphorian,
        Faction::Subterran,
        Faction::Wastelander,
        Faction::Icarite,
    ];

    /// Index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The faction with index `i` (0..4).
    pub fn from_index(i: usize) -> Faction {
        Faction::ALL[i % 4]
    }

    /// The faction's name ("Euphorians").
    pub fn name(self) -> &'static str {
        ["Euphorians", "Subterrans", "Wastelanders", "Icarites"][self.index()]
    }

    /// The faction's region ("Euphoria").
    pub fn region(self) -> &'static str {
        ["Euphoria", "Subterra", "Wastelands", "Icarus"][self.index()]
    }

    /// The faction's adjective ("Euphorian", "Icarite").
    pub fn adjective(self) -> &'static str {
        ["Euphorian", "Subterran", "Wastelander", "Icarite"][self.index()]
    }

    /// Short name used on the board.
    pub fn short(self) -> &'static str {
        ["EUP", "SUB", "WAS", "ICA"][self.index()]
    }
}

impl fmt::Display for Faction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}
