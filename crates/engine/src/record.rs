use crate::{EngineError, Game};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A whole game as `config + seed + actions`: replaying it reproduces the game exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's name (`Game::NAME`).
    pub game: String,
    /// The game's config as JSON.
    pub config: serde_json::Value,
    pub seed: u64,
    /// The actions in their text notation, in order, with the table moves among them:
    /// `undo` (the last action is taken back) and `resign N` (seat N, counted from 1,
    /// resigns); see [`crate::Session`].
    pub actions: Vec<String>,
    /// The version of the game's record format it was written in ([`Game::FORMAT`]);
    /// absent means 1. An older record is brought up to date once, when it is replayed
    /// ([`Game::upgrade_record`]).
    #[serde(default = "first_format")]
    pub format: u32,
}

/// The format of records and states that say none.
pub(crate) fn first_format() -> u32 {
    1
}

/// `record` in `G`'s current format: as it is when it is already, else upgraded by the
/// game ([`Game::upgrade_record`]).
///
/// # Errors
/// A record of a newer format than this program knows, or one the game cannot upgrade.
pub(crate) fn upgraded<G: Game>(
    record: &GameRecord,
) -> Result<std::borrow::Cow<'_, GameRecord>, ReplayError> {
    let refuse = |message: String| ReplayError {
        index: 0,
        action: String::new(),
        error: EngineError::Config(crate::ConfigError::of(
            crate::ConfigProblem::FormatTooNew,
            vec![message],
        )),
    };
    if record.format == G::FORMAT {
        return Ok(std::borrow::Cow::Borrowed(record));
    }
    if record.format > G::FORMAT {
        return Err(refuse(format!(
            "the record is in format {} of {}, but this program knows formats up to {}: update tabletop",
            record.format,
            G::NAME,
            G::FORMAT
        )));
    }
    Ok(std::borrow::Cow::Owned(upgrade::<G>(record)?.0))
}

/// `record` (older than `G`'s format) brought up to it, with the index in `record` of
/// each of its actions ([`Game::upgrade_record`]).
///
/// # Errors
/// A record the game cannot upgrade.
pub(crate) fn upgrade<G: Game>(
    record: &GameRecord,
) -> Result<(GameRecord, Vec<usize>), ReplayError> {
    let mut upgraded = record.clone();
    let sources =
        G::upgrade_record(record.format, &mut upgraded).map_err(|problem| ReplayError {
            index: 0,
            action: String::new(),
            error: EngineError::Config(crate::ConfigError::of(
                crate::ConfigProblem::NotUpgradable,
                vec![format!(
                    "the record (format {}) cannot be upgraded: {problem}",
                    record.format
                )],
            )),
        })?;
    upgraded.format = G::FORMAT;
    Ok((upgraded, sources))
}

impl GameRecord {
    /// Whether any entry is a table move (`undo`, `resign N`) rather than a game action.
    pub fn has_table_moves(&self) -> bool {
        self.actions.iter().any(|a| crate::is_table_move(a))
    }

    /// An empty record for a game about to start.
    pub fn start<G: Game>(config: &G::Config, seed: u64) -> GameRecord {
        GameRecord {
            game: G::NAME.to_string(),
            config: serde_json::to_value(config).unwrap_or(serde_json::Value::Null),
            seed,
            actions: Vec::new(),
            format: G::FORMAT,
        }
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

/// Replays a record of game `G` to its final state.
///
/// Table moves count: an `undo` takes the last action back (the game is as it was before
/// it), a `resign N` leaves the game as it is (who resigned is the [`crate::Session`]'s
/// business, see [`crate::DynGame::replay_session`]); an entry the session would refuse
/// (an undo where nothing may be taken back, an action after the last seat standing is
/// left) fails here too.
///
/// # Errors
/// The first entry that is malformed or refused where it stands, or a bad config.
pub fn replay<G: Game>(record: &GameRecord) -> Result<G, ReplayError> {
    let record = &*upgraded::<G>(record)?;
    if !record.has_table_moves() {
        return replay_steps(record, None);
    }
    let session = crate::Session::replay(Box::new(start::<G>(record)?), &record.actions)?;
    session
        .state()
        .as_any()
        .downcast_ref::<G>()
        .cloned()
        .ok_or_else(|| crate::session::wrong_game(G::NAME, record.actions.len()))
}

/// The game a record starts from: its config and seed.
pub(crate) fn start<G: Game>(record: &GameRecord) -> Result<G, ReplayError> {
    let start_error = |error: EngineError| ReplayError {
        index: 0,
        action: String::new(),
        error,
    };
    let config: G::Config = serde_json::from_value(record.config.clone()).map_err(|e| {
        start_error(EngineError::Config(crate::ConfigError::of(
            crate::ConfigProblem::Malformed,
            vec![e.to_string()],
        )))
    })?;
    G::new(&config, record.seed).map_err(|e| start_error(e.into()))
}

/// What [`replay_each`] calls for every action: its index, the game before, the action,
/// and the game after.
pub(crate) type Seen<'a, G> = &'a mut dyn FnMut(usize, &G, <G as Game>::Action, &G);

/// Replays `record`, calling `seen(index, before, action, after)` for every action.
pub(crate) fn replay_each<G: Game>(
    record: &GameRecord,
    seen: Seen<'_, G>,
) -> Result<G, ReplayError> {
    replay_steps(&*upgraded::<G>(record)?, Some(seen))
}

fn replay_steps<G: Game>(
    record: &GameRecord,
    mut seen: Option<Seen<'_, G>>,
) -> Result<G, ReplayError> {
    let mut game = start::<G>(record)?;
    for (index, text) in record.actions.iter().enumerate() {
        let fail = |error: EngineError| ReplayError {
            index,
            action: text.clone(),
            error,
        };
        let action: G::Action = text
            .parse()
            .map_err(|e: crate::ParseActionError| fail(e.into()))?;
        if game.to_act().is_none() {
            return Err(fail(EngineError::GameOver));
        }
        match seen.as_mut() {
            Some(seen) => {
                let before = game.clone();
                game.apply(action).map_err(|e| fail(e.erase().into()))?;
                seen(index, &before, action, &game);
            }
            None => game.apply(action).map_err(|e| fail(e.erase().into()))?,
        }
    }
    Ok(game)
}
