//! The HTTP API: the axum handlers, the WebSocket sessions, and the wire format (the JSON
//! shapes of requests, answers and errors; see docs/http-api.md). It serves the domain
//! (`crate::domain`) and never reaches under it to the store's implementations.

mod accounts;
mod chat;
mod coach;
pub mod error;
mod extract;
mod games;
mod health;
mod lessons;
mod play;
mod ratings;
mod socket;
mod tables;
mod tournaments;

pub(crate) use accounts::{
    check_origin, leaderboard, me, patch_me, player, session, sign_in, sign_out,
    sign_out_everywhere, sign_up, unsubscribe, verify_email,
};
pub(crate) use chat::*;
pub(crate) use coach::*;
pub use error::ApiError;
pub(crate) use extract::{
    client_addr, declared_too_large, method_not_allowed, not_found, MAX_BODY,
};
pub(crate) use games::*;
pub(crate) use health::*;
pub(crate) use lessons::*;
pub(crate) use play::*;
pub use socket::*;
pub(crate) use tables::*;
pub(crate) use tournaments::*;
