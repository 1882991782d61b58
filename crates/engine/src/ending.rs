//! The end of a game explained: why it ended (the rule, in words) and each seat's score
//! built up line by line, from the game's own scoring, so the lines always add up.
//!
//! A game gives its [`Ending`] once it is over ([`crate::Game::ending`]), never before:
//! at the end everything is public. A game stopped by resignations ([`crate::Session`])
//! explains itself with the score each seat had as the board showed it
//! ([`crate::Game::standing`]).
use crate::Outcome;
use serde::{Deserialize, Serialize};

/// Why the game ended and how each seat scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The rule that ended the game, in words ("seat 2 has a guard in every district").
    pub why: String,
    /// Each seat's score, by seat.
    pub seats: Vec<SeatScore>,
}

/// One seat's score, line by line; `total` is the sum of the lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatScore {
    pub lines: Vec<ScoreLine>,
    pub total: i64,
}

/// One line of a score: what it counts, in words, and its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    pub label: String,
    pub points: i64,
}

impl ScoreLine {
    pub fn new(label: impl Into<String>, points: i64) -> ScoreLine {
        ScoreLine {
            label: label.into(),
            points,
        }
    }
}

impl SeatScore {
    /// A score from its lines, the total their sum.
    pub fn new(lines: Vec<ScoreLine>) -> SeatScore {
        let total = lines.iter().map(|l| l.points).sum();
        SeatScore { lines, total }
    }

    /// Adds a line (and its points to the total).
    pub fn push(&mut self, label: impl Into<String>, points: i64) {
        self.total += points;
        self.lines.push(ScoreLine::new(label, points));
    }
}

impl Ending {
    /// The explanation's totals, by seat.
    pub fn totals(&self) -> Vec<i64> {
        self.seats.iter().map(|s| s.total).collect()
    }

    /// Checks the explanation against the outcome: one score a seat, each seat's lines
    /// adding up to its total, each total the outcome's score, and words in every text.
    ///
    /// # Errors
    /// Every problem found, in words.
    pub fn check(&self, outcome: &Outcome) -> Result<(), Vec<String>> {
        let mut problems = Vec::new();
        if self.why.trim().is_empty() {
            problems.push("the ending does not say why the game ended".to_string());
        }
        if self.seats.len() != outcome.scores.len() {
            problems.push(format!(
                "the ending scores {} seats, the outcome {}",
                self.seats.len(),
                outcome.scores.len()
            ));
        }
        for (seat, (score, &want)) in self.seats.iter().zip(&outcome.scores).enumerate() {
            let sum: i64 = score.lines.iter().map(|l| l.points).sum();
            if sum != score.total {
                problems.push(format!(
                    "seat {}: the lines add up to {sum}, the total says {}",
                    seat + 1,
                    score.total
                ));
            }
            if score.total != want {
                problems.push(format!(
                    "seat {}: the ending's total is {}, the outcome's score {want}",
                    seat + 1,
                    score.total
                ));
            }
            if score.lines.is_empty() {
                problems.push(format!("seat {}: no score line", seat + 1));
            }
            for line in &score.lines {
                if line.label.trim().is_empty() {
                    problems.push(format!("seat {}: a line without words", seat + 1));
                }
            }
        }
        let texts = std::iter::once(&self.why).chain(
            self.seats
                .iter()
                .flat_map(|s| s.lines.iter().map(|l| &l.label)),
        );
        problems.extend(texts.filter_map(|text| words_problem(text)));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// What keeps `text` from being plain words for a person, if anything: notation in
/// backticks, a seat counted from 0, or a plural after 1 ("1 points"). Every text the
/// games show people (log lines, refusals, move labels, views, endings) passes it; the
/// conformance harness checks them all.
pub fn words_problem(text: &str) -> Option<String> {
    if text.contains('`') {
        return Some(format!("notation in backticks: {text:?}"));
    }
    let lower = text.to_ascii_lowercase();
    if lower
        .match_indices("seat 0")
        .any(|(i, _)| !lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()))
    {
        return Some(format!("a seat counted from 0: {text:?}"));
    }
    if singular_wrong(text) {
        return Some(format!("a plural after 1: {text:?}"));
    }
    None
}

/// Whether `text` says "1 points", "1 cards", "+1 artifact cards" and the like: a
/// standalone 1 followed by a plural of the nouns the games count in.
fn singular_wrong(text: &str) -> bool {
    const PLURALS: [&str; 19] = [
        "points",
        "cards",
        "guards",
        "stars",
        "rounds",
        "districts",
        "seats",
        "players",
        "resources",
        "commodities",
        "dice",
        "workers",
        "recruits",
        "artifacts",
        "turns",
        "moves",
        "actions",
        "times",
        "steps",
    ];
    const BETWEEN: [&str; 5] = ["contraband", "artifact", "district", "more", "extra"];
    // Two spaces part columns (a terminal's "morale 1  dice ready"): not one phrase.
    let text = text.replace("  ", " | ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let one = |w: &str| w.trim_start_matches(['(', '-', '+', '\u{2212}']) == "1";
    let plural =
        |w: &str| PLURALS.contains(&w.trim_end_matches([',', ')', ':', ';', '.', '!', '?']));
    words.windows(2).any(|w| one(w[0]) && plural(w[1]))
        || words
            .windows(3)
            .any(|w| one(w[0]) && BETWEEN.contains(&w[1]) && plural(w[2]))
}

/// "1 point", "2 points", "-1 point", "0 points".
pub fn points(n: i64) -> String {
    plural(n, "point", "points")
}

/// `n` with the singular or the plural noun: "1 card", "3 cards".
pub fn plural(n: i64, one: &str, many: &str) -> String {
    if n.abs() == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A score of one line a seat, "score", from an outcome (the default explanation of a
/// game that gives no other).
pub fn from_outcome(why: impl Into<String>, outcome: &Outcome) -> Ending {
    Ending {
        why: why.into(),
        seats: outcome
            .scores
            .iter()
            .map(|&s| SeatScore::new(vec![ScoreLine::new("score", s)]))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(points(1), "1 point");
        assert_eq!(points(-1), "-1 point");
        assert_eq!(points(0), "0 points");
        assert_eq!(points(2), "2 points");
        assert_eq!(plural(1, "card", "cards"), "1 card");
    }

    #[test]
    fn a_score_adds_its_lines() {
        let mut s = SeatScore::new(vec![ScoreLine::new("round 1", 5)]);
        s.push("round 2", -2);
        assert_eq!(s.total, 3);
    }

    #[test]
    fn check_finds_a_wrong_sum_and_a_wrong_total() {
        let outcome = Outcome {
            scores: vec![3, 4],
            places: vec![1, 0],
        };
        let good = Ending {
            why: "the deck ran out".into(),
            seats: vec![
                SeatScore::new(vec![ScoreLine::new("a", 1), ScoreLine::new("b", 2)]),
                SeatScore::new(vec![ScoreLine::new("a", 4)]),
            ],
        };
        assert_eq!(good.check(&outcome), Ok(()));
        let mut bad = good.clone();
        bad.seats[0].total = 4;
        bad.seats[1].lines[0].label = "seat 0".into();
        let problems = bad.check(&outcome).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        let mut plural = good.clone();
        plural.why = "seat 1 won with 1 points".into();
        assert_eq!(plural.check(&outcome).map_err(|p| p.len()), Err(1));
        assert!(singular_wrong("won cards: 1 contraband cards"));
        assert!(!singular_wrong("won cards: 1 contraband card, 11 points"));
    }

    #[test]
    fn words_are_checked_for_notation_seats_from_0_and_plurals() {
        for bad in [
            "place another die, `trade`, or `end` the turn",
            "seat 0 holds no 3",
            "Seat 0's won pile",
            "+1 artifact cards",
            "choose 1 more resources",
            "lost 1 dice.",
        ] {
            assert!(words_problem(bad).is_some(), "{bad:?} passes");
        }
        for good in [
            "Seat 10 draws 2 cards",
            "+1 artifact card",
            "seat 1 scores 1 point, seat 2 scores 11 points",
            "Seat 3 won cards: 2 contraband cards",
            "morale 1  dice ready",
        ] {
            assert_eq!(words_problem(good), None, "{good:?}");
        }
    }
}
