//! Old records and states, brought up to today's format at load.
//!
//! Euphoria's formats:
//! - 1: every record and state written so far (a file that names no format is format 1).
//!   Files from before issue 16 are read by the rules themselves today (the config's
//!   `legacy_actions` and the serde aliases of old variant names); those branches move
//!   here as the step from format 1 to 2, which rewrites such a file once, at load.

/// The format records and states are written in now ([`engine::Game::FORMAT`]).
pub(crate) const FORMAT: u32 = 1;
