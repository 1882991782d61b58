//! Games known by name: each makes, loads and replays its states behind [`DynGame`].
use crate::about::About;
use crate::dyn_state::{load_state, load_state_file, DynState, StateFile};
use crate::error::{ConfigError, ConfigProblem, EngineError};
use crate::event::LogEntry;
use crate::game::Game;
use crate::guide::Rules;
use crate::lesson::{parse_lessons, Lesson, LessonError};
use crate::record::{GameRecord, ReplayError};
use crate::replay::{replay, replay_log, start, upgrade, upgraded};
use crate::seat::Viewer;
use crate::session::Session;
use crate::text::Names;
use std::marker::PhantomData;

/// A game known by name: makes and loads its states.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    /// The default config as JSON (the options a table can set).
    fn default_config(&self) -> serde_json::Value;
    /// The game described for people (options in words with their defaults, components).
    fn about(&self) -> About;
    /// The rules written for people ([`Present::rules`]).
    fn rules(&self) -> Rules;
    /// A new game from options given as JSON (unknown options are an error).
    ///
    /// # Errors
    /// A config that does not parse or does not validate.
    fn new_state(
        &self,
        config: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn DynState>, EngineError>;
    /// A state from its JSON (the `state` part of a [`StateFile`]), validated.
    ///
    /// # Errors
    /// Malformed JSON or a state that breaks the game's invariants.
    fn load_state(&self, state: &serde_json::Value) -> Result<Box<dyn DynState>, EngineError>;
    /// A state from a whole state file, brought up to the game's format first
    /// ([`Formats::upgrade_state`]) and validated.
    ///
    /// # Errors
    /// A newer format than this program knows, malformed JSON or a broken state.
    fn load_file(&self, file: &StateFile) -> Result<Box<dyn DynState>, EngineError>;
    /// The game's record and state format ([`Formats::FORMAT`]).
    fn format(&self) -> u32;
    /// The game's lessons ([`Present::lessons`]), parsed.
    ///
    /// # Errors
    /// A lesson text that is not lesson data.
    fn lessons(&self) -> Result<Vec<Lesson>, LessonError>;
    /// Sets a table of `players` in `options` (a config's JSON object): the `players`
    /// option of a game that has one; nothing for a game that always seats that many.
    ///
    /// # Errors
    /// A number of players the game does not seat, in words.
    fn with_players(
        &self,
        options: &mut serde_json::Map<String, serde_json::Value>,
        players: usize,
    ) -> Result<(), ConfigError> {
        let about = self.about();
        let range = about.players;
        if !range.allows(players) {
            let seats = if range.min == range.max {
                format!("is always played by {} players", range.min)
            } else {
                format!("seats {} to {} players", range.min, range.max)
            };
            return Err(ConfigError::of(
                ConfigProblem::Players,
                vec![format!("{} {seats}, not {players}", about.title)],
            ));
        }
        if self.default_config().get("players").is_some() {
            options.insert("players".into(), players.into());
        }
        Ok(())
    }
    /// Replays a record.
    ///
    /// # Errors
    /// The first step that does not replay.
    fn replay(&self, record: &GameRecord) -> Result<Box<dyn DynState>, ReplayError>;
    /// Replays a record, table moves (`undo`, `resign N`) included, into a [`Session`]
    /// that can go on from there.
    ///
    /// # Errors
    /// The first entry that does not replay.
    fn replay_session(&self, record: &GameRecord) -> Result<Session, ReplayError>;
    /// `record` in the game's current format ([`Formats::upgrade_record`]), with the index
    /// in `record` of each of its actions (every index, in order, for a record that
    /// needed nothing).
    ///
    /// # Errors
    /// A record of a newer format than this program knows, or one the game cannot
    /// upgrade.
    fn upgrade_record(&self, record: &GameRecord) -> Result<(GameRecord, Vec<usize>), ReplayError>;
    /// Replays a record and tells its actions from index `since` on as `viewer` may know
    /// them.
    ///
    /// # Errors
    /// The first step that does not replay.
    fn log(
        &self,
        record: &GameRecord,
        viewer: Viewer,
        names: &Names,
        since: usize,
    ) -> Result<Vec<LogEntry>, ReplayError>;
}

/// The [`DynGame`] of a concrete game type.
pub struct Typed<G>(PhantomData<fn() -> G>);

impl<G> Default for Typed<G> {
    fn default() -> Self {
        Typed(PhantomData)
    }
}

impl<G: Game> Typed<G> {
    /// Parses a config from JSON, naming the game in errors.
    ///
    /// # Errors
    /// The serde problem, as a [`ConfigError`].
    pub fn config(value: &serde_json::Value) -> Result<G::Config, ConfigError> {
        serde_json::from_value(value.clone()).map_err(|e| {
            ConfigError::of(ConfigProblem::Malformed, vec![format!("{}: {e}", G::NAME)])
        })
    }
}

impl<G: Game> DynGame for Typed<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn default_config(&self) -> serde_json::Value {
        serde_json::to_value(G::Config::default()).unwrap_or_default()
    }
    fn about(&self) -> About {
        G::about().defaults(&self.default_config())
    }
    fn rules(&self) -> Rules {
        G::rules()
    }
    fn new_state(
        &self,
        config: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn DynState>, EngineError> {
        let config = Self::config(config)?;
        Ok(Box::new(G::new(&config, seed)?))
    }
    fn load_state(&self, state: &serde_json::Value) -> Result<Box<dyn DynState>, EngineError> {
        Ok(Box::new(load_state::<G>(state)?))
    }
    fn load_file(&self, file: &StateFile) -> Result<Box<dyn DynState>, EngineError> {
        Ok(Box::new(load_state_file::<G>(file)?))
    }
    fn format(&self) -> u32 {
        G::FORMAT
    }
    fn lessons(&self) -> Result<Vec<Lesson>, LessonError> {
        parse_lessons(G::NAME, G::lessons())
    }
    fn replay(&self, record: &GameRecord) -> Result<Box<dyn DynState>, ReplayError> {
        Ok(Box::new(replay::<G>(record)?))
    }
    fn replay_session(&self, record: &GameRecord) -> Result<Session, ReplayError> {
        let record = upgraded::<G>(record)?;
        let start = start::<G>(&record)?;
        Session::replay(Box::new(start), &record.actions)
    }
    fn upgrade_record(&self, record: &GameRecord) -> Result<(GameRecord, Vec<usize>), ReplayError> {
        if record.format == G::FORMAT {
            return Ok((record.clone(), (0..record.actions.len()).collect()));
        }
        // (A newer format is refused here.)
        upgraded::<G>(record)?;
        upgrade::<G>(record)
    }
    fn log(
        &self,
        record: &GameRecord,
        viewer: Viewer,
        names: &Names,
        since: usize,
    ) -> Result<Vec<LogEntry>, ReplayError> {
        replay_log::<G>(record, viewer, names, since)
    }
}
