use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Who sits in a seat: a person, or a bot by name with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    Human,
    Random,
}

/// A seat spec that names no known bot.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BotError {
    #[error("unknown seat `{0}`: expected human, random")]
    Unknown(String),
    #[error("`{0}` is not a bot")]
    NotABot(String),
}

impl FromStr for BotSpec {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(BotSpec::Human),
            "random" => Ok(BotSpec::Random),
            _ => Err(BotError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Human => write!(f, "human"),
            BotSpec::Random => write!(f, "random"),
        }
    }
}
