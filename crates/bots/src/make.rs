//! The bots by name: a [`BotSpec`] made into its bot, and what each level searches.
use crate::bot::Bot;
use crate::guard::Guarded;
use crate::heuristic::HeuristicBot;
use crate::ismcts::{Budget, IsmctsBot, IsmctsOptions};
use crate::pimc::{PimcBot, PimcOptions};
use crate::random::RandomBot;
use crate::spec::{BotError, BotSpec, Level};
use engine::Game;

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
