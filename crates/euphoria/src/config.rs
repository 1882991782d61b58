//! Game options: the player count and the rule flags named in the specification.

use engine::ConfigError;
use serde::{Deserialize, Serialize};

/// Which printing of the recruit texts to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Edition {
    V1,
    #[default]
    V2,
}

/// When the knowledge check runs (spec D-03, A-02).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnowledgeCheck {
    /// The Korean rulebook: at any time, repeated until below the limit.
    #[default]
    Continuous,
    /// The published rules: only after a roll, at most one die per roll.
    OnRollOnly,
}

/// Where the two unchosen starting recruits go (spec D-02).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartingRecruitDiscards {
    /// The Korean rulebook: shuffled back into the recruit deck.
    #[default]
    ReturnToDeck,
    /// The published rules: out of the game, face down.
    Discard,
}

/// Options for a game of Euphoria. `Default` is the standard 4-player game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Number of players, 2..=6.
    pub players: usize,
    /// Recruit text edition.
    pub edition: Edition,
    /// Knowledge check timing.
    pub knowledge_check: KnowledgeCheck,
    /// Tunnel ends need an active recruit of the tunnel's faction (spec D-05).
    pub tunnel_end_requires_faction: bool,
    /// Each extra worker placed as a double costs 1 morale (optional variant, spec 5.2).
    pub doubles_cost_morale: bool,
    /// Where the unchosen starting recruits go.
    pub starting_recruit_discards: StartingRecruitDiscards,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 4,
            edition: Edition::V2,
            knowledge_check: KnowledgeCheck::Continuous,
            tunnel_end_requires_faction: true,
            doubles_cost_morale: false,
            starting_recruit_discards: StartingRecruitDiscards::ReturnToDeck,
        }
    }
}

impl Config {
    /// A standard game for `players` seats.
    pub fn players(players: usize) -> Self {
        Config {
            players,
            ..Config::default()
        }
    }

    /// Checks the options, listing every problem.
    ///
    /// # Errors
    /// Every problem found.
    pub fn check(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        if !(2..=6).contains(&self.players) {
            problems.push(format!("players must be 2 to 6, not {}", self.players));
        }
        ConfigError::check(problems)
    }
}
