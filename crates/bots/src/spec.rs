use crate::ismcts::Budget;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A strength level: an [`IsmctsBot`](crate::IsmctsBot) budget (see [`crate::level_options`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

/// Who sits in a seat: a person, or a bot by name with its options.
///
/// The text forms are `human`, `random`, `heuristic`, `ismcts` (the default budget),
/// `ismcts:5000` (iterations), `ismcts:250ms` (time), `easy`, `medium` and `hard`;
/// `Display` writes them back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Human,
    Random,
    Heuristic,
    /// Information-set MCTS with an explicit budget, or the default one.
    Ismcts(Option<Budget>),
    Level(Level),
}

/// A seat spec that names no known bot.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BotError {
    #[error("unknown seat `{0}`: expected human, random, heuristic, ismcts, ismcts:ITERATIONS, ismcts:MILLISms, easy, medium or hard")]
    Unknown(String),
    #[error("`{0}` is not a bot")]
    NotABot(String),
}

impl FromStr for BotSpec {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().to_ascii_lowercase();
        let unknown = || BotError::Unknown(s.to_string());
        Ok(match text.as_str() {
            "human" => BotSpec::Human,
            "random" => BotSpec::Random,
            "heuristic" => BotSpec::Heuristic,
            "ismcts" => BotSpec::Ismcts(None),
            "easy" => BotSpec::Level(Level::Easy),
            "medium" => BotSpec::Level(Level::Medium),
            "hard" => BotSpec::Level(Level::Hard),
            _ => match text.strip_prefix("ismcts:") {
                Some(budget) => BotSpec::Ismcts(Some(budget.parse().map_err(|_| unknown())?)),
                None => return Err(unknown()),
            },
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Human => write!(f, "human"),
            BotSpec::Random => write!(f, "random"),
            BotSpec::Heuristic => write!(f, "heuristic"),
            BotSpec::Ismcts(None) => write!(f, "ismcts"),
            BotSpec::Ismcts(Some(b)) => write!(f, "ismcts:{b}"),
            BotSpec::Level(Level::Easy) => write!(f, "easy"),
            BotSpec::Level(Level::Medium) => write!(f, "medium"),
            BotSpec::Level(Level::Hard) => write!(f, "hard"),
        }
    }
}
