//! The deck: card values 0-12, how many of each, and the points each scores.
//! Read from `data/deck.csv`, compiled into the crate.
use std::sync::LazyLock;

/// Card values run from 0 to `VALUES - 1`.
pub const VALUES: usize = 13;
/// Cards in a hand during play.
pub const HAND: usize = 5;
/// An unmatched debt card scores this.
pub const UNMATCHED: i64 = -2;

/// One card value's line of the deck table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardKind {
    pub value: u8,
    pub copies: u8,
    pub points: i64,
}

/// The deck table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    pub kinds: [CardKind; VALUES],
    pub size: usize,
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
        let size = out.iter().map(|k| k.copies as usize).sum();
        if problems.is_empty() {
            Ok(Deck { kinds: out, size })
        } else {
            Err(problems)
        }
    }

    /// Points for a card value.
    #[inline]
    pub fn points(&self, value: u8) -> i64 {
        self.kinds[value as usize].points
    }

    /// Fills `out` with every card of the deck, in value order.
    pub fn fill(&self, out: &mut Vec<u8>) {
        out.clear();
        for k in &self.kinds {
            out.extend(std::iter::repeat_n(k.value, k.copies as usize));
        }
    }
}

/// The deck compiled into the crate from `data/deck.csv`.
pub static DECK: LazyLock<Deck> =
    LazyLock::new(|| match Deck::parse(include_str!("../data/deck.csv")) {
        Ok(deck) => deck,
        // The file is compiled in and covered by a test, so this is a build defect.
        Err(problems) => panic!("data/deck.csv is broken: {}", problems.join("; ")),
    });
