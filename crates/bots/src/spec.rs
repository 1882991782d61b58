use crate::ismcts::Budget;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A strength level: an [`IsmctsBot`](crate::IsmctsBot) budget (see [`crate::make::level_options`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

/// Who sits in a seat: a person, or a bot by name with its options.
///
/// The text forms are the names in [`BotSpec::NAMED`] (`human`, `random`, `heuristic`,
/// `pimc`, `easy`, `medium`, `hard`, `ismcts`), and `ismcts:5000` (iterations) or
/// `ismcts:250ms` (time); `Display` writes them back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Human,
    Random,
    Heuristic,
    /// Perfect-information Monte Carlo ([`crate::PimcBot`], [`crate::pimc_options`]).
    Pimc,
    /// Information-set MCTS with an explicit budget, or the default one.
    Ismcts(Option<Budget>),
    Level(Level),
}

impl BotSpec {
    /// Every seat by its name, in the order lists show them: the one list that parsing,
    /// printing and the help texts (the CLI's, Python's, the parse error's) read.
    pub const NAMED: [(&'static str, BotSpec); 8] = [
        ("human", BotSpec::Human),
        ("random", BotSpec::Random),
        ("heuristic", BotSpec::Heuristic),
        ("pimc", BotSpec::Pimc),
        ("easy", BotSpec::Level(Level::Easy)),
        ("medium", BotSpec::Level(Level::Medium)),
        ("hard", BotSpec::Level(Level::Hard)),
        ("ismcts", BotSpec::Ismcts(None)),
    ];

    /// The bots' names (every named seat but `human`), in [`BotSpec::NAMED`]'s order.
    pub fn bot_names() -> impl Iterator<Item = &'static str> {
        Self::NAMED
            .iter()
            .filter(|(_, spec)| *spec != BotSpec::Human)
            .map(|(name, _)| *name)
    }

    /// The bots a table or a command may name, in words: `random, heuristic, ..., ismcts,
    /// ismcts:ITERATIONS or ismcts:MILLISms`.
    pub fn bot_choices() -> String {
        let mut names: Vec<&str> = Self::bot_names().collect();
        names.push("ismcts:ITERATIONS");
        let last = "ismcts:MILLISms";
        format!("{} or {last}", names.join(", "))
    }
}

/// A seat spec that names no known bot.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BotError {
    #[error("unknown seat `{0}`: expected human, {choices}", choices = BotSpec::bot_choices())]
    Unknown(String),
    #[error("`{0}` is not a bot")]
    NotABot(String),
}

impl FromStr for BotSpec {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().to_ascii_lowercase();
        let unknown = || BotError::Unknown(s.to_string());
        if let Some((_, spec)) = Self::NAMED.iter().find(|(name, _)| *name == text) {
            return Ok(spec.clone());
        }
        match text.strip_prefix("ismcts:") {
            Some(budget) => Ok(BotSpec::Ismcts(Some(
                budget.parse().map_err(|_| unknown())?,
            ))),
            None => Err(unknown()),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let BotSpec::Ismcts(Some(b)) = self {
            return write!(f, "ismcts:{b}");
        }
        let name = Self::NAMED
            .iter()
            .find(|(_, spec)| spec == self)
            .map_or("?", |(name, _)| *name);
        f.write_str(name)
    }
}
