//! Old records and states, brought up to today's format once, at load.
//!
//! Distop-IA's formats:
//! - 1: every record and state written so far (a file that names no format is format 1).
//!
//! When the format changes, the step from the old one comes here, as
//! [`engine::Formats::upgrade_record`] and [`engine::Formats::upgrade_state`], and the rules keep
//! no branch for old files.
use crate::state::Distopia;
use engine::Formats;

/// The format records and states are written in now ([`engine::Formats::FORMAT`]).
pub(crate) const FORMAT: u32 = 1;

impl Formats for Distopia {
    const FORMAT: u32 = FORMAT;
    fn validate(&self) -> Result<(), Vec<String>> {
        engine::no_problems(self.problems())
    }
}
