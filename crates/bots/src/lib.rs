//! Bots that play any [`engine::Game`].
//!
//! A bot sees a game only through an [`Observer`]: the seat's view, its legal actions, and
//! determinizations (hidden information resampled), so it cannot read a hidden card by
//! accident. Every bot takes a seed: the same seed and the same observations give the
//! same choices.

mod coach;
mod guard;
mod heuristic;
mod ismcts;
mod pimc;
mod random;
mod spec;

pub use coach::{
    hard_iterations, hint, review, Advice, CoachError, CoachOptions, Review, ReviewedMove,
    MARK_LOSS, MARK_MOST,
};
pub use guard::{Guarded, TurnMemory};
pub use heuristic::{HeuristicBot, HeuristicOptions};
pub use ismcts::{Budget, IsmctsBot, IsmctsOptions};
pub use pimc::{PimcBot, PimcOptions};
pub use random::RandomBot;
pub use spec::{BotError, BotSpec, Level};

use engine::prelude::*;
use engine::{AnyAction, DynState, Seat};
use rand::Rng;

/// What a bot may know of a game: the acting seat's view, legal actions, and
/// determinizations.
pub struct Observer<'a, G: Game> {
    game: &'a G,
    seat: Seat,
    /// Legal actions the bot is not to choose (see [`Guarded`]); never all of them.
    avoid: &'a [G::Action],
}

impl<'a, G: Game> Observer<'a, G> {
    /// The observer of the seat to act, or `None` once the game is over.
    pub fn new(game: &'a G) -> Option<Self> {
        game.to_act().map(|seat| Observer {
            game,
            seat,
            avoid: &[],
        })
    }
    /// The same observer with `avoid` left out of the legal actions (unless that would
    /// leave none).
    pub fn avoiding(&self, avoid: &'a [G::Action]) -> Observer<'a, G> {
        Observer {
            game: self.game,
            seat: self.seat,
            avoid,
        }
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
    /// The legal actions the bot may choose (they depend only on what the seat knows),
    /// less those it is to avoid.
    pub fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.game.legal_actions(out);
        if !self.avoid.is_empty() && out.iter().any(|a| !self.avoid.contains(a)) {
            out.retain(|a| !self.avoid.contains(a));
        }
    }
    /// Whether the bot may choose `action` among the legal ones (a search filters its
    /// root with this).
    pub fn allows(&self, action: G::Action) -> bool {
        !self.avoid.contains(&action)
    }
    /// Where the game stands for this seat ([`Search::position_key`]).
    pub fn position_key(&self) -> Option<engine::PositionKey> {
        self.game.position_key()
    }
    /// What `action` does in a deal between seats ([`Search::deal`]).
    pub fn deal(&self, action: G::Action) -> engine::Deal {
        self.game.deal(action)
    }
    /// The seat `action` opens a proposal to ([`Search::proposal_to`]).
    pub fn proposal_to(&self, action: G::Action) -> Option<Seat> {
        self.game.proposal_to(action)
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
    Ok(Box::new(make_guarded::<G>(spec, seed)?))
}

/// The bot a spec names, as a [`Guarded`] (its memory of the turn within reach).
///
/// # Errors
/// `human` is not a bot.
pub fn make_guarded<G: Game>(spec: &BotSpec, seed: u64) -> Result<Guarded<G>, BotError> {
    Ok(Guarded::new(make_unguarded::<G>(spec, seed)?))
}

/// The bot a spec names without the guard against going round in circles (for tests and
/// measurements of what the guard changes).
///
/// # Errors
/// `human` is not a bot.
pub fn make_unguarded<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn Bot<G>>, BotError> {
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
        BotSpec::Pimc => Box::new(PimcBot::<G>::named(spec.to_string(), pimc_options(), seed)),
        BotSpec::Level(level) => Box::new(IsmctsBot::<G>::named(
            spec.to_string(),
            level_options(*level),
            seed,
        )),
        BotSpec::Human => return Err(BotError::NotABot("human".into())),
    })
}

/// The search a level stands for: `easy` 100 iterations, `medium` 1,000 and `hard`
/// 4,000 on one tree per core, each within its decision budget ([`level_time_cap`]).
pub fn level_options(level: Level) -> IsmctsOptions {
    let base = IsmctsOptions::default().with_time_cap(level_time_cap(level));
    match level {
        Level::Easy => base.with_budget(Budget::Iterations(100)),
        Level::Medium => base.with_budget(Budget::Iterations(1000)),
        Level::Hard => base.with_budget(Budget::Iterations(4000)).with_trees(0),
    }
}

/// The `pimc` bot's search: 10 determinizations of 100 plain UCT iterations each, 1,000
/// in all as `medium`, and `medium`'s time cap over the whole decision.
pub fn pimc_options() -> PimcOptions {
    PimcOptions::default().with_search(
        IsmctsOptions::default()
            .with_budget(Budget::Iterations(100))
            .with_time_cap(level_time_cap(Level::Medium)),
    )
}

/// The longest a level thinks over one decision, whatever iterations are left: `easy`
/// 0.2 s, `medium` 0.8 s, `hard` 2.5 s. Short of the cap a level's choices depend only on
/// its seed; a decision that reaches it depends on the machine's speed too.
pub fn level_time_cap(level: Level) -> std::time::Duration {
    std::time::Duration::from_millis(match level {
        Level::Easy => 200,
        Level::Medium => 800,
        Level::Hard => 2500,
    })
}

/// How much better than leaving a deal (its mean reward) pursuing it must look before a
/// searching bot pursues it: 0.02 of a reward in [0, 1], in Euphoria's evaluation four
/// tenths of a star. Without it, a deal the search finds neither good nor bad (the
/// partner declines) is as likely as any other move, and bots at a table keep offering;
/// with 0.005, `medium` still spent 15% of its moves on trades at 4 seats, with 0.02 3%.
pub const DEAL_MARGIN: f64 = 0.02;

/// The bot's choice among `(action, score)` pairs ranked best first by `better`, less keen
/// on deals: when the best one pursues a deal and the best that does not is within
/// `margin` of it (by mean), the latter. Shared by the searching bots.
pub(crate) fn less_keen<A: Copy>(
    best: Option<(A, f64)>,
    best_other: Option<(A, f64)>,
    margin: f64,
) -> Option<A> {
    match (best, best_other) {
        (Some((_, mean)), Some((b, other))) if mean < other + margin => Some(b),
        (best, _) => best.map(|(a, _)| a),
    }
}

/// A bot behind the type-erased game interface (the CLI and the server).
pub trait DynBot: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;
    /// The action to play, or `None` when the state is not of this bot's game or has no
    /// legal action.
    fn choose(&mut self, state: &dyn DynState) -> Option<AnyAction>;
    /// [`DynBot::choose`] in notation.
    ///
    /// Kept for the server until it carries [`engine::Move`]; remove after.
    fn choose_text(&mut self, state: &dyn DynState) -> Option<String> {
        self.choose(state).map(|action| action.to_string())
    }
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

/// [`make_bot`] behind the type-erased interface.
///
/// # Errors
/// As [`make_bot`].
pub fn make_dyn_bot<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn DynBot>, BotError> {
    Ok(Box::new(Erased(make_guarded::<G>(spec, seed)?)))
}
