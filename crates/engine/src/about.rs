//! What people need to read a game: its name, its options in words and its printed
//! components (card texts and values). Front ends show these and keep no copy of their own
//! (the server serves them as `GET /api/games/{game}`).
use serde::{Deserialize, Serialize};

/// A game described for people, from [`crate::Present::about`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct About {
    /// The name people read ("Drop Site").
    pub title: String,
    /// The fewest and the most players a table may seat (the config's `players`).
    pub players: Players,
    /// One line on what the game is, for a lobby.
    pub summary: String,
    /// Every option of the game's config, in the order a form shows them.
    pub options: Vec<GameOption>,
    /// The printed components a board shows (card texts, points, costs), in the game's own
    /// shape (docs/http-api.md describes each game's).
    pub components: serde_json::Value,
}

/// How many players a game seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Players {
    pub min: usize,
    pub max: usize,
}

impl Players {
    /// Whether a table of `n` players is allowed.
    pub fn allows(self, n: usize) -> bool {
        (self.min..=self.max).contains(&n)
    }
}

/// A legal move as a client shows it, from [`crate::Present::describe`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveText {
    /// What the move does, in words, for this position ("Retrieve the 3 from the
    /// Generator: pay 1 food, +2 morale").
    pub label: String,
    /// The part of the board the move takes (a card in the hand, a die), in the keys the
    /// game's page gives its parts (`card:7`, `die:3`); `None` for a move made with a
    /// button.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub from: Option<String>,
    /// Where the move goes on the board (`site:2`, `sp:gen`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to: Option<String>,
}

impl MoveText {
    /// A move shown only in words, as a button.
    pub fn words(label: impl Into<String>) -> MoveText {
        MoveText {
            label: label.into(),
            from: None,
            to: None,
        }
    }

    /// A move that takes `from` to `to` on the board.
    pub fn place(label: impl Into<String>, from: Option<String>, to: Option<String>) -> MoveText {
        MoveText {
            label: label.into(),
            from,
            to,
        }
    }
}

/// One legal action with its notation, as the API lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// The notation to send back.
    pub action: String,
    #[serde(flatten)]
    pub text: MoveText,
}

impl LegalMove {
    /// Whether `word` names the place on the board this move goes to, as a person reads
    /// it off the board: the whole key (`debt`) or one of its parts after the kind
    /// (`farm` for `sp:farm`, `gen` for `ret:gen:3`), in any case. A front end that is
    /// typed a place instead of a move offers the moves that go there.
    pub fn goes_to(&self, word: &str) -> bool {
        let word = word.trim();
        let Some(key) = self.text.to.as_deref() else {
            return false;
        };
        !word.is_empty()
            && (key.eq_ignore_ascii_case(word)
                || key
                    .split(':')
                    .skip(1)
                    .any(|part| part.eq_ignore_ascii_case(word)))
    }
}

/// One option of a game's config.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameOption {
    /// The config's field.
    pub key: &'static str,
    /// A short label ("Points to win").
    pub label: String,
    /// What it does, in one plain sentence (forms show it beside the input).
    pub help: String,
    /// Where a form puts it: with what a newcomer chooses, or folded under "Variants".
    pub group: Group,
    /// What a standard game has; filled in from the default config by [`About::defaults`].
    pub default: serde_json::Value,
    /// How the value is entered.
    #[serde(flatten)]
    pub input: Input,
}

/// Where an option belongs: what a newcomer chooses (how many play, how long, base or
/// advanced), or a variant (a rule some tables change, an older printing, study data),
/// which forms fold away and the rules page lists apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    #[default]
    Main,
    Variant,
}

/// How an option's value is entered.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// A whole number from `min` to `max`; with `none`, it may also be left empty (JSON
    /// `null`), which means what `none` says.
    Number {
        min: i64,
        max: i64,
        #[serde(skip_serializing_if = "Option::is_none")]
        none: Option<String>,
    },
    /// Yes or no.
    Toggle,
    /// One of a few values.
    Choice { choices: Vec<OptionChoice> },
    /// A seat: people read and type it counted from 1; the config's JSON counts from 0.
    Seat,
    /// Card data, given as a file (`--cards`) rather than in a form.
    Data,
}

/// One value a [`Input::Choice`] option may take.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionChoice {
    /// The value as the config's JSON has it (a string, or `null`).
    pub value: serde_json::Value,
    /// What people read.
    pub label: String,
}

impl GameOption {
    /// An option; its `default` is filled in later from the default config.
    pub fn new(key: &'static str, label: &str, help: &str, input: Input) -> GameOption {
        GameOption {
            key,
            label: label.to_string(),
            help: help.to_string(),
            group: Group::Main,
            default: serde_json::Value::Null,
            input,
        }
    }

    /// The same option, as a variant (see [`Group`]).
    pub fn variant(mut self) -> GameOption {
        self.group = Group::Variant;
        self
    }

    /// Whether it is a variant.
    pub fn is_variant(&self) -> bool {
        self.group == Group::Variant
    }
}

impl Input {
    /// A choice among `(value, label)` pairs; an empty value stands for JSON `null`.
    pub fn choice(choices: &[(&str, &str)]) -> Input {
        Input::Choice {
            choices: choices
                .iter()
                .map(|(value, label)| OptionChoice {
                    value: if value.is_empty() {
                        serde_json::Value::Null
                    } else {
                        serde_json::Value::String((*value).to_string())
                    },
                    label: (*label).to_string(),
                })
                .collect(),
        }
    }
}

impl About {
    /// Sets each option's `default` from `config` (a game's default config as JSON).
    pub fn defaults(mut self, config: &serde_json::Value) -> About {
        for option in &mut self.options {
            option.default = config
                .get(option.key)
                .cloned()
                .unwrap_or(serde_json::Value::Null);
        }
        self
    }

    /// What does not fit `config` (a game's default config as JSON): an option of the
    /// config that is not described, one described twice, or a described one the config
    /// lacks (card data, written out only when given, may be absent).
    pub fn problems(&self, config: &serde_json::Value) -> Vec<String> {
        let mut problems = Vec::new();
        let keys: Vec<&str> = match config.as_object() {
            Some(map) => map.keys().map(String::as_str).collect(),
            None => return vec!["the default config is not a JSON object".into()],
        };
        for key in &keys {
            if !self.options.iter().any(|o| o.key == *key) {
                problems.push(format!("option `{key}` is not described"));
            }
        }
        if self.players.min < 1 || self.players.min > self.players.max {
            problems.push(format!(
                "the player range {}-{} is empty",
                self.players.min, self.players.max
            ));
        }
        if !self.options.is_empty() && self.options.iter().all(GameOption::is_variant) {
            problems.push("every option is a variant: a newcomer has nothing to choose".into());
        }
        for (i, option) in self.options.iter().enumerate() {
            if let (true, Input::Number { min, max, .. }) = (option.key == "players", &option.input)
            {
                if (*min, *max) != (self.players.min as i64, self.players.max as i64) {
                    problems.push(format!(
                        "the `players` option allows {min}-{max} but the game seats {}-{}",
                        self.players.min, self.players.max
                    ));
                }
            }
            if self.options[..i].iter().any(|o| o.key == option.key) {
                problems.push(format!("option `{}` is described twice", option.key));
            }
            if option.input != Input::Data && !keys.contains(&option.key) {
                problems.push(format!(
                    "option `{}` is described but the config has no such field",
                    option.key
                ));
            }
            if option.label.trim().is_empty() || option.help.trim().is_empty() {
                problems.push(format!("option `{}` needs a label and a help", option.key));
            }
            if [&option.label, &option.help]
                .iter()
                .any(|t| t.contains('`') || t.contains('\n'))
            {
                problems.push(format!(
                    "option `{}`: its label and help are one line of words (no backtick)",
                    option.key
                ));
            }
            if let Input::Choice { choices } = &option.input {
                let default = config.get(option.key);
                if let Some(default) = default {
                    if !choices.iter().any(|c| &c.value == default) {
                        problems.push(format!(
                            "option `{}`: its default {default} is not one of its choices",
                            option.key
                        ));
                    }
                }
            }
        }
        problems
    }
}
