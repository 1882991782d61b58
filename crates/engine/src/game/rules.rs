//! The rules: a game as a deterministic state machine (new, who acts, the legal actions,
//! apply, the outcome and what each viewer sees).
use crate::error::{Coded, ConfigError, IllegalAction, ParseActionError};
use crate::outcome::Outcome;
use crate::seat::{Seat, Viewer};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// A game's rules as a deterministic state machine.
///
/// Implementors keep all randomness in the state (a [`crate::GameRng`]), so
/// [`GameRules::apply`] is a pure function of the state and the action.
pub trait GameRules:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Player count and variants; `Default` is the standard game.
    type Config: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One small decision. Its `Display` text is the notation everywhere (CLI, server,
    /// records) and parses back with `FromStr` without needing a state.
    type Action: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err = ParseActionError>
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// What one viewer may see. `Display` renders it for a terminal.
    type View: Clone + Debug + PartialEq + Serialize + Display + Send + Sync;
    /// Why the rules refuse an action: one variant per rule, whose `Display` says the rule
    /// in plain words ("seat 1 holds no 9") and whose [`Coded::code`] names it for machines,
    /// stably, as `<NAME>/<snake_case>` ("dropsite/card_not_in_hand").
    /// [`GameRules::apply`] returns it inside [`IllegalAction`].
    type Refusal: Clone + Debug + Coded + PartialEq + Send + Sync + 'static;
    /// The name used on the command line and in files.
    const NAME: &'static str;
    /// A new game from a config and a seed.
    ///
    /// # Errors
    /// Every problem with the config, at once.
    fn new(config: &Self::Config, seed: u64) -> Result<Self, ConfigError>;
    /// The config this game was made with.
    fn config(&self) -> &Self::Config;
    /// How many seats the table has.
    fn seats(&self) -> usize;
    /// The seat whose decision it is; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// Clears `out` and fills it with every legal action, each once, in a fixed order.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Applies one action for the seat to act.
    ///
    /// # Errors
    /// [`IllegalAction`] when the action is not legal here; the state is then unchanged.
    fn apply(&mut self, action: Self::Action) -> Result<(), IllegalAction<Self::Refusal>>;
    /// Scores and places once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// What `viewer` may see of the game, and nothing more.
    fn view(&self, viewer: Viewer) -> Self::View;
    /// Whether `action` is legal now. The default asks [`GameRules::legal_actions`].
    fn is_legal(&self, action: Self::Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal.contains(&action)
    }
}
