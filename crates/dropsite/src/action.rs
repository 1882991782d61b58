//! The action notation: `7 debt`, `7 new`, `7 on 3` (drop sites are numbered from 1 in
//! the order they were made).
use engine::ParseActionError;
use std::fmt;
use std::str::FromStr;

/// Where a card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// Face down onto the player's own debt pile.
    Debt,
    /// Starts a new drop site next to the others.
    New,
    /// Onto drop site `n` (0-based here, 1-based in the notation).
    Site(u8),
}

/// Play one card of the given value from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    pub card: u8,
    pub target: Target,
}

impl Action {
    pub fn debt(card: u8) -> Action {
        Action {
            card,
            target: Target::Debt,
        }
    }
    pub fn new_site(card: u8) -> Action {
        Action {
            card,
            target: Target::New,
        }
    }
    /// Onto drop site `site`, counted from 0.
    pub fn on(card: u8, site: usize) -> Action {
        Action {
            card,
            target: Target::Site(site as u8),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written piece by piece, without `write!`'s number formatting: the server writes
        // every legal action of every position it sends.
        write_number(f, u32::from(self.card))?;
        match self.target {
            Target::Debt => f.write_str(" debt"),
            Target::New => f.write_str(" new"),
            Target::Site(s) => {
                f.write_str(" on ")?;
                write_number(f, u32::from(s) + 1)
            }
        }
    }
}

/// `n` in decimal (the formatter's width and fill do not apply to actions).
fn write_number(f: &mut fmt::Formatter<'_>, n: u32) -> fmt::Result {
    f.write_str(itoa::Buffer::new().format(n))
}

const EXPECTED: &str =
    "moves look like `7 on 2` (a card onto drop site 2), `7 new` (a new drop site) or `7 debt`";

impl FromStr for Action {
    type Err = ParseActionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseActionError::new(s, EXPECTED);
        // Words compared without case and without a copy: the server parses every move
        // several times.
        let mut words = s.split_whitespace();
        let card = words
            .next()
            .and_then(|w| w.parse::<u8>().ok())
            .filter(|&c| c <= 12)
            .ok_or_else(err)?;
        let target = match (words.next(), words.next(), words.next()) {
            (Some(w), None, None) if w.eq_ignore_ascii_case("debt") => Target::Debt,
            (Some(w), None, None) if w.eq_ignore_ascii_case("new") => Target::New,
            (Some(on), Some(n), None) if on.eq_ignore_ascii_case("on") => {
                let site = n
                    .parse::<u8>()
                    .ok()
                    .filter(|&n| (1..=64).contains(&n))
                    .ok_or_else(err)?;
                Target::Site(site - 1)
            }
            _ => return Err(err()),
        };
        Ok(Action { card, target })
    }
}

engine::serde_as_notation!(Action);
