//! The end of a game explained: why it ended (the rule, in words) and each seat's score
//! built up line by line, from the game's own scoring, so the lines always add up.
//!
//! A game gives its [`Ending`] once it is over ([`crate::Present::ending`]), never before:
//! at the end everything is public. A game stopped by resignations ([`crate::Session`])
//! explains itself with the score each seat had as the board showed it
//! ([`crate::Present::standing`]).
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
    if seat_zero(text) {
        return Some(format!("a seat counted from 0: {text:?}"));
    }
    if singular_wrong(text) {
        return Some(format!("a plural after 1: {text:?}"));
    }
    None
}

/// Whether `text` says "seat 0" (any case) not followed by another digit. The conformance
/// harness reads every string of every view at every step with these checks, so they
/// allocate nothing and look only where a `0` is (found by `match_indices`' fast search).
fn seat_zero(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices('0').any(|(i, _)| {
        i >= 5
            && bytes[i - 5..i].eq_ignore_ascii_case(b"seat ")
            && !bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
    })
}

/// Whether `text` says "1 points", "1 cards", "+1 artifact cards" and the like: a
/// standalone 1 (after any of `(`, `-`, `+`, `−`) followed by a plural of the nouns the
/// games count in, maybe with one of a few words between. Two spaces part columns (a
/// terminal's "morale 1  dice ready"): words on either side of them are not one phrase.
/// Only the places where a `1` stands are looked at.
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
    let plural =
        |w: &str| PLURALS.contains(&w.trim_end_matches([',', ')', ':', ';', '.', '!', '?']));
    // The next word of the same phrase at or after `from`: none past a column break.
    let next_word = |from: usize| -> Option<(&str, usize)> {
        let rest = &text[from..];
        let start = rest.find(|c: char| !c.is_whitespace())?;
        if rest[..start].contains("  ") {
            return None;
        }
        let len = rest[start..]
            .find(char::is_whitespace)
            .unwrap_or(rest.len() - start);
        Some((&rest[start..start + len], from + start + len))
    };
    text.match_indices('1').any(|(i, _)| {
        // The 1 ends its word, and the word is the 1 after nothing but signs.
        let stands = text[..i]
            .trim_end_matches(['(', '-', '+', '\u{2212}'])
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        if !stands || !text[i + 1..].starts_with(char::is_whitespace) {
            return false;
        }
        match next_word(i + 1) {
            Some((word, _)) if plural(word) => true,
            Some((word, end)) if BETWEEN.contains(&word) => {
                next_word(end).is_some_and(|(word, _)| plural(word))
            }
            _ => false,
        }
    })
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

    /// The checks as first written (allocating a lowered copy, a copy with the column
    /// breaks marked and a list of words), to hold the allocation-free ones to.
    fn words_problem_as_written(text: &str) -> (bool, bool) {
        let lower = text.to_ascii_lowercase();
        let seat_zero = lower
            .match_indices("seat 0")
            .any(|(i, _)| !lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()));
        const PLURALS: [&str; 4] = ["points", "cards", "dice", "artifacts"];
        const BETWEEN: [&str; 2] = ["contraband", "artifact"];
        let text = text.replace("  ", " | ");
        let words: Vec<&str> = text.split_whitespace().collect();
        let one = |w: &str| w.trim_start_matches(['(', '-', '+', '\u{2212}']) == "1";
        let plural =
            |w: &str| PLURALS.contains(&w.trim_end_matches([',', ')', ':', ';', '.', '!', '?']));
        let singular = words.windows(2).any(|w| one(w[0]) && plural(w[1]))
            || words
                .windows(3)
                .any(|w| one(w[0]) && BETWEEN.contains(&w[1]) && plural(w[2]));
        (seat_zero, singular)
    }

    #[test]
    fn the_allocation_free_checks_agree_with_the_checks_as_first_written() {
        use rand::seq::IndexedRandom;
        use rand::Rng;
        // Pieces whose nouns are all in the reference's shorter lists.
        const PIECES: [&str; 26] = [
            "1",
            "1",
            "1 ",
            "1 points",
            "(1",
            "+1",
            "\u{2212}1",
            "11",
            "points",
            "cards,",
            "dice.",
            "artifacts)",
            "points",
            "contraband",
            "artifact",
            " ",
            "  ",
            "   ",
            "\n",
            "\t",
            "\u{a0}",
            "seat 0",
            "SEAT 0",
            "Seat 01",
            "é",
            "x",
        ];
        let mut rng = crate::rng_from_seed(7);
        let (mut seats, mut plurals) = (0, 0);
        for _ in 0..20_000 {
            let n = rng.random_range(0..9);
            let text: String = (0..n)
                .map(|_| *PIECES.choose(&mut rng).unwrap_or(&" "))
                .collect();
            let (seat_zero_then, singular_then) = words_problem_as_written(&text);
            assert_eq!(seat_zero(&text), seat_zero_then, "{text:?}");
            assert_eq!(singular_wrong(&text), singular_then, "{text:?}");
            seats += usize::from(seat_zero_then);
            plurals += usize::from(singular_then);
        }
        // Both answers came up often.
        assert!(seats > 1_000 && plurals > 500, "{seats} {plurals}");
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
