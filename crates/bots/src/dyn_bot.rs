//! Bots behind the type-erased game interface (the CLI, the server, Python).
use crate::bot::{Bot, Observer};
use crate::guard::{Guarded, TurnMemory};
use crate::make::make_guarded;
use crate::spec::{BotError, BotSpec};
use engine::{AnyAction, DynState, Game};

/// A bot behind the type-erased game interface (the CLI and the server).
pub trait DynBot: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// The action to play, or `None` when the state is not of this bot's game or has no
    /// legal action.
    fn choose(&mut self, state: &dyn DynState) -> Option<AnyAction>;
    /// What the bot remembers of its turn so far (a server that makes a bot for each
    /// decision keeps it between them).
    fn memory(&self) -> TurnMemory;
    /// Gives the bot back what it remembered of its turn.
    fn remember(&mut self, memory: TurnMemory);
}

struct Erased<G: Game>(Guarded<G>);

impl<G: Game> DynBot for Erased<G> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn choose(&mut self, state: &dyn DynState) -> Option<AnyAction> {
        let game = state.as_any().downcast_ref::<G>()?;
        let observer = Observer::new(game)?;
        self.0.choose(&observer).map(AnyAction::new)
    }
    fn memory(&self) -> TurnMemory {
        self.0.memory().clone()
    }
    fn remember(&mut self, memory: TurnMemory) {
        self.0.remember(memory);
    }
}

/// [`crate::make_bot`] behind the type-erased interface.
///
/// # Errors
/// As [`crate::make_bot`].
pub fn make_dyn_bot<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn DynBot>, BotError> {
    Ok(Box::new(Erased(make_guarded::<G>(spec, seed)?)))
}
