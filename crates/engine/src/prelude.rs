//! The game traits in one import, for code that calls them on a concrete game type
//! (`use engine::prelude::*`): generic code over `G: Game` needs none of this.
pub use crate::game::{Formats, Game, GameRules, Present, Search};
