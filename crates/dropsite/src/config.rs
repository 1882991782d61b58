use crate::cards::{Deck, HAND};
use engine::{ConfigError, GameOption, Input};
use serde::{Deserialize, Serialize};

/// Table options for Drop Site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// 2 to 4.
    pub players: usize,
    /// The game ends after a round in which someone reaches this total (100, or 50 for a
    /// shorter game).
    pub target: i64,
    /// Lets each player see their own debt pile during the round (casual play, ruling S11).
    pub open_debt: bool,
    /// The seat that starts round 1 (the oldest player, ruling S13).
    pub first_player: usize,
    /// Draw the starting seat at random instead (from the game's seed).
    pub random_first: bool,
    /// After this many rounds the highest total wins even below the target (ruling S19:
    /// games between weak bots could otherwise drift around zero for ever).
    pub max_rounds: u32,
    /// The card values, their copies and points (the printed deck unless given; written
    /// out only when it differs, so old records and configs load unchanged).
    #[serde(skip_serializing_if = "Config::printed_deck")]
    pub deck: Deck,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 2,
            target: 100,
            open_debt: false,
            first_player: 0,
            random_first: false,
            max_rounds: 50,
            deck: Deck::default(),
        }
    }
}

impl Config {
    /// Every problem with these options.
    ///
    /// # Errors
    /// The list of problems.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        if !(2..=4).contains(&self.players) {
            problems.push(format!("players must be 2 to 4, not {}", self.players));
        }
        if !(1..=10_000).contains(&self.target) {
            problems.push(format!(
                "target must be 1 to 10000 points, not {}",
                self.target
            ));
        }
        if !(1..=1000).contains(&self.max_rounds) {
            problems.push(format!(
                "max_rounds must be 1 to 1000, not {}",
                self.max_rounds
            ));
        }
        if self.first_player >= self.players.max(1) {
            problems.push(format!(
                "first_player must be a seat from 0 to {}, not {}",
                self.players.saturating_sub(1),
                self.first_player
            ));
        }
        problems.extend(self.deck.problems(self.players * HAND + 1));
        ConfigError::check(problems)
    }

    fn printed_deck(deck: &Deck) -> bool {
        *deck == Deck::default()
    }

    /// Piles on the table that end a round at once: 5, 6 or 7 for 2, 3 or 4 players.
    pub fn pile_limit(&self) -> usize {
        self.players + 3
    }
}

/// The options described for people (`Present::about`), in the order a form shows them.
pub(crate) fn options() -> Vec<GameOption> {
    vec![
        GameOption::new(
            "players",
            "Players",
            "How many play: 2 to 4.",
            Input::Number {
                min: 2,
                max: 4,
                none: None,
            },
        ),
        GameOption::new(
            "target",
            "Points to win",
            "The game ends after a round in which someone reaches this total (100, or 50 for a shorter game).",
            Input::Number {
                min: 1,
                max: 10_000,
                none: None,
            },
        ),
        GameOption::new(
            "open_debt",
            "Open debt",
            "Each player may look at their own face-down debt pile during the round (casual play).",
            Input::Toggle,
        ),
        GameOption::new(
            "first_player",
            "First player",
            "The seat that starts round 1 (the rulebook: the oldest player).",
            Input::Seat,
        )
        .variant(),
        GameOption::new(
            "random_first",
            "Random first player",
            "Draw the seat that starts round 1 at random instead.",
            Input::Toggle,
        )
        .variant(),
        GameOption::new(
            "max_rounds",
            "Most rounds",
            "After this many rounds the highest total wins, even below the target.",
            Input::Number {
                min: 1,
                max: 1000,
                none: None,
            },
        )
        .variant(),
        GameOption::new(
            "deck",
            "Deck",
            "The card values, their copies and points (the printed deck unless a card file gives another).",
            Input::Data,
        )
        .variant(),
    ]
}
