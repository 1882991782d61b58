use serde::{Deserialize, Serialize};

/// When a study asks a game what a seat holds: on the new game, and on the finished one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    Start,
    End,
}

/// One thing a seat held in a game, for studies that relate what seats held to wins
/// (win rate by character, by recruit, by the points of the first hand).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Holding {
    /// What kind of thing it is: `character`, `recruit`, `first hand points`.
    pub aspect: String,
    pub value: Held,
}

/// A component by name, or a number that studies bucket (by quintile).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Held {
    Number(f64),
    Name(String),
}

impl Holding {
    /// A component by name.
    pub fn name(aspect: &str, value: impl ToString) -> Holding {
        Holding {
            aspect: aspect.to_string(),
            value: Held::Name(value.to_string()),
        }
    }

    /// A number, bucketed by the study.
    pub fn number(aspect: &str, value: f64) -> Holding {
        Holding {
            aspect: aspect.to_string(),
            value: Held::Number(value),
        }
    }
}
