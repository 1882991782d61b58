//! Game options: the player count and the rule flags named in the specification.

use engine::{ConfigError, GameOption, Input};
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

/// When and how much the active player may trade (spec 1.9, 5.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trading {
    /// The rulebook: any time in your own turn, before, between and after your
    /// placements, any goods in any amounts, as many offers as `offers_per_turn` allows.
    #[default]
    Rulebook,
    /// The rule before issue 16, a variant (and the rule of the games made then): one
    /// offer a turn of at most 4 items, before the main action or between doubled
    /// placements.
    OneOfferBeforePlacing,
}

/// Card data for studies (`--cards`, docs/cards.md): what the commodity areas and the
/// tunnel ends give. Leaving a field out keeps its printed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rewards {
    /// Commodities a commodity area gives when the dice there total 1-4, 5-8 and 9 or
    /// more (printed 1, 1, 2; a recruit's tier bonus comes on top), spec 3.3.
    pub area: [u8; 3],
    /// Commodities a tunnel end gives (printed 3), spec 3.4.
    pub tunnel_end: u8,
}

impl Default for Rewards {
    /// The printed board.
    fn default() -> Self {
        Rewards {
            area: [1, 1, 2],
            tunnel_end: 3,
        }
    }
}

impl Rewards {
    fn is_printed(&self) -> bool {
        *self == Rewards::default()
    }

    /// Every problem: each amount from 1 to 9.
    fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (band, &n) in ["1-4", "5-8", "9 or more"].iter().zip(&self.area) {
            if !(1..=9).contains(&n) {
                problems.push(format!(
                    "rewards: a commodity area whose dice total {band} must give 1 to 9 commodities, not {n}"
                ));
            }
        }
        if !(1..=9).contains(&self.tunnel_end) {
            problems.push(format!(
                "rewards: a tunnel end must give 1 to 9 commodities, not {}",
                self.tunnel_end
            ));
        }
        problems
    }
}

/// Options for a game of Euphoria. `Default` is the standard 4-player game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    /// The trading rule.
    pub trading: Trading,
    /// Most trade offers a turn (`None`: no bound, as the rulebook). Bots' batches bound it
    /// so that random play cannot trade in loops.
    pub offers_per_turn: Option<u32>,
    /// A payment only one set of goods can make waits for its goods one by one, as in games
    /// made before issue 16. Only the step that brings such a record up to today's format
    /// sets it, for a record that pays artifact cards in an order of its own (their order
    /// in the discard pile, shuffled later, shapes the game): see `upgrade.rs`.
    pub legacy_actions: bool,
    /// Card data: the areas' and tunnel ends' rewards (written out only when they differ
    /// from the printed board, so configs made without card data are unchanged).
    #[serde(skip_serializing_if = "Rewards::is_printed")]
    pub rewards: Rewards,
}

/// A config as written in a file: every option may be left out.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    players: Option<usize>,
    edition: Option<Edition>,
    knowledge_check: Option<KnowledgeCheck>,
    tunnel_end_requires_faction: Option<bool>,
    doubles_cost_morale: Option<bool>,
    starting_recruit_discards: Option<StartingRecruitDiscards>,
    trading: Option<Trading>,
    #[serde(default, deserialize_with = "some_option")]
    offers_per_turn: Option<Option<u32>>,
    legacy_actions: Option<bool>,
    rewards: Option<Rewards>,
}

/// `offers_per_turn: null` is "no bound", told apart from a missing field.
fn some_option<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

impl<'de> Deserialize<'de> for Config {
    /// Missing options take their defaults. (A config written before issue 16, which
    /// named no `trading` but played the rule of that time, is given it when its file is
    /// brought up to today's format: see `upgrade.rs`.)
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Config, D::Error> {
        let f = ConfigFile::deserialize(d)?;
        let base = Config::default();
        Ok(Config {
            players: f.players.unwrap_or(base.players),
            edition: f.edition.unwrap_or(base.edition),
            knowledge_check: f.knowledge_check.unwrap_or(base.knowledge_check),
            tunnel_end_requires_faction: f
                .tunnel_end_requires_faction
                .unwrap_or(base.tunnel_end_requires_faction),
            doubles_cost_morale: f.doubles_cost_morale.unwrap_or(base.doubles_cost_morale),
            starting_recruit_discards: f
                .starting_recruit_discards
                .unwrap_or(base.starting_recruit_discards),
            trading: f.trading.unwrap_or(base.trading),
            offers_per_turn: f.offers_per_turn.unwrap_or(base.offers_per_turn),
            legacy_actions: f.legacy_actions.unwrap_or(base.legacy_actions),
            rewards: f.rewards.unwrap_or(base.rewards),
        })
    }
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
            trading: Trading::Rulebook,
            offers_per_turn: None,
            legacy_actions: false,
            rewards: Rewards::default(),
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

    /// The same config with at most `offers` trade offers a turn.
    pub fn with_offers(self, offers: u32) -> Self {
        Config {
            offers_per_turn: Some(offers),
            ..self
        }
    }

    /// Checks the options, listing every problem.
    ///
    /// # Errors
    /// Every problem found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = Vec::new();
        if !(2..=6).contains(&self.players) {
            problems.push(format!("players must be 2 to 6, not {}", self.players));
        }
        problems.extend(self.rewards.problems());
        ConfigError::check(problems)
    }
}

/// The options described for people (`Present::about`), in the order a form shows them.
pub(crate) fn options() -> Vec<GameOption> {
    vec![
        GameOption::new(
            "players",
            "Players",
            "How many play: 2 to 6.",
            Input::Number {
                min: 2,
                max: 6,
                none: None,
            },
        ),
        GameOption::new(
            "edition",
            "Recruit card printing",
            "Which printing of the recruit cards to play with: some abilities changed in the second.",
            Input::choice(&[("v1", "First edition"), ("v2", "Second edition")]),
        )
        .variant(),
        GameOption::new(
            "knowledge_check",
            "Knowledge check",
            "When your dice plus your knowledge reach the limit, a worker runs away: this sets when that is checked.",
            Input::choice(&[
                (
                    "continuous",
                    "All the time: workers run away until you are under the limit (Korean rulebook)",
                ),
                (
                    "on_roll_only",
                    "Only after a roll: one worker at most runs away (published English rules)",
                ),
            ]),
        )
        .variant(),
        GameOption::new(
            "tunnel_end_requires_faction",
            "Tunnel ends need a recruit",
            "Only a player with a face-up recruit of the tunnel's faction may place a worker on its open end.",
            Input::Toggle,
        )
        .variant(),
        GameOption::new(
            "doubles_cost_morale",
            "Doubles cost morale",
            "Each worker after the first that you place as a double costs 1 morale.",
            Input::Toggle,
        )
        .variant(),
        GameOption::new(
            "starting_recruit_discards",
            "Unchosen starting recruits",
            "Where the two starting recruits nobody keeps go.",
            Input::choice(&[
                (
                    "return_to_deck",
                    "Shuffled back into the recruit deck (Korean rulebook)",
                ),
                ("discard", "Out of the game, face down (published rules)"),
            ]),
        )
        .variant(),
        GameOption::new(
            "trading",
            "Trading",
            "When the player whose turn it is may trade, and how much.",
            Input::choice(&[
                (
                    "rulebook",
                    "Any time in your turn, any goods (the rulebook)",
                ),
                (
                    "one_offer_before_placing",
                    "One offer of up to 4 goods before placing (older games)",
                ),
            ]),
        )
        .variant(),
        GameOption::new(
            "legacy_actions",
            "Replay an old record",
            "Only for records made before trading changed that paid cards in an order of their own; leave it off to play.",
            Input::Toggle,
        )
        .variant(),
        GameOption::new(
            "rewards",
            "Rewards",
            "How many goods a commodity area gives for each dice total, and a tunnel end gives (card data for studies).",
            Input::Data,
        )
        .variant(),
        GameOption::new(
            "offers_per_turn",
            "Trade offers per turn",
            "The most trade offers a player may make in one turn; leave it empty for no limit.",
            Input::Number {
                min: 0,
                max: 1000,
                none: Some("no limit (the rulebook)".into()),
            },
        )
        .variant(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_are_card_data_written_only_when_changed() {
        let printed = serde_json::to_value(Config::default()).expect("json");
        assert!(printed.get("rewards").is_none(), "{printed}");
        let c: Config =
            serde_json::from_str(r#"{"rewards": {"tunnel_end": 5}}"#).expect("partial rewards");
        assert_eq!(
            c.rewards,
            Rewards {
                area: [1, 1, 2],
                tunnel_end: 5
            }
        );
        assert!(c.validate().is_ok());
        let json = serde_json::to_value(&c).expect("json");
        assert_eq!(json["rewards"]["tunnel_end"], 5);
        let back: Config = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, c);
        assert!(serde_json::from_str::<Config>(r#"{"rewards": {"tunnel": 5}}"#).is_err());
    }

    #[test]
    fn broken_rewards_list_every_problem() {
        let c = Config {
            players: 7,
            rewards: Rewards {
                area: [0, 1, 12],
                tunnel_end: 0,
            },
            ..Config::default()
        };
        let err = c.validate().expect_err("four problems");
        assert_eq!(err.problems.len(), 4, "{err}");
        assert!(err.problems[1].contains("total 1-4") && err.problems[1].contains("not 0"));
        assert!(err.problems[2].contains("9 or more") && err.problems[2].contains("not 12"));
        assert!(err.problems[3].contains("tunnel end"));
    }
}
