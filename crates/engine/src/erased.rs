//! Games driven by name, through their text and JSON forms (the CLI and the server).
use crate::log::{LogEntry, LogEvent, Names};
use crate::moves::AnyAction;
use crate::{
    ConfigError, ConfigProblem, Ending, EngineError, Game, IllegalAction, LegalMove, Outcome, Seat,
    SeatScore, StateError, Viewer,
};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::marker::PhantomData;

/// A game state of any game, behind its text and JSON forms.
pub trait DynState: Send + Sync {
    fn game_name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions in notation.
    fn legal(&self) -> Vec<String>;
    /// The same actions written straight to a JSON list of their notations.
    fn write_legal_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
    /// The legal actions, each with its label and its place on the board
    /// ([`Game::describe`]).
    fn moves(&self) -> Vec<LegalMove>;
    /// [`DynState::moves`] as a JSON list, written into `out`.
    fn write_moves_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
    /// Parses and applies one action.
    ///
    /// # Errors
    /// Malformed, illegal, or the game is over; the state is then unchanged.
    fn apply_text(&mut self, action: &str) -> Result<(), EngineError>;
    /// `text` read as one of this game's actions (not yet checked against the rules);
    /// where it is none, the error lists the moves there are now when they are few.
    ///
    /// # Errors
    /// [`EngineError::Parse`].
    fn parse_action(&self, text: &str) -> Result<AnyAction, EngineError>;
    /// Plays `action` (parsed by [`DynState::parse_action`]); nothing changes if it is
    /// refused.
    ///
    /// # Errors
    /// [`EngineError::Illegal`] (a rule refuses it), [`EngineError::GameOver`], or
    /// [`EngineError::Parse`] when `action` is another game's.
    fn apply_any(&mut self, action: &AnyAction) -> Result<(), EngineError>;
    /// Whether the seat that plays `action` here may take it back afterwards (see
    /// [`Game::may_take_back`]); `false` for an illegal action or another game's.
    fn may_take_back_any(&self, action: &AnyAction) -> bool;
    /// Whether `action` (notation), taken now by the seat to act, could be taken back
    /// afterwards ([`Game::may_take_back`]); `false` for text that does not parse, for an
    /// illegal action and once the game is over.
    fn may_take_back(&self, action: &str) -> bool;
    /// The action's own notation (what its parse prints back): `"5  DEBT"` becomes
    /// `"5 debt"`.
    ///
    /// # Errors
    /// The text is no action of this game.
    fn canonical(&self, action: &str) -> Result<String, EngineError>;
    fn view_json(&self, viewer: Viewer) -> serde_json::Value;
    /// What `viewer` may know happened when `action` (notation) took this state to
    /// `after`; `None` when `after` is another game or the action does not parse.
    fn events(
        &self,
        action: &str,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
    ) -> Option<Vec<LogEvent>>;
    /// Writes the same events as [`DynState::events`] straight to JSON text (an array of
    /// [`LogEvent`] objects, no `Value` tree in between): `false`, with nothing written,
    /// where `events` would answer `None`.
    ///
    /// # Errors
    /// An event does not serialize (none of the catalog's games can fail).
    fn write_events_json(
        &self,
        action: &str,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
        out: &mut Vec<u8>,
    ) -> serde_json::Result<bool>;
    /// Writes the same view as [`DynState::view_json`] straight to JSON text, with no
    /// `Value` tree in between (the server's pushes). Keys keep the view's field order.
    ///
    /// # Errors
    /// The view does not serialize (none of the catalog's games can fail).
    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>) -> serde_json::Result<()>;
    fn view_text(&self, viewer: Viewer) -> String;
    fn state_json(&self) -> serde_json::Value;
    fn config_json(&self) -> serde_json::Value;
    fn outcome(&self) -> Option<Outcome>;
    /// Why the game ended and each seat's score line by line, once it is over
    /// ([`Game::ending`]).
    fn ending(&self, names: &Names) -> Option<Ending>;
    /// Each seat's score as the board shows it now ([`Game::standing`]).
    fn standing(&self) -> Option<Vec<SeatScore>>;
    fn rounds(&self) -> u32;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
}

/// Actions serialized as a list of their notations (each written by its `Display`, no
/// `String` made for it).
struct Notations<'a, A>(&'a [A]);

impl<A: std::fmt::Display> Serialize for Notations<'_, A> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for action in self.0 {
            seq.serialize_element(&Text(action))?;
        }
        seq.end()
    }
}

/// One value serialized as the string its `Display` writes.
struct Text<'a, A>(&'a A);

impl<A: std::fmt::Display> Serialize for Text<'_, A> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// An action in notation and the state it led to, as `G`'s own: `None` when the action
/// does not parse or `after` is another game.
fn step_of<'a, G: Game>(action: &str, after: &'a dyn DynState) -> Option<(G::Action, &'a G)> {
    let action = action.trim().parse().ok()?;
    Some((action, after.as_any().downcast_ref::<G>()?))
}

/// `action` as `G`'s own; another game's action is refused as one that does not parse.
fn typed<G: Game>(action: &AnyAction) -> Result<G::Action, crate::ParseActionError> {
    action
        .get::<G::Action>()
        .ok_or_else(|| crate::ParseActionError::new(&action.to_string(), "an action of this game"))
}

/// `text` read as an action of `game`; where it is none, the error says which moves
/// there are now, when they are few enough to list ([`moves_now`]), so that it names only
/// what is in play (a base game's player is never told of an advanced card).
fn parse_here<G: Game>(game: &G, text: &str) -> Result<G::Action, crate::ParseActionError> {
    text.trim().parse().map_err(|e: crate::ParseActionError| {
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        match moves_now(&legal) {
            Some(moves) => e.expecting(moves),
            None => e,
        }
    })
}

/// The moves in `legal` told in a few words, grouped by their first word: "the moves now
/// are pick A, B, C or D", "the moves now are play 3, 7 or guard, or skip"; `None` when
/// that would be too long to read (the game's own description of its notation is then
/// better).
pub fn moves_now<A: std::fmt::Display>(legal: &[A]) -> Option<String> {
    const LONGEST: usize = 160;
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for action in legal {
        let text = action.to_string();
        let (head, rest) = match text.split_once(' ') {
            Some((head, rest)) => (head.to_string(), Some(rest.to_string())),
            None => (text, None),
        };
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, rests)) => rests.extend(rest),
            None => groups.push((head, rest.into_iter().collect())),
        }
    }
    let said: Vec<String> = groups
        .into_iter()
        .map(|(head, rests)| match rests.as_slice() {
            [] => format!("`{head}`"),
            _ => format!("`{head}` {}", crate::text::or_list(&rests)),
        })
        .collect();
    let text = match said.as_slice() {
        [] => return None,
        [one] => format!("the move now is {one}"),
        _ => format!("the moves now are {}", said.join("; ")),
    };
    (text.len() <= LONGEST).then_some(text)
}

impl<G: Game> DynState for G {
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        Game::seats(self)
    }
    fn to_act(&self) -> Option<Seat> {
        Game::to_act(self)
    }
    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.iter().map(ToString::to_string).collect()
    }
    fn write_legal_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        serde_json::to_writer(out, &Notations(&actions))
    }
    fn moves(&self) -> Vec<LegalMove> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions
            .iter()
            .map(|&a| LegalMove {
                action: a.to_string(),
                text: self.describe(a),
            })
            .collect()
    }
    fn write_moves_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, &self.moves())
    }
    fn apply_text(&mut self, text: &str) -> Result<(), EngineError> {
        let action = parse_here(self, text)?;
        if Game::to_act(self).is_none() {
            return Err(EngineError::GameOver);
        }
        self.apply(action).map_err(IllegalAction::erase)?;
        Ok(())
    }
    fn parse_action(&self, text: &str) -> Result<AnyAction, EngineError> {
        Ok(AnyAction::new(parse_here(self, text)?))
    }
    fn apply_any(&mut self, action: &AnyAction) -> Result<(), EngineError> {
        let action = typed::<G>(action)?;
        if Game::to_act(self).is_none() {
            return Err(EngineError::GameOver);
        }
        self.apply(action).map_err(IllegalAction::erase)?;
        Ok(())
    }
    fn may_take_back_any(&self, action: &AnyAction) -> bool {
        action.get::<G::Action>().is_some_and(|action| {
            Game::to_act(self).is_some()
                && Game::may_take_back(self, action)
                && self.is_legal(action)
        })
    }
    fn may_take_back(&self, text: &str) -> bool {
        match text.trim().parse::<G::Action>() {
            Ok(action) => {
                // The game's answer first: most actions of most games answer `false`
                // at once, without working out the legal actions.
                Game::to_act(self).is_some()
                    && Game::may_take_back(self, action)
                    && self.is_legal(action)
            }
            Err(_) => false,
        }
    }
    fn canonical(&self, text: &str) -> Result<String, EngineError> {
        let action = parse_here(self, text)?;
        Ok(action.to_string())
    }
    fn view_json(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.view(viewer)).unwrap_or(serde_json::Value::Null)
    }
    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, &self.view(viewer))
    }
    fn view_text(&self, viewer: Viewer) -> String {
        self.view(viewer).to_string()
    }
    fn events(
        &self,
        action: &str,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
    ) -> Option<Vec<LogEvent>> {
        let (action, after) = step_of::<G>(action, after)?;
        Some(crate::log::step_events(self, action, after, viewer, names))
    }
    fn write_events_json(
        &self,
        action: &str,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
        out: &mut Vec<u8>,
    ) -> serde_json::Result<bool> {
        let Some((action, after)) = step_of::<G>(action, after) else {
            return Ok(false);
        };
        crate::log::write_step_events(self, action, after, viewer, names, out)?;
        Ok(true)
    }
    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(StateFile {
            game: G::NAME.to_string(),
            format: G::FORMAT,
            state: serde_json::to_value(self).unwrap_or_default(),
        })
        .unwrap_or_default()
    }
    fn config_json(&self) -> serde_json::Value {
        serde_json::to_value(self.config()).unwrap_or_default()
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn ending(&self, names: &Names) -> Option<Ending> {
        Game::ending(self, names)
    }
    fn standing(&self) -> Option<Vec<SeatScore>> {
        Game::standing(self)
    }
    fn rounds(&self) -> u32 {
        Game::rounds(self)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The position file: the game's name and its full state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateFile {
    pub game: String,
    /// The game's state format it was written in ([`Game::FORMAT`]); absent means 1.
    #[serde(default = "crate::record::first_format")]
    pub format: u32,
    pub state: serde_json::Value,
}

/// A game known by name: makes and loads its states.
pub trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    /// The default config as JSON (the options a table can set).
    fn default_config(&self) -> serde_json::Value;
    /// The game described for people (options in words with their defaults, components).
    fn about(&self) -> crate::About;
    /// The rules written for people ([`Game::rules`]).
    fn rules(&self) -> crate::Rules;
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
    /// ([`Game::upgrade_state`]) and validated.
    ///
    /// # Errors
    /// A newer format than this program knows, malformed JSON or a broken state.
    fn load_file(&self, file: &StateFile) -> Result<Box<dyn DynState>, EngineError>;
    /// The game's record and state format ([`Game::FORMAT`]).
    fn format(&self) -> u32;
    /// The game's lessons ([`Game::lessons`]), parsed.
    ///
    /// # Errors
    /// A lesson text that is not lesson data.
    fn lessons(&self) -> Result<Vec<crate::lesson::Lesson>, crate::lesson::LessonError>;
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
    fn replay(&self, record: &crate::GameRecord) -> Result<Box<dyn DynState>, crate::ReplayError>;
    /// Replays a record, table moves (`undo`, `resign N`) included, into a [`Session`]
    /// that can go on from there.
    ///
    /// # Errors
    /// The first entry that does not replay.
    fn replay_session(
        &self,
        record: &crate::GameRecord,
    ) -> Result<crate::Session, crate::ReplayError>;
    /// `record` in the game's current format ([`Game::upgrade_record`]), with the index
    /// in `record` of each of its actions (every index, in order, for a record that
    /// needed nothing).
    ///
    /// # Errors
    /// A record of a newer format than this program knows, or one the game cannot
    /// upgrade.
    fn upgrade_record(
        &self,
        record: &crate::GameRecord,
    ) -> Result<(crate::GameRecord, Vec<usize>), crate::ReplayError>;
    /// Replays a record and tells its actions from index `since` on as `viewer` may know
    /// them.
    ///
    /// # Errors
    /// The first step that does not replay.
    fn log(
        &self,
        record: &crate::GameRecord,
        viewer: Viewer,
        names: &Names,
        since: usize,
    ) -> Result<Vec<LogEntry>, crate::ReplayError>;
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
    fn about(&self) -> crate::About {
        G::about().defaults(&self.default_config())
    }
    fn rules(&self) -> crate::Rules {
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
    fn lessons(&self) -> Result<Vec<crate::lesson::Lesson>, crate::lesson::LessonError> {
        crate::lesson::parse_lessons(G::NAME, G::lessons())
    }
    fn replay(&self, record: &crate::GameRecord) -> Result<Box<dyn DynState>, crate::ReplayError> {
        Ok(Box::new(crate::replay::<G>(record)?))
    }
    fn replay_session(
        &self,
        record: &crate::GameRecord,
    ) -> Result<crate::Session, crate::ReplayError> {
        let record = crate::record::upgraded::<G>(record)?;
        let start = crate::record::start::<G>(&record)?;
        crate::Session::replay(Box::new(start), &record.actions)
    }
    fn upgrade_record(
        &self,
        record: &crate::GameRecord,
    ) -> Result<(crate::GameRecord, Vec<usize>), crate::ReplayError> {
        if record.format == G::FORMAT {
            return Ok((record.clone(), (0..record.actions.len()).collect()));
        }
        // (A newer format is refused here.)
        crate::record::upgraded::<G>(record)?;
        crate::record::upgrade::<G>(record)
    }
    fn log(
        &self,
        record: &crate::GameRecord,
        viewer: Viewer,
        names: &Names,
        since: usize,
    ) -> Result<Vec<LogEntry>, crate::ReplayError> {
        crate::log::replay_log::<G>(record, viewer, names, since)
    }
}

/// Loads a state file of game `G`: its state brought up to `G`'s format
/// ([`Game::upgrade_state`]), then validated.
///
/// # Errors
/// A file of another game or of a newer format, malformed JSON, or every invariant the
/// state breaks.
pub fn load_state_file<G: Game>(file: &StateFile) -> Result<G, StateError> {
    let malformed = |message: String| StateError::Malformed {
        game: G::NAME.to_string(),
        message,
    };
    if file.game != G::NAME {
        return Err(malformed(format!(
            "the file holds a state of `{}`",
            file.game
        )));
    }
    if file.format > G::FORMAT {
        return Err(malformed(format!(
            "the state is in format {}, but this program knows formats up to {}: update tabletop",
            file.format,
            G::FORMAT
        )));
    }
    if file.format == G::FORMAT {
        return load_state::<G>(&file.state);
    }
    let mut state = file.state.clone();
    G::upgrade_state(file.format, &mut state).map_err(|problem| {
        malformed(format!(
            "the state (format {}) cannot be upgraded: {problem}",
            file.format
        ))
    })?;
    load_state::<G>(&state)
}

/// Loads and validates a state of game `G` from JSON, in `G`'s current format.
///
/// # Errors
/// Malformed JSON, or every invariant the state breaks.
pub fn load_state<G: Game>(state: &serde_json::Value) -> Result<G, StateError> {
    let game: G = serde_json::from_value(state.clone()).map_err(|e| StateError::Malformed {
        game: G::NAME.to_string(),
        message: e.to_string(),
    })?;
    game.validate().map_err(|problems| StateError::Invalid {
        game: G::NAME.to_string(),
        problems,
    })?;
    Ok(game)
}
