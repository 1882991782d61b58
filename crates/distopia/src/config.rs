//! Game options: the border set and advanced mode (collaborator and mission cards).
use crate::cards::{Border, Card, Collaborator, Contraband, Mission};
use engine::{ConfigError, GameOption, Input};
use serde::{Deserialize, Serialize};

/// The options of a game (`--border NAME --advanced --collaborator NAME --mission NAME`).
///
/// Advanced mode puts one collaborator and one mission card in play, each chosen at
/// random unless named. `none` leaves that card out of an advanced game. Naming a
/// collaborator or mission without `advanced` is an error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Which set of border cards sets the district limits (meadow by default).
    pub border: Border,
    /// Play with a collaborator and a mission card.
    pub advanced: bool,
    /// A collaborator name, `random` (the default in advanced mode) or `none`.
    pub collaborator: Option<String>,
    /// A mission name, `random` (the default in advanced mode) or `none`.
    pub mission: Option<String>,
    /// District limits A-D that replace the border set's printed numbers (card data for
    /// studies; each from 1 to 10). Written out only when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<[u8; 4]>,
    /// The values of contraband cards 1-30 in order (type, points, siren) that replace
    /// the printed ones of `data/cards.csv` (card data for studies: 10 of each type,
    /// points 1 to 20). Written out only when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contraband: Option<Vec<Contraband>>,
}

/// How one advanced-mode card is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice<T> {
    /// Not in play.
    Absent,
    /// Drawn at random when the game is set up.
    Random,
    /// This card.
    Fixed(T),
}

impl Config {
    /// The standard game on another border set.
    pub fn with_border(border: Border) -> Config {
        Config {
            border,
            ..Config::default()
        }
    }

    /// Advanced mode with a random collaborator and mission.
    pub fn advanced(border: Border) -> Config {
        Config {
            border,
            advanced: true,
            ..Config::default()
        }
    }

    /// The district limits A-D in play: the given ones, or the border set's.
    pub fn limits(&self) -> [u8; 4] {
        self.limits.unwrap_or_else(|| self.border.limits())
    }

    /// A card's values in play: the config's `contraband` list, or the printed ones
    /// (no type, no points for a guard).
    #[inline]
    pub fn contraband(&self, card: Card) -> Contraband {
        if card.is_guard() {
            return Contraband::GUARD;
        }
        self.contraband
            .as_ref()
            .and_then(|list| list.get(usize::from(card.0)))
            .copied()
            .unwrap_or_else(|| card.printed())
    }

    /// Which collaborator and mission this config asks for.
    ///
    /// # Errors
    /// Every unknown name, every card named without advanced mode, every limit out of
    /// range and every problem of the contraband values.
    pub fn choices(&self) -> Result<(Choice<Collaborator>, Choice<Mission>), ConfigError> {
        let mut problems = Vec::new();
        let collaborator = choose(
            self.advanced,
            self.collaborator.as_deref(),
            "collaborator",
            Collaborator::from_name,
            &Collaborator::all().map(Collaborator::key),
            &mut problems,
        );
        let mission = choose(
            self.advanced,
            self.mission.as_deref(),
            "mission",
            Mission::from_name,
            &Mission::all().map(Mission::key),
            &mut problems,
        );
        for (letter, &limit) in ['A', 'B', 'C', 'D']
            .iter()
            .zip(self.limits.iter().flatten())
        {
            if !(1..=10).contains(&limit) {
                problems.push(format!(
                    "limits: district {letter}'s limit must be 1 to 10, not {limit}"
                ));
            }
        }
        if let Some(list) = &self.contraband {
            problems.extend(Contraband::problems(list));
        }
        ConfigError::check(problems)?;
        Ok((collaborator, mission))
    }
}

fn choose<T>(
    advanced: bool,
    name: Option<&str>,
    what: &str,
    parse: fn(&str) -> Option<T>,
    known: &[&str],
    problems: &mut Vec<String>,
) -> Choice<T> {
    let name = name.map(str::trim);
    let choice = match name {
        None => {
            if advanced {
                Choice::Random
            } else {
                Choice::Absent
            }
        }
        Some(n) if n.eq_ignore_ascii_case("none") => Choice::Absent,
        Some(n) if n.eq_ignore_ascii_case("random") => Choice::Random,
        Some(n) => match parse(n) {
            Some(card) => Choice::Fixed(card),
            None => {
                problems.push(format!(
                    "unknown {what} `{n}` (known: {}, random, none)",
                    known.join(", ")
                ));
                return Choice::Absent;
            }
        },
    };
    if !advanced && !matches!(choice, Choice::Absent) {
        problems.push(format!(
            "--{what} needs --advanced (collaborator and mission cards are advanced mode)"
        ));
    }
    choice
}

/// The options described for people (`Present::about`), in the order a form shows them.
pub(crate) fn options() -> Vec<GameOption> {
    let borders: Vec<(String, String)> = Border::all()
        .into_iter()
        .map(|b| {
            let [a, b2, c, d] = b.limits();
            let name = b.to_string();
            let mut title = name.clone();
            title[..1].make_ascii_uppercase();
            (name, format!("{title} ({a}/{b2}/{c}/{d})"))
        })
        .collect();
    let collaborators: Vec<(String, String)> = Collaborator::all()
        .into_iter()
        .map(|c| (c.key().to_string(), c.to_string()))
        .collect();
    let missions: Vec<(String, String)> = Mission::all()
        .into_iter()
        .map(|m| (m.key().to_string(), m.to_string()))
        .collect();
    let choice = |first: &[(&str, &str)], rest: &[(String, String)]| {
        let mut all: Vec<(&str, &str)> = first.to_vec();
        all.extend(rest.iter().map(|(v, l)| (v.as_str(), l.as_str())));
        Input::choice(&all)
    };
    let card = [("", "Drawn at random"), ("none", "None")];
    vec![
        GameOption::new(
            "border",
            "Border",
            "Which set of border cards to play with: its numbers say how many cards a district holds before the extra ones are won.",
            choice(&[], &borders),
        ),
        GameOption::new(
            "advanced",
            "Advanced mode",
            "Play with one collaborator and one mission card.",
            Input::Toggle,
        ),
        GameOption::new(
            "collaborator",
            "Collaborator",
            "Advanced mode: the collaborator card in play.",
            choice(&card, &collaborators),
        )
        .variant(),
        GameOption::new(
            "mission",
            "Mission",
            "Advanced mode: the mission card in play.",
            choice(&card, &missions),
        )
        .variant(),
        GameOption::new(
            "limits",
            "District limits",
            "District limits A to D that replace the border set's numbers (card data for studies).",
            Input::Data,
        )
        .variant(),
        GameOption::new(
            "contraband",
            "Contraband values",
            "Type, points and siren of contraband cards 1 to 30 in order, replacing the printed ones (card data for studies).",
            Input::Data,
        )
        .variant(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_names() {
        assert_eq!(
            Config::default().choices(),
            Ok((Choice::Absent, Choice::Absent))
        );
        assert_eq!(
            Config::advanced(Border::City).choices(),
            Ok((Choice::Random, Choice::Random))
        );
        let named = Config {
            advanced: true,
            collaborator: Some("Spy Pets".into()),
            mission: Some("none".into()),
            ..Config::default()
        };
        assert_eq!(
            named.choices(),
            Ok((Choice::Fixed(Collaborator::SpyPets), Choice::Absent))
        );
    }

    #[test]
    fn every_problem_is_listed() {
        let bad = Config {
            advanced: false,
            collaborator: Some("wizard".into()),
            mission: Some("curfew".into()),
            ..Config::default()
        };
        let err = bad.choices().expect_err("two problems");
        assert_eq!(err.problems.len(), 2, "{err}");
        assert!(err.problems[0].contains("wizard"));
        assert!(err.problems[1].contains("--advanced"));
    }

    #[test]
    fn serde_is_strict_and_lowercase() {
        let c: Config =
            serde_json::from_str(r#"{"border":"coast","advanced":true}"#).expect("valid");
        assert_eq!(c.border, Border::Coast);
        assert!(serde_json::from_str::<Config>(r#"{"colour":1}"#).is_err());
        assert!(serde_json::from_str::<Config>(r#"{"border":"Desert"}"#).is_err());
    }
}
