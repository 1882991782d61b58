//! The engine every `tabletop` game is built on.
//!
//! A game is a pure, deterministic state machine behind the [`Game`] trait: its randomness
//! is a seeded stream kept inside the state, so a game is fully described by
//! `config + seed + actions` (a [`GameRecord`]) and replaying that record reproduces it
//! exactly. Everything else in the workspace (bots, simulation, the terminal, the server)
//! is generic over [`Game`], or drives it by name through the type-erased [`DynState`].
//!
//! ```
//! use engine::{Game, Viewer};
//! # fn demo<G: Game>(config: &G::Config) -> Result<(), Box<dyn std::error::Error>> {
//! let mut game = G::new(config, 7)?;
//! let mut legal = Vec::new();
//! while game.to_act().is_some() {
//!     game.legal_actions(&mut legal);
//!     game.apply(legal[0])?;
//! }
//! let outcome = game.outcome().expect("a finished game has an outcome");
//! println!("{:?} {}", outcome.winners(), game.view(Viewer::Spectator));
//! # Ok(()) }
//! ```

pub mod about;
pub mod conformance;
pub mod ending;
mod erased;
mod error;
pub mod guide;
mod holding;
mod inline;
mod key;
pub mod lesson;
pub mod log;
mod moves;
mod outcome;
mod record;
mod rng;
pub mod session;
pub mod tensor;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod text;

pub use about::{About, GameOption, Group, Input, LegalMove, MoveText, OptionChoice, Players};
pub use ending::{Ending, ScoreLine, SeatScore};
pub use erased::{load_state, load_state_file, DynGame, DynState, StateFile, Typed};
pub use error::{
    is_code, Coded, ConfigError, ConfigProblem, EngineError, IllegalAction, ParseActionError,
    Refused, StateError,
};
pub use guide::{Block, Rules, Section};
pub use holding::{Held, Holding, Moment};
pub use inline::InlineVec;
pub use key::{Deal, KeyHasher, PositionKey};
pub use log::{Event, LogEntry, LogEvent, Names};
pub use moves::{AnyAction, Move};
pub use outcome::Outcome;
pub use record::{replay, GameRecord, ReplayError};
pub use rng::{derive_seed, rng_from_seed, shuffle, GameRng};
pub use session::{is_table_move, session_log, Session, TableEvent, TableMove, TableRefusal};
pub use tensor::{IndexError, Tensor};

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

/// A seat at the table, numbered from 0 in turn order.
pub type Seat = usize;

/// Who is looking at the game: one seat, or a spectator who sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    /// The seat, if this viewer sits at the table.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// A game's rules as a deterministic state machine.
///
/// Implementors keep all randomness in the state (a [`GameRng`]), so [`Game::apply`] is a
/// pure function of the state and the action.
pub trait Game:
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
    /// One thing a move did, as one viewer may know it (see [`log`]).
    type Event: Event;
    /// Why the rules refuse an action: one variant per rule, whose `Display` says the rule
    /// in plain words ("seat 1 holds no 9") and whose [`Coded::code`] names it for machines,
    /// stably, as `<NAME>/<snake_case>` ("dropsite/card_not_in_hand"). [`Game::apply`]
    /// returns it inside [`IllegalAction`].
    type Refusal: Clone + Debug + Coded + PartialEq + Send + Sync + 'static;

    /// The name used on the command line and in files.
    const NAME: &'static str;

    /// The version of this game's record and state formats. Records and state files say
    /// which they were written in (absent means 1); an older one is brought up to this
    /// version once, when it is loaded ([`Game::upgrade_record`], [`Game::upgrade_state`]),
    /// so the rules hold no branches for old files.
    const FORMAT: u32 = 1;

    /// Brings a whole record (config, seed and actions), written in format `from` (older
    /// than [`Game::FORMAT`]), up to the current format; `record.format` is set by the
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

    /// Brings a state's JSON, written in format `from` (older than [`Game::FORMAT`]), up
    /// to the current format. The default has nothing to upgrade.
    ///
    /// # Errors
    /// What cannot be upgraded, in words.
    fn upgrade_state(from: u32, state: &mut serde_json::Value) -> Result<(), String> {
        let _ = (from, state);
        Ok(())
    }

    /// The game described for people: its title, its options in words, its printed
    /// components. Option defaults are filled in from [`Game::Config`]'s `Default` by
    /// [`DynGame::about`].
    fn about() -> About;

    /// The rules written for people: what the game is, its components (tables filled from
    /// the game's own data), set-up, a turn, every rule, scoring and the options.
    fn rules() -> Rules;
    /// The game's lessons, each a JSON text in the lesson format ([`lesson`],
    /// docs/lessons.md), usually `include_str!` of the crate's `lessons/*.json`. None by
    /// default.
    fn lessons() -> &'static [&'static str] {
        &[]
    }

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

    /// Why the game ended (the rule, in words, naming seats with `names`) and each seat's
    /// score line by line, once the game is over; `None` before (the end is public, play
    /// is not). Built from the game's own scoring, so each seat's lines add up to its
    /// total and the totals are [`Game::outcome`]'s scores (the conformance harness checks
    /// it). The default gives each seat one line, its score.
    fn ending(&self, names: &Names) -> Option<Ending> {
        let _ = names;
        self.outcome()
            .map(|o| ending::from_outcome("the game is over", &o))
    }

    /// Each seat's score as the board shows it now, line by line, from what everyone may
    /// see: what a game stopped by resignations ([`Session`]) scores. `None` when the
    /// board shows no score before the end (the default).
    fn standing(&self) -> Option<Vec<SeatScore>> {
        None
    }

    /// What `viewer` may see of the game, and nothing more.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// What `viewer` may know happened when `action` took `before` to `after`, in the
    /// order it happened. Worked out only when someone reads it, never inside
    /// [`Game::apply`]. Describe the move from `viewer`'s views before and after it plus
    /// the public part of `action`, so it tells nothing those do not: the conformance
    /// harness checks that the events stay the same when what `viewer` cannot see is
    /// resampled, or when the action is one `viewer` cannot tell apart from another.
    fn events(
        before: &Self,
        action: Self::Action,
        after: &Self,
        viewer: Viewer,
    ) -> Vec<Self::Event>;

    /// The part of `action` (taken now, in this state) that `viewer` may know, as text.
    /// The default is the whole notation; games whose actions hide something (a card
    /// banked face down) leave it out. [`Game::events`] may tell this and what the views
    /// show, nothing more: the conformance harness checks that two moves with the same
    /// public part and the same resulting view are told the same way.
    fn public_action(&self, action: Self::Action, viewer: Viewer) -> String {
        let _ = viewer;
        action.to_string()
    }

    /// A state that `seat` cannot tell apart from this one: everything hidden from `seat`
    /// (other hands, face-down piles, deck order, the future random stream) is resampled
    /// consistently with what `seat` sees.
    fn determinize<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self;

    /// Checks the state's invariants (components conserved, counts in range), reporting
    /// every problem. A state loaded from a file is checked with this before use.
    ///
    /// # Errors
    /// The list of problems found.
    fn validate(&self) -> Result<(), Vec<String>>;

    /// Rounds played so far (for statistics); games without rounds report 1.
    fn rounds(&self) -> u32 {
        1
    }

    /// What `seat` holds at `moment`, for studies of win rate by what a seat held. A
    /// study asks the new game ([`Moment::Start`]) and the finished one ([`Moment::End`])
    /// and keeps both answers, so a game answers each aspect at the moment it is known
    /// (a first hand at the start, recruits chosen during play at the end). The default
    /// holds nothing.
    fn holdings(&self, seat: Seat, moment: Moment) -> Vec<Holding> {
        let _ = (seat, moment);
        Vec::new()
    }

    /// A heuristic value of the position for `seat`, higher is better. Bots use it for
    /// look-ahead; the default only knows finished games.
    fn evaluate(&self, seat: Seat) -> f64 {
        match self.outcome() {
            Some(o) => o.reward(seat),
            None => 0.5,
        }
    }

    /// [`Game::evaluate`] for every seat in order, into `out` (emptied first). A game
    /// whose value for one seat compares it with the others may work them all out at
    /// once; the values must be those `evaluate` gives.
    fn evaluate_all(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend((0..self.seats()).map(|s| self.evaluate(s)));
    }

    /// Whether `action`, taken now by the seat to act, could be taken back afterwards
    /// (undo, see [`Session`]): it draws, turns, rolls or shuffles nothing (no card drawn
    /// or revealed, no die rolled), shows nothing hidden to anyone, and needs no other
    /// seat's part (an accepted trade, a decision that passes to another seat). An action
    /// that is not legal here cannot be taken back. Answer from what the seat to act may
    /// know: the conformance harness checks that the answer stays the same when what that
    /// seat cannot see is resampled. When in doubt, `false`; the default takes nothing
    /// back.
    fn may_take_back(&self, action: Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Where the game stands for the seat to act, for bots that must not go round in
    /// circles within a turn (see [`PositionKey`]); `None` once the game is over. Worked
    /// out only from what the seat to act may know: the conformance harness checks that
    /// it stays the same when what that seat cannot see is resampled. The default gives
    /// none, and bots then keep no memory of the turn.
    fn position_key(&self) -> Option<PositionKey> {
        None
    }

    /// The seat that `action`, taken now, opens a proposal to: a deal (a trade offer)
    /// that seat will be asked to answer in this turn. Bots open at most one a turn to
    /// each seat. The default opens none.
    fn proposal_to(&self, action: Self::Action) -> Option<Seat> {
        let _ = action;
        None
    }

    /// What `action`, taken now, does in a deal between seats (a trade offer): nothing,
    /// pursue one (open, build, send or accept it) or drop one (cancel or decline it).
    /// Bots pursue a deal only when their search finds it better than leaving it; the
    /// statistics count both kinds as trading. The default: no action is part of a deal.
    fn deal(&self, action: Self::Action) -> Deal {
        let _ = action;
        Deal::None
    }

    /// What a client needs to show `action`, legal now, to the seat to act: a label in
    /// words for this position (a cost or a change as the rules work it out here) and
    /// where it goes on the board, in the keys the game's page gives its parts. Worked out
    /// only from what the seat to act may know: the conformance harness checks that it
    /// stays the same when what that seat cannot see is resampled. The default labels a
    /// move with its notation and places it nowhere.
    fn describe(&self, action: Self::Action) -> MoveText {
        MoveText::words(action.to_string())
    }

    /// Whether `action` is legal now. The default asks [`Game::legal_actions`].
    fn is_legal(&self, action: Self::Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal.contains(&action)
    }
}
