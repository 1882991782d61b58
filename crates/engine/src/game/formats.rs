//! The game's files: the format version of its records and states, their upgrades, and
//! the check a loaded state passes.
use super::rules::GameRules;
use crate::record::GameRecord;

/// A game's record and state formats, and the invariants a loaded state must hold.
pub trait Formats: GameRules {
    /// The version of this game's record and state formats. Records and state files say
    /// which they were written in (absent means 1); an older one is brought up to this
    /// version once, when it is loaded ([`Formats::upgrade_record`], [`Formats::upgrade_state`]),
    /// so the rules hold no branches for old files.
    const FORMAT: u32 = 1;
    /// Brings a whole record (config, seed and actions), written in format `from` (older
    /// than [`Formats::FORMAT`]), up to the current format; `record.format` is set by the
    /// caller. Returns, for each action of the upgraded record, the index of the action
    /// of the old one it was made from (a step may drop or rewrite actions, never add
    /// one), so that a store can keep what it knew of each. The default has nothing to
    /// upgrade.
    ///
    /// # Errors
    /// What cannot be upgraded, in words.
    fn upgrade_record(from: u32, record: &mut GameRecord) -> Result<Vec<usize>, String> {
        let _ = from;
        Ok((0..record.actions.len()).collect())
    }
    /// Brings a state's JSON, written in format `from` (older than [`Formats::FORMAT`]), up
    /// to the current format. The default has nothing to upgrade.
    ///
    /// # Errors
    /// What cannot be upgraded, in words.
    fn upgrade_state(from: u32, state: &mut serde_json::Value) -> Result<(), String> {
        let _ = (from, state);
        Ok(())
    }
    /// Checks the state's invariants (components conserved, counts in range), reporting
    /// every problem. A state loaded from a file is checked with this before use.
    ///
    /// # Errors
    /// The list of problems found.
    fn validate(&self) -> Result<(), Vec<String>>;
}

/// What [`Formats::validate`] answers for the list of problems a check found: `Ok` when
/// it is empty.
///
/// # Errors
/// The problems, when there are any.
pub fn no_problems(problems: Vec<String>) -> Result<(), Vec<String>> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
