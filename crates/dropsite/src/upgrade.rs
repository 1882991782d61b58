//! Old records and states, brought up to today's format once, at load.
//!
//! Drop Site's formats:
//! - 1: every record and state written so far (a file that names no format is format 1).
//!
//! When the format changes, the step from the old one comes here, as
//! [`engine::Formats::upgrade_record`] and [`engine::Formats::upgrade_state`], and the rules keep
//! no branch for old files.
use crate::state::DropSite;
use engine::Formats;

/// The format records and states are written in now ([`engine::Formats::FORMAT`]).
pub(crate) const FORMAT: u32 = 1;

impl Formats for DropSite {
    const FORMAT: u32 = FORMAT;
    fn validate(&self) -> Result<(), Vec<String>> {
        engine::no_problems(self.problems())
    }
}
