//! Old records and states, brought up to today's format at load.
//!
//! Euphoria's formats:
//! - 1: every record and state written so far (a file that names no format is format 1).
//!   Files from before issue 16 are read by the rules themselves today (the config's
//!   `legacy_actions` and the serde aliases of old variant names); those branches move
//!   here as the step from format 1 to 2, which rewrites such a file once, at load.
//!
//! What that step needs, found when it was first tried:
//! - the record's seed (the new decisions are found by replaying under today's rules:
//!   a recorded `pay` that today's rules made by themselves is dropped, a bare `use KEY`
//!   answering a new-worker offer becomes `use KEY-new`), so `Game::upgrade_record`
//!   must be handed the whole record, not its config and actions alone;
//! - the server's stored tables, which keep a config and actions but no format, and whose
//!   configs all name `legacy_actions` (it is written out today, as `false`): the store
//!   must keep a format per table and bring its rows up through the same step;
//! - the end each old record reaches, kept beside it (tests/fixtures/*.end.json, checked
//!   by tests/compat.rs), which the upgraded records must reach too.

/// The format records and states are written in now ([`engine::Game::FORMAT`]).
pub(crate) const FORMAT: u32 = 1;
