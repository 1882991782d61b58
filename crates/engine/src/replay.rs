//! Records replayed: brought up to the game's format, then played from config and seed
//! (the stored notation read once per entry), with what each step told.
use crate::error::{ConfigError, ConfigProblem, EngineError, StateError};
use crate::event::LogEntry;
use crate::game::{Game, GameRules};
use crate::log::step_events;
use crate::record::{GameRecord, ReplayError};
use crate::seat::Viewer;
use crate::session::{session_log, Session};
use crate::text::Names;

impl GameRecord {
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

/// `record` in `G`'s current format: as it is when it is already, else upgraded by the
/// game ([`Formats::upgrade_record`]).
///
/// # Errors
/// A record of a newer format than this program knows, or one the game cannot upgrade.
pub(crate) fn upgraded<G: Game>(
    record: &GameRecord,
) -> Result<std::borrow::Cow<'_, GameRecord>, ReplayError> {
    let refuse = |message: String| ReplayError {
        index: 0,
        action: String::new(),
        error: EngineError::Config(ConfigError::of(ConfigProblem::FormatTooNew, vec![message])),
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
/// each of its actions ([`Formats::upgrade_record`]).
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
            error: EngineError::Config(ConfigError::of(
                ConfigProblem::NotUpgradable,
                vec![format!(
                    "the record (format {}) cannot be upgraded: {problem}",
                    record.format
                )],
            )),
        })?;
    upgraded.format = G::FORMAT;
    Ok((upgraded, sources))
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
    let session = Session::replay(Box::new(start::<G>(record)?), &record.actions)?;
    session
        .state()
        .as_any()
        .downcast_ref::<G>()
        .cloned()
        .ok_or_else(|| wrong_game(G::NAME, record.actions.len()))
}

/// The game a record starts from: its config and seed.
pub(crate) fn start<G: Game>(record: &GameRecord) -> Result<G, ReplayError> {
    let start_error = |error: EngineError| ReplayError {
        index: 0,
        action: String::new(),
        error,
    };
    let config: G::Config = serde_json::from_value(record.config.clone()).map_err(|e| {
        start_error(EngineError::Config(ConfigError::of(
            ConfigProblem::Malformed,
            vec![e.to_string()],
        )))
    })?;
    G::new(&config, record.seed).map_err(|e| start_error(e.into()))
}

/// What [`replay_each`] calls for every action: its index, the game before, the action,
/// and the game after.
pub(crate) type Seen<'a, G> = &'a mut dyn FnMut(usize, &G, <G as GameRules>::Action, &G);

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

/// Replays `record` and tells every action from index `since` on as `viewer` may know it.
/// Table moves (`undo`, `resign N`) are told by a [`crate::TableEvent`], to every viewer
/// alike.
///
/// # Errors
/// The first step of the record that does not replay.
pub fn replay_log<G: Game>(
    record: &GameRecord,
    viewer: Viewer,
    names: &Names,
    since: usize,
) -> Result<Vec<LogEntry>, ReplayError> {
    let record = &*upgraded::<G>(record)?;
    if record.has_table_moves() {
        let start = start::<G>(record)?;
        return session_log(Box::new(start), &record.actions, viewer, names, since);
    }
    let mut log = Vec::new();
    replay_each::<G>(record, &mut |index, before, action, after| {
        if index >= since {
            log.push(LogEntry {
                index,
                seat: before.to_act().unwrap_or_default(),
                events: step_events(before, action, after, viewer, names),
            });
        }
    })?;
    Ok(log)
}

/// A game state of another game than the record's, as a replay error.
pub(crate) fn wrong_game(game: &str, index: usize) -> ReplayError {
    ReplayError {
        index,
        action: String::new(),
        error: EngineError::State(StateError::Malformed {
            game: game.to_string(),
            message: "the replayed state is of another game".into(),
        }),
    }
}
