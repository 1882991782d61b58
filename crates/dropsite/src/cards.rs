//! The deck: card values 0-12, how many of each, and the points each scores.
//! The printed deck is read from `data/deck.csv`, compiled into the crate; a game's
//! [`crate::Config`] carries its own deck (the printed one unless given), so a study can
//! run with corrected card data and its records replay with it.
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// Card values run from 0 to `VALUES - 1`.
pub const VALUES: usize = 13;
/// Cards in a hand during play.
pub const HAND: usize = 5;
/// An unmatched debt card scores this.
pub const UNMATCHED: i64 = -2;

/// One card value's line of the deck table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardKind {
    pub value: u8,
    pub copies: u8,
    pub points: i64,
}

/// The deck table: one line per card value, in value order once checked
/// ([`Deck::problems`]). In JSON, the list of lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Vec<CardKind>", into = "Vec<CardKind>")]
pub struct Deck {
    pub kinds: Vec<CardKind>,
}

impl From<Vec<CardKind>> for Deck {
    fn from(mut kinds: Vec<CardKind>) -> Deck {
        kinds.sort_by_key(|k| k.value);
        Deck { kinds }
    }
}

impl From<Deck> for Vec<CardKind> {
    fn from(deck: Deck) -> Vec<CardKind> {
        deck.kinds
    }
}

impl Default for Deck {
    /// The printed deck.
    fn default() -> Deck {
        DECK.clone()
    }
}

impl Deck {
    /// Parses the deck table (`value,copies,points` lines; `#` starts a comment).
    ///
    /// # Errors
    /// Every malformed or missing line.
    pub fn parse(text: &str) -> Result<Deck, Vec<String>> {
        let mut kinds: [Option<CardKind>; VALUES] = [None; VALUES];
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let parsed = match fields.as_slice() {
                [v, c, p] => match (v.parse::<u8>(), c.parse::<u8>(), p.parse::<i64>()) {
                    (Ok(value), Ok(copies), Ok(points)) => Some(CardKind {
                        value,
                        copies,
                        points,
                    }),
                    _ => None,
                },
                _ => None,
            };
            match parsed {
                Some(kind) if (kind.value as usize) < VALUES => {
                    if kinds[kind.value as usize].replace(kind).is_some() {
                        problems.push(format!("line {}: value {} listed twice", n + 1, kind.value));
                    }
                }
                _ => problems.push(format!(
                    "line {}: expected `value,copies,points` with value 0-12, got `{line}`",
                    n + 1
                )),
            }
        }
        let mut out = [CardKind {
            value: 0,
            copies: 0,
            points: 0,
        }; VALUES];
        for (v, kind) in kinds.iter().enumerate() {
            match kind {
                Some(k) => out[v] = *k,
                None => problems.push(format!("value {v} is missing")),
            }
        }
        if problems.is_empty() {
            Ok(Deck {
                kinds: out.to_vec(),
            })
        } else {
            Err(problems)
        }
    }

    /// Every problem with this table: each value 0-12 exactly once, 0 to 12 copies of
    /// each, points from -50 to 50, and at least `cards_needed` cards in all.
    pub fn problems(&self, cards_needed: usize) -> Vec<String> {
        let mut problems = Vec::new();
        for v in 0..VALUES as u8 {
            match self.kinds.iter().filter(|k| k.value == v).count() {
                1 => {}
                0 => problems.push(format!("deck: value {v} is missing")),
                n => problems.push(format!("deck: value {v} is listed {n} times")),
            }
        }
        for k in &self.kinds {
            if k.value as usize >= VALUES {
                problems.push(format!("deck: value {} is not a card (0-12)", k.value));
            }
            if k.copies > 12 {
                problems.push(format!(
                    "deck: {} copies of value {} (at most 12)",
                    k.copies, k.value
                ));
            }
            if !(-50..=50).contains(&k.points) {
                problems.push(format!(
                    "deck: value {} scores {} points (-50 to 50)",
                    k.value, k.points
                ));
            }
        }
        if self.size() < cards_needed {
            problems.push(format!(
                "deck: {} cards, but the table needs at least {cards_needed} (five a seat and a first drop site)",
                self.size()
            ));
        }
        problems
    }

    /// How many cards the deck holds.
    pub fn size(&self) -> usize {
        self.kinds.iter().map(|k| k.copies as usize).sum()
    }

    /// Points for a card value (0 for a value the deck does not have).
    #[inline]
    pub fn points(&self, value: u8) -> i64 {
        self.kinds.get(value as usize).map_or(0, |k| k.points)
    }

    /// Copies of a card value.
    pub fn copies(&self, value: u8) -> usize {
        self.kinds
            .get(value as usize)
            .map_or(0, |k| k.copies as usize)
    }

    /// Fills `out` with every card of the deck, in value order.
    pub fn fill(&self, out: &mut Vec<u8>) {
        out.clear();
        for k in &self.kinds {
            out.extend(std::iter::repeat_n(k.value, k.copies as usize));
        }
    }
}

/// The printed components for people (`Present::about`): the deck with each value's copies
/// and points, what an unmatched debt card scores, and the hand size.
pub(crate) fn components() -> serde_json::Value {
    serde_json::json!({
        "deck": DECK.kinds,
        "unmatched": UNMATCHED,
        "hand": HAND,
        "scoring": format!(
            "At the end of a round each debt card scores its points once for every value a drop site shows that equals it, or {UNMATCHED} if none does."
        ),
    })
}

/// The printed deck, compiled into the crate from `data/deck.csv`.
pub static DECK: LazyLock<Deck> =
    LazyLock::new(|| match Deck::parse(include_str!("../data/deck.csv")) {
        Ok(deck) => deck,
        // The file is compiled in and covered by a test, so this is a build defect.
        Err(problems) => panic!("data/deck.csv is broken: {}", problems.join("; ")),
    });
