//! A game's state behind one type for every game (the CLI, the server, lessons): its
//! moves parsed once into [`AnyAction`], its views and state as JSON.
use crate::about::LegalMove;
use crate::ending::{Ending, SeatScore};
use crate::error::{EngineError, IllegalAction, ParseActionError, StateError};
use crate::event::LogEvent;
use crate::game::{Game, GameRules, Present, Search};
use crate::log::{step_events, write_step_events};
use crate::moves::AnyAction;
use crate::outcome::Outcome;
use crate::seat::{Seat, Viewer};
use crate::text::{or_list, Names};
use serde::{Deserialize, Serialize};
use std::any::Any;

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
    /// ([`Present::describe`]).
    fn moves(&self) -> Vec<LegalMove>;
    /// [`DynState::moves`] as a JSON list, written into `out`.
    fn write_moves_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
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
    /// [`Search::may_take_back`]); `false` for an illegal action or another game's.
    fn may_take_back_any(&self, action: &AnyAction) -> bool;
    fn view_json(&self, viewer: Viewer) -> serde_json::Value;
    /// What `viewer` may know happened when `action` took this state to `after`; `None`
    /// when `after` or `action` is another game's.
    fn step_events(
        &self,
        action: &AnyAction,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
    ) -> Option<Vec<LogEvent>>;
    /// Writes the same events as [`DynState::step_events`] straight to JSON text (an
    /// array of [`LogEvent`] objects, no `Value` tree in between): `false`, with nothing
    /// written, where `step_events` would answer `None`.
    ///
    /// # Errors
    /// An event does not serialize (none of the catalog's games can fail).
    fn write_step_events_json(
        &self,
        action: &AnyAction,
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
    /// ([`Present::ending`]).
    fn ending(&self, names: &Names) -> Option<Ending>;
    /// Each seat's score as the board shows it now ([`Present::standing`]).
    fn standing(&self) -> Option<Vec<SeatScore>>;
    fn rounds(&self) -> u32;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
}

/// Appends `text` as a JSON string, the bytes serde_json writes for it: copied as it is
/// when nothing in it needs escaping (notations, labels and board keys as a rule), through
/// serde_json otherwise. The server writes the acting seat's moves on every push, and
/// serde_json's escaping goes byte by byte.
fn push_json_str(out: &mut Vec<u8>, text: &str) -> serde_json::Result<()> {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        serde_json::to_writer(out, text)
    }
}

/// Appends the notation of `action` as a JSON string, written into `scratch` first (one
/// buffer for every action of a list).
fn push_notation<A: std::fmt::Display>(
    out: &mut Vec<u8>,
    scratch: &mut String,
    action: &A,
) -> serde_json::Result<()> {
    use std::fmt::Write as _;
    scratch.clear();
    write!(scratch, "{action}").map_err(serde::ser::Error::custom)?;
    push_json_str(out, scratch)
}

/// An action and the state it led to, as `G`'s own: `None` when either is another
/// game's.
fn step_of<'a, G: Game>(action: &AnyAction, after: &'a dyn DynState) -> Option<(G::Action, &'a G)> {
    Some((action.get()?, after.as_any().downcast_ref::<G>()?))
}

/// `action` as `G`'s own; another game's action is refused as one that does not parse.
fn typed<G: Game>(action: &AnyAction) -> Result<G::Action, ParseActionError> {
    action
        .get::<G::Action>()
        .ok_or_else(|| ParseActionError::new(&action.to_string(), "an action of this game"))
}

/// `text` read as an action of `game`; where it is none, the error says which moves
/// there are now, when they are few enough to list ([`moves_now`]), so that it names only
/// what is in play (a base game's player is never told of an advanced card).
fn parse_here<G: Game>(game: &G, text: &str) -> Result<G::Action, ParseActionError> {
    text.trim().parse().map_err(|e: ParseActionError| {
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
            _ => format!("`{head}` {}", or_list(&rests)),
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
        GameRules::seats(self)
    }
    fn to_act(&self) -> Option<Seat> {
        GameRules::to_act(self)
    }
    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.iter().map(ToString::to_string).collect()
    }
    fn write_legal_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        let mut scratch = String::new();
        out.push(b'[');
        for (i, action) in actions.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            push_notation(out, &mut scratch, action)?;
        }
        out.push(b']');
        Ok(())
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
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        // The fields of a `LegalMove` in its order, `from` and `to` left out when `None`.
        let mut scratch = String::new();
        out.push(b'[');
        for (i, &action) in actions.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let text = self.describe(action);
            out.extend_from_slice(br#"{"action":"#);
            push_notation(out, &mut scratch, &action)?;
            out.extend_from_slice(br#","label":"#);
            push_json_str(out, &text.label)?;
            if let Some(from) = &text.from {
                out.extend_from_slice(br#","from":"#);
                push_json_str(out, from)?;
            }
            if let Some(to) = &text.to {
                out.extend_from_slice(br#","to":"#);
                push_json_str(out, to)?;
            }
            out.push(b'}');
        }
        out.push(b']');
        Ok(())
    }
    fn parse_action(&self, text: &str) -> Result<AnyAction, EngineError> {
        Ok(AnyAction::new(parse_here(self, text)?))
    }
    fn apply_any(&mut self, action: &AnyAction) -> Result<(), EngineError> {
        let action = typed::<G>(action)?;
        if GameRules::to_act(self).is_none() {
            return Err(EngineError::GameOver);
        }
        self.apply(action).map_err(IllegalAction::erase)?;
        Ok(())
    }
    fn may_take_back_any(&self, action: &AnyAction) -> bool {
        // The game's answer first: most actions of most games answer `false` at once,
        // without working out the legal actions.
        action.get::<G::Action>().is_some_and(|action| {
            GameRules::to_act(self).is_some()
                && Search::may_take_back(self, action)
                && self.is_legal(action)
        })
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
    fn step_events(
        &self,
        action: &AnyAction,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
    ) -> Option<Vec<LogEvent>> {
        let (action, after) = step_of::<G>(action, after)?;
        Some(step_events(self, action, after, viewer, names))
    }
    fn write_step_events_json(
        &self,
        action: &AnyAction,
        after: &dyn DynState,
        viewer: Viewer,
        names: &Names,
        out: &mut Vec<u8>,
    ) -> serde_json::Result<bool> {
        let Some((action, after)) = step_of::<G>(action, after) else {
            return Ok(false);
        };
        write_step_events(self, action, after, viewer, names, out)?;
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
        GameRules::outcome(self)
    }
    fn ending(&self, names: &Names) -> Option<Ending> {
        Present::ending(self, names)
    }
    fn standing(&self) -> Option<Vec<SeatScore>> {
        Present::standing(self)
    }
    fn rounds(&self) -> u32 {
        Search::rounds(self)
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
    /// The game's state format it was written in ([`Formats::FORMAT`]); absent means 1.
    #[serde(default = "crate::record::first_format")]
    pub format: u32,
    pub state: serde_json::Value,
}

/// Loads a state file of game `G`: its state brought up to `G`'s format
/// ([`Formats::upgrade_state`]), then validated.
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

#[cfg(test)]
mod written {
    use super::push_json_str;

    #[test]
    fn a_string_is_written_as_serde_json_writes_it_whether_or_not_it_needs_escaping() {
        for text in [
            "",
            "7 new",
            "Play 7 on drop site 2 (on the 9)",
            "a \"quote\"",
            "back\\slash",
            "tab\there, line\nend, bell\u{7}",
            "d\u{e9}j\u{e0} \u{2605} \u{7f}",
        ] {
            let mut out = Vec::new();
            push_json_str(&mut out, text).expect("writes");
            assert_eq!(
                out,
                serde_json::to_vec(text).expect("serializes"),
                "{text:?}"
            );
        }
    }
}
