//! The [`Game`] trait, split by job: the rules ([`GameRules`]), what people are shown
//! ([`Present`]), what search and statistics read ([`Search`]) and the files ([`Formats`]).
//!
//! `Game` is the whole: every type that implements the four is a `Game` (a blanket impl),
//! so generic code asks for `G: Game` and reaches every method, while a game implements
//! each job in the module of that job. A caller that names a concrete game type brings
//! the four into scope with `use engine::prelude::*`.
mod formats;
mod present;
mod rules;
mod search;

pub use formats::{no_problems, Formats};
pub use present::Present;
pub use rules::GameRules;
pub use search::Search;

/// A whole game: its rules, presentation, search hooks and formats.
pub trait Game: GameRules + Present + Search + Formats {}

impl<G: GameRules + Present + Search + Formats> Game for G {}
