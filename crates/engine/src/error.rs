use thiserror::Error;

/// A config that cannot make a game. Lists every problem.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid options: {}", .problems.join("; "))]
pub struct ConfigError {
    pub problems: Vec<String>,
}

impl ConfigError {
    pub fn new(problems: Vec<String>) -> Self {
        ConfigError { problems }
    }
    /// `Ok` when `problems` is empty.
    ///
    /// # Errors
    /// The problems, when there are any.
    pub fn check(problems: Vec<String>) -> Result<(), ConfigError> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError { problems })
        }
    }
}

/// Text that is not an action of this game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot read `{input}` as a move: {expected}")]
pub struct ParseActionError {
    pub input: String,
    /// What a move looks like: the game's notation in general, or (from a position,
    /// [`ParseActionError::expecting`]) the moves there are now.
    pub expected: std::borrow::Cow<'static, str>,
}

impl ParseActionError {
    pub fn new(input: &str, expected: &'static str) -> Self {
        ParseActionError {
            input: input.to_string(),
            expected: std::borrow::Cow::Borrowed(expected),
        }
    }

    /// The same error, saying what is expected in other words.
    pub fn expecting(mut self, expected: String) -> Self {
        self.expected = std::borrow::Cow::Owned(expected);
        self
    }
}

/// An action the rules do not allow in this position. The state is unchanged.
///
/// `R` is the game's refusal ([`crate::GameRules::Refusal`]: an enum whose `Display` says the
/// rule in plain words), so tests and tools can match the rule that refused. Type-erased
/// front ends carry the words only ([`IllegalAction::erase`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal action `{action}`: {reason}")]
pub struct IllegalAction<R: std::fmt::Display + std::fmt::Debug = String> {
    pub action: String,
    pub reason: R,
}

impl<R: std::fmt::Display + std::fmt::Debug> IllegalAction<R> {
    pub fn new(action: impl std::fmt::Display, reason: impl Into<R>) -> Self {
        IllegalAction {
            action: action.to_string(),
            reason: reason.into(),
        }
    }

    /// The same refusal with its reason in words, for the type-erased interface.
    pub fn erase(self) -> IllegalAction {
        IllegalAction {
            action: self.action,
            reason: self.reason.to_string(),
        }
    }
}

/// A state file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("the state is not valid JSON for {game}: {message}")]
    Malformed { game: String, message: String },
    #[error("the state breaks the rules of {game}: {}", .problems.join("; "))]
    Invalid { game: String, problems: Vec<String> },
}

/// Every error the type-erased interface can give, each with a stable code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error("unknown game `{name}` (known: {known})")]
    UnknownGame { name: String, known: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Parse(#[from] ParseActionError),
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
    #[error(transparent)]
    State(#[from] StateError),
    #[error("the game is over: no more actions")]
    GameOver,
}

impl EngineError {
    /// A stable, namespaced code for machines (the server's error codes).
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::UnknownGame { .. } => "game/unknown",
            EngineError::Config(_) => "config/invalid",
            EngineError::Parse(_) => "action/malformed",
            EngineError::Illegal(_) => "action/illegal",
            EngineError::State(_) => "state/invalid",
            EngineError::GameOver => "action/game_over",
        }
    }
}
