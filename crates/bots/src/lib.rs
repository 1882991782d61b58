//! Bots that play any [`engine::Game`].
//!
//! A bot sees a game only through an [`Observer`]: the seat's view, its legal actions, and
//! determinizations (hidden information resampled), so it cannot read a hidden card by
//! accident. Every bot takes a seed: the same seed and the same observations give the
//! same choices.

mod heuristic;
mod ismcts;
mod random;
mod spec;

pub use heuristic::{HeuristicBot, HeuristicOptions};
pub use ismcts::{Budget, IsmctsBot, IsmctsOptions};
pub use random::RandomBot;
pub use spec::{BotError, BotSpec, Level};

use engine::{DynState, Game, Seat};
use rand::Rng;

/// What a bot may know of a game: the acting seat's view, legal actions, and
/// determinizations.
pub struct Observer<'a, G: Game> {
    game: &'a G,
    seat: Seat,
}

impl<'a, G: Game> Observer<'a, G> {
    /// The observer of the seat to act, or `None` once the game is over.
    pub fn new(game: &'a G) -> Option<Self> {
        game.to_act().map(|seat| Observer { game, seat })
    }
    /// The seat this observer sits at.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Number of seats at the table.
    pub fn seats(&self) -> usize {
        self.game.seats()
    }
    /// The seat's view.
    pub fn view(&self) -> G::View {
        self.game.view(engine::Viewer::Seat(self.seat))
    }
    /// The legal actions (they depend only on what the seat knows).
    pub fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.game.legal_actions(out);
    }
    /// A full state consistent with what the seat knows, hidden parts sampled with `rng`.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> G {
        self.game.determinize(self.seat, rng)
    }
}

/// A bot for game `G`.
pub trait Bot<G: Game>: Send {
    /// A short name for tables and logs (`random`, `ismcts:5000`).
    fn name(&self) -> String;
    /// The action to play, or `None` when there is no legal action.
    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action>;
}

/// Makes the bot a spec names.
///
/// # Errors
/// `human` is not a bot.
pub fn make_bot<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn Bot<G>>, BotError> {
    Ok(match spec {
        BotSpec::Random => Box::new(RandomBot::<G::Action>::new(seed)),
        BotSpec::Heuristic => Box::new(HeuristicBot::<G>::new(seed)),
        BotSpec::Ismcts(budget) => {
            let mut options = IsmctsOptions::default();
            if let Some(b) = budget {
                options = options.with_budget(*b);
            }
            Box::new(IsmctsBot::<G>::named(spec.to_string(), options, seed))
        }
        BotSpec::Level(level) => Box::new(IsmctsBot::<G>::named(
            spec.to_string(),
            level_options(*level),
            seed,
        )),
        BotSpec::Human => return Err(BotError::NotABot("human".into())),
    })
}

/// The search a level stands for: `easy` 100 iterations, `medium` 1,000 and `hard`
/// 4,000 on one tree per core.
pub fn level_options(level: Level) -> IsmctsOptions {
    let base = IsmctsOptions::default();
    match level {
        Level::Easy => base.with_budget(Budget::Iterations(100)),
        Level::Medium => base.with_budget(Budget::Iterations(1000)),
        Level::Hard => base.with_budget(Budget::Iterations(4000)).with_trees(0),
    }
}

/// A bot behind the type-erased game interface (the CLI and the server).
pub trait DynBot: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// The action to play in notation, or `None` when the state is not of this bot's game
    /// or has no legal action.
    fn choose_text(&mut self, state: &dyn DynState) -> Option<String>;
}

struct Erased<G: Game>(Box<dyn Bot<G>>);

impl<G: Game> DynBot for Erased<G> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn choose_text(&mut self, state: &dyn DynState) -> Option<String> {
        let game = state.as_any().downcast_ref::<G>()?;
        let observer = Observer::new(game)?;
        self.0.choose(&observer).map(|a| a.to_string())
    }
}

/// [`make_bot`] behind the type-erased interface.
///
/// # Errors
/// As [`make_bot`].
pub fn make_dyn_bot<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn DynBot>, BotError> {
    Ok(Box::new(Erased(make_bot::<G>(spec, seed)?)))
}
