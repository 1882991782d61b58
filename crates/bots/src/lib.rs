//! Bots that play any [`engine::Game`].
//!
//! A bot sees a game only through an [`Observer`]: the seat's view, its legal actions, and
//! determinizations (hidden information resampled), so it cannot read a hidden card by
//! accident. Every bot takes a seed: the same seed and the same observations give the
//! same choices.

mod bot;
mod coach;
mod deals;
mod dyn_bot;
mod guard;
mod heuristic;
mod ismcts;
mod make;
mod pimc;
mod random;
mod spec;

pub use bot::{Bot, Observer};
pub use coach::{
    hard_iterations, hint, review, Advice, CoachError, CoachOptions, Review, ReviewedMove,
    MARK_LOSS, MARK_MOST,
};
pub use deals::DEAL_MARGIN;
pub use dyn_bot::{make_dyn_bot, DynBot};
pub use guard::{Guarded, TurnMemory};
pub use heuristic::{HeuristicBot, HeuristicOptions};
pub use ismcts::{Budget, IsmctsBot, IsmctsOptions};
pub use make::{
    level_options, level_time_cap, make_bot, make_guarded, make_unguarded, pimc_options,
};
pub use pimc::{PimcBot, PimcOptions};
pub use random::RandomBot;
pub use spec::{BotError, BotSpec, Level};
