//! The domain: live tables (seating, moves, clocks, chat, limits, presence, bots, the
//! coach), the [`Store`] they are kept in (the trait and its rows) and the typed refusals
//! of every call. It imports nothing of the HTTP API (`crate::api`, axum) nor of a
//! database crate: `crate::store` implements [`Store`], `crate::api` serves the tables.

mod account_store;
mod accounts;
mod bot_play;
mod bot_ratings;
mod chat;
pub mod clock;
mod clocks;
mod coach;
mod error;
mod hub;
pub mod limits;
mod load;
pub mod metrics;
mod moves;
mod names;
pub mod notify;
mod ratings;
mod seating;
mod secrets;
pub mod store;
mod store_error;
mod table;
mod text;
mod tournament;
mod tournament_store;
mod tournaments;
mod view;

pub use account_store::*;
pub use accounts::{
    account_name, NewSession, SignedIn, MAX_PASSWORD_BYTES, MIN_PASSWORD_CHARS, SESSION_LIFE,
};
pub use bot_ratings::{bot_rating, bot_ratings};
pub use clock::{Clock, ClockView, OnTimeout, TableRules};
pub use coach::{Hint, Moment, ReviewStatus, HINT_MOVES};
pub use error::{Refusal, TableError, STORE_RETRY_AFTER};
pub use hub::{
    By, Hub, Played, Table, CHAT_BURST, CHAT_KEPT, CHAT_PER_SECOND, CLOCK_TICK, ENDED_CACHE,
    MAX_ACTION_LEN, MAX_SEQUENCE,
};
pub use limits::{Cidr, Limits};
pub use metrics::Metrics;
pub use names::*;
pub use notify::{ContactChange, ContactView};
pub use ratings::{first_rating, rated, rating_config, shown_rating};
pub use seating::Creator;
pub use secrets::*;
pub use store::*;
pub use text::{stored_text, truncate};
pub use tournament::{
    is_bye, round_robin, round_robin_rounds, standings, swiss, table_sizes, Board, BoardResult,
    Format, Round, Standing, MAX_ENTRANTS, POINT,
};
pub use tournament_store::*;
pub use tournaments::{
    NewTournament, TournamentSettings, TournamentState, MAX_ROUNDS, MAX_TOURNAMENT_NAME,
};
pub use view::{Glance, LegalNow};
