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
mod dyn_game;
mod dyn_state;
pub mod ending;
mod error;
mod event;
mod game;
pub mod guide;
mod holding;
mod inline;
mod key;
pub mod lesson;
pub mod log;
mod moves;
mod notation;
mod outcome;
pub mod prelude;
mod record;
mod replay;
mod rng;
mod seat;
pub mod session;
pub mod tensor;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod text;

pub use about::{About, GameOption, Group, Input, LegalMove, MoveText, OptionChoice, Players};
pub use dyn_game::{DynGame, Typed};
pub use dyn_state::{load_state, load_state_file, DynState, StateFile};
pub use ending::{Ending, ScoreLine, SeatScore};
pub use error::{
    is_code, Coded, ConfigError, ConfigProblem, EngineError, IllegalAction, ParseActionError,
    Refused, StateError,
};
pub use event::{Event, LogEntry, LogEvent};
pub use game::{no_problems, Formats, Game, GameRules, Present, Search};
pub use guide::{Block, Rules, Section};
pub use holding::{Held, Holding, Moment};
pub use inline::InlineVec;
pub use key::{Deal, KeyHasher, PositionKey};
pub use moves::{is_table_move, AnyAction, Move, TableMove};
pub use outcome::Outcome;
pub use record::{GameRecord, ReplayError};
pub use replay::replay;
pub use rng::{derive_seed, rng_from_seed, shuffle, GameRng};
pub use seat::{Seat, Viewer};
pub use session::{session_log, Session, TableEvent, TableRefusal};
pub use tensor::{IndexError, Tensor};
pub use text::Names;

#[doc(hidden)]
pub use serde as __serde;
