use thiserror::Error;

/// A refusal or problem with a stable code for machines: `<namespace>/<snake_case>`,
/// named after the rule (`dropsite/not_lower`, `table/nothing_to_undo`, `config/players`).
/// The codes are an API (the server sends them, Python raises them, tests match them):
/// a code, once given, keeps its meaning. `Display` says the same in words for people.
///
/// Every game's [`crate::GameRules::Refusal`] implements it, namespaced by [`crate::Game::NAME`]
/// (the conformance harness checks the form).
pub trait Coded: std::fmt::Display {
    /// The stable code.
    fn code(&self) -> &'static str;
}

/// Whether `code` has the form `<namespace>/<snake_case>`: one slash, and on each side
/// lowercase ASCII letters, digits and single underscores, starting with a letter.
pub fn is_code(code: &str, namespace: &str) -> bool {
    let snake = |word: &str| {
        word.starts_with(|c: char| c.is_ascii_lowercase())
            && !word.ends_with('_')
            && !word.contains("__")
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    code.split_once('/')
        .is_some_and(|(space, rule)| space == namespace && snake(rule))
}

/// A refusal with its type erased: its code beside its words (what a game's refusal or a
/// table's becomes on the type-erased interface, [`IllegalAction::erase`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub code: &'static str,
    pub words: String,
}

impl Refused {
    /// `reason`'s code and words.
    pub fn of(reason: &impl Coded) -> Refused {
        Refused {
            code: reason.code(),
            words: reason.to_string(),
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words)
    }
}

impl Coded for Refused {
    fn code(&self) -> &'static str {
        self.code
    }
}

/// What kind of problem makes a config unusable: one code for the whole error (its
/// problems, in words, may be several of that kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigProblem {
    /// The options break the game's own limits (a count out of range, an unknown card).
    Invalid,
    /// The options are not the game's options at all (not JSON of the right shape).
    Malformed,
    /// The game is not played by that many players.
    Players,
    /// A record in a newer format than this program knows.
    FormatTooNew,
    /// A record the game cannot bring up to its current format.
    NotUpgradable,
}

impl ConfigProblem {
    pub fn code(self) -> &'static str {
        match self {
            ConfigProblem::Invalid => "config/invalid_option",
            ConfigProblem::Malformed => "config/malformed",
            ConfigProblem::Players => "config/players",
            ConfigProblem::FormatTooNew => "config/format_too_new",
            ConfigProblem::NotUpgradable => "config/not_upgradable",
        }
    }
}

/// A config that cannot make a game. Lists every problem.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid options: {}", .problems.join("; "))]
pub struct ConfigError {
    pub kind: ConfigProblem,
    pub problems: Vec<String>,
}

impl ConfigError {
    /// Options that break the game's limits ([`ConfigProblem::Invalid`]).
    pub fn new(problems: Vec<String>) -> Self {
        ConfigError::of(ConfigProblem::Invalid, problems)
    }

    pub fn of(kind: ConfigProblem, problems: Vec<String>) -> Self {
        ConfigError { kind, problems }
    }

    /// `Ok` when `problems` is empty.
    ///
    /// # Errors
    /// The problems, when there are any.
    pub fn check(problems: Vec<String>) -> Result<(), ConfigError> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError::new(problems))
        }
    }
}

impl Coded for ConfigError {
    fn code(&self) -> &'static str {
        self.kind.code()
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
/// rule in plain words and whose [`Coded::code`] names it for machines), so tests and
/// tools can match the rule that refused. Type-erased front ends carry its code and words
/// ([`IllegalAction::erase`], [`Refused`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal action `{action}`: {reason}")]
pub struct IllegalAction<R: Coded + std::fmt::Debug = Refused> {
    pub action: String,
    pub reason: R,
}

impl<R: Coded + std::fmt::Debug> IllegalAction<R> {
    pub fn new(action: impl std::fmt::Display, reason: impl Into<R>) -> Self {
        IllegalAction {
            action: action.to_string(),
            reason: reason.into(),
        }
    }

    /// The stable code of the rule that refused (`dropsite/not_lower`).
    pub fn code(&self) -> &'static str {
        self.reason.code()
    }

    /// The same refusal with its reason's code and words, for the type-erased interface.
    pub fn erase(self) -> IllegalAction {
        IllegalAction {
            action: self.action,
            reason: Refused::of(&self.reason),
        }
    }
}

/// A state file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    /// `state/malformed`.
    #[error("the state is not valid JSON for {game}: {message}")]
    Malformed { game: String, message: String },
    /// `state/breaks_rules`.
    #[error("the state breaks the rules of {game}: {}", .problems.join("; "))]
    Invalid { game: String, problems: Vec<String> },
}

impl Coded for StateError {
    fn code(&self) -> &'static str {
        match self {
            StateError::Malformed { .. } => "state/malformed",
            StateError::Invalid { .. } => "state/breaks_rules",
        }
    }
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

    /// The fine code, when there is one: the rule that refused an illegal action
    /// (`dropsite/not_lower`, `table/nothing_to_undo`), the kind of config problem
    /// (`config/players`) or of state-file problem (`state/malformed`). `None` for the
    /// errors whose coarse [`EngineError::code`] says all there is.
    pub fn refusal(&self) -> Option<&'static str> {
        match self {
            EngineError::Illegal(e) => Some(e.code()),
            EngineError::Config(e) => Some(e.code()),
            EngineError::State(e) => Some(e.code()),
            EngineError::UnknownGame { .. } | EngineError::Parse(_) | EngineError::GameOver => None,
        }
    }
}
