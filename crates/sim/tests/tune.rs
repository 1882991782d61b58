//! `tune` finds the known balance point of a parameter made for the test: a duel where
//! seat 1 wins a roll of 0-99 below `30 + bonus`, so the first seat is even at bonus 20.
use bots::BotSpec;
use engine::prelude::*;
use engine::{
    ConfigError, Event, IllegalAction, Names, Outcome, ParseActionError, Refused, Seat, Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sim::tune::{tune, Param, Target, TuneOptions};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct DuelConfig {
    bonus: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Roll;

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("roll")
    }
}

impl FromStr for Roll {
    type Err = ParseActionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "roll" {
            Ok(Roll)
        } else {
            Err(ParseActionError::new(s, "roll"))
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct Rolled(u32);

impl Event for Rolled {
    fn text(&self, _: &Names) -> String {
        format!("rolled {}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Duel {
    config: DuelConfig,
    roll: Option<u32>,
    seed: u64,
}

impl fmt::Display for Duel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.roll)
    }
}

impl GameRules for Duel {
    type Config = DuelConfig;
    type Action = Roll;
    type View = Duel;
    type Refusal = Refused;
    const NAME: &'static str = "duel";
    fn new(config: &DuelConfig, seed: u64) -> Result<Self, ConfigError> {
        Ok(Duel {
            config: config.clone(),
            roll: None,
            seed,
        })
    }
    fn config(&self) -> &DuelConfig {
        &self.config
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> Option<Seat> {
        self.roll.is_none().then_some(0)
    }
    fn legal_actions(&self, out: &mut Vec<Roll>) {
        out.clear();
        if self.roll.is_none() {
            out.push(Roll);
        }
    }
    fn apply(&mut self, action: Roll) -> Result<(), IllegalAction> {
        if self.roll.is_some() {
            return Err(IllegalAction::new(
                action,
                Refused {
                    code: "duel/over",
                    words: "the duel is over".into(),
                },
            ));
        }
        self.roll = Some((engine::derive_seed(self.seed, 0) % 100) as u32);
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        let roll = i64::from(self.roll?);
        let first = roll < 30 + self.config.bonus;
        Some(Outcome::ranked(
            vec![i64::from(first), i64::from(!first)],
            &[first, !first],
        ))
    }
    fn view(&self, _: Viewer) -> Duel {
        self.clone()
    }
}

impl Present for Duel {
    type Event = Rolled;
    fn about() -> engine::About {
        engine::About {
            players: engine::Players { min: 2, max: 2 },
            title: "Duel".into(),
            summary: "One roll decides; a bonus shifts the odds.".into(),
            options: vec![engine::GameOption::new(
                "bonus",
                "Bonus",
                "Added to the first seat's winning range.",
                engine::Input::Number {
                    min: -30,
                    max: 70,
                    none: None,
                },
            )],
            components: serde_json::Value::Null,
        }
    }
    fn rules() -> engine::Rules {
        engine::Rules {
            title: "How to play Duel".into(),
            sections: vec![engine::Section::new(
                "The game",
                vec![engine::Block::text("One roll decides who wins.")],
            )],
        }
    }
    fn events(_: &Self, _: Roll, after: &Self, _: Viewer) -> Vec<Rolled> {
        after.roll.map(Rolled).into_iter().collect()
    }
}

impl Search for Duel {
    fn determinize<R: Rng + ?Sized>(&self, _: Seat, _: &mut R) -> Self {
        self.clone()
    }
}

impl Formats for Duel {
    fn validate(&self) -> Result<(), Vec<String>> {
        Ok(())
    }
}

/// A search over `param` for even chances of the first seat, random bots in both seats,
/// `games` games a candidate in the last round from `candidates`, on `threads` threads.
fn evens(param: &str, games: u64, candidates: usize, threads: usize) -> TuneOptions {
    TuneOptions {
        params: vec![param.parse().expect("param")],
        target: "win_rate[0]=0.5".parse().expect("target"),
        games,
        candidates,
        seed: 1,
        threads: Some(threads),
        seats: vec![BotSpec::Random; 2],
    }
}

#[test]
fn tune_finds_the_bonus_that_balances_the_first_seat() {
    let options = evens("bonus=0..40", 4000, 9, 2);
    let report = tune::<Duel>(&serde_json::json!({}), &options, &|| {}).expect("runs");
    assert_eq!(report.best.values, vec![20.0], "{report}");
    let (lo, hi) = report.best.win_rate_ci95;
    assert!(lo < 0.5 && 0.5 < hi, "{report}");
    assert_eq!(report.best.games, 4000);
    assert_eq!(report.rounds.first().map(Vec::len), Some(9));
}

#[test]
fn bad_parameters_and_targets_are_refused() {
    assert!("bonus".parse::<Param>().is_err());
    assert!("bonus=5..1".parse::<Param>().is_err());
    assert!("bonus=0.5..2".parse::<Param>().is_ok_and(|p| !p.integer));
    assert!("win_rate[0]=2".parse::<Target>().is_err());
    assert!("score[0]=0.5".parse::<Target>().is_err());
    let options = evens("wizard=0..4", 8, 3, 1);
    let err = tune::<Duel>(&serde_json::json!({}), &options, &|| {}).expect_err("no such option");
    assert!(err.to_string().contains("wizard"), "{err}");
}
