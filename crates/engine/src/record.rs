use crate::error::EngineError;
use crate::moves::is_table_move;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A whole game as `config + seed + actions`: replaying it reproduces the game exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's name (`GameRules::NAME`).
    pub game: String,
    /// The game's config as JSON.
    pub config: serde_json::Value,
    pub seed: u64,
    /// The actions in their text notation, in order, with the table moves among them:
    /// `undo` (the last action is taken back) and `resign N` (seat N, counted from 1,
    /// resigns); see [`crate::Session`].
    pub actions: Vec<String>,
    /// The version of the game's record format it was written in ([`Formats::FORMAT`]);
    /// absent means 1. An older record is brought up to date once, when it is replayed
    /// ([`Formats::upgrade_record`]).
    #[serde(default = "first_format")]
    pub format: u32,
}

/// The format of records and states that say none.
pub(crate) fn first_format() -> u32 {
    1
}

impl GameRecord {
    /// Whether any entry is a table move (`undo`, `resign N`) rather than a game action.
    pub fn has_table_moves(&self) -> bool {
        self.actions.iter().any(|a| is_table_move(a))
    }
}

/// The first step of a record that does not replay.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("step {index} (`{action}`) does not replay: {error}")]
pub struct ReplayError {
    /// 0-based index into `actions`; `None` when the game could not even start.
    pub index: usize,
    pub action: String,
    pub error: EngineError,
}
