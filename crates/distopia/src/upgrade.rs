//! Old records and states, brought up to today's format once, at load.
//!
//! Distop-IA's formats:
//! - 1: every record and state written so far (a file that names no format is format 1).
//!
//! When the format changes, the step from the old one comes here, as
//! [`engine::Game::upgrade_record`] and [`engine::Game::upgrade_state`], and the rules keep
//! no branch for old files.

/// The format records and states are written in now ([`engine::Game::FORMAT`]).
pub(crate) const FORMAT: u32 = 1;
