//! Who sits at the table and who looks at it.
use serde::{Deserialize, Serialize};

/// A seat at the table, numbered from 0 in turn order.
pub type Seat = usize;

/// Who is looking at the game: one seat, or a spectator who sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    /// The seat, if this viewer sits at the table.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}
