//! The small decisions a turn is made of, and their text notation.
//!
//! | Text | Meaning |
//! |---|---|
//! | `pick B` | take every card from your district B into your hand |
//! | `play 21` | play contraband card 21 into the next district |
//! | `play guard` | play a guard into the next district |
//! | `skip` | pass a guarded district while holding no guard |
//! | `cross` | Spy Pets: the next district is the one across the border |
//! | `grandma` | Grandma the Hacker: play clockwise this turn |
//! | `robot A` | Rebel Robot: also take the top card of your district A |
//! | `raid C` | The Shelf Raider: take one more card from the opponent's district C |
//! | `pass` | do not use The Shelf Raider |
use crate::cards::Card;
use engine::ParseActionError;
use std::fmt;
use std::str::FromStr;

/// A district letter on one player's side, 0-3 for A-D.
pub type Letter = u8;

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take all cards from one of your districts (turn order, step 1).
    Pick(Letter),
    /// Play this contraband card into the next district.
    Play(Card),
    /// Play one of your guards into the next district.
    PlayGuard,
    /// Skip a guarded district (you hold no guard).
    Skip,
    /// Spy Pets: go across the border instead of the next step.
    Cross,
    /// Grandma the Hacker: play clockwise this turn.
    Grandma,
    /// Rebel Robot: also take the top card of this neighbouring district of yours.
    Robot(Letter),
    /// The Shelf Raider: take one more card from this opponent's district.
    Raid(Letter),
    /// Decline The Shelf Raider.
    Pass,
}

// The base game's moves only: the advanced cards' moves are offered by name when they
// are there to be made (and a position lists its moves in a parse error, see
// `engine`'s `moves_now`), so a base game's player never reads of them.
const EXPECTED: &str =
    "moves look like `pick A` (a district, A-D), `play 12` (a card's number), `play guard` or `skip`";

/// `A`-`D` for a letter index.
pub fn letter_char(letter: Letter) -> char {
    char::from(b'A' + letter.min(3))
}

fn parse_letter(text: &str) -> Option<Letter> {
    match text {
        "a" | "A" => Some(0),
        "b" | "B" => Some(1),
        "c" | "C" => Some(2),
        "d" | "D" => Some(3),
        _ => None,
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Pick(l) => write!(f, "pick {}", letter_char(l)),
            Action::Play(card) => match card.number() {
                Some(n) => write!(f, "play {n}"),
                None => f.write_str("play guard"),
            },
            Action::PlayGuard => f.write_str("play guard"),
            Action::Skip => f.write_str("skip"),
            Action::Cross => f.write_str("cross"),
            Action::Grandma => f.write_str("grandma"),
            Action::Robot(l) => write!(f, "robot {}", letter_char(l)),
            Action::Raid(l) => write!(f, "raid {}", letter_char(l)),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseActionError::new(s, EXPECTED);
        let mut words = s.split_whitespace();
        let verb = words.next().ok_or_else(bad)?.to_ascii_lowercase();
        let arg = words.next();
        if words.next().is_some() {
            return Err(bad());
        }
        let letter = || arg.and_then(parse_letter).ok_or_else(bad);
        match (verb.as_str(), arg) {
            ("pick", _) => Ok(Action::Pick(letter()?)),
            ("robot", _) => Ok(Action::Robot(letter()?)),
            ("raid", _) => Ok(Action::Raid(letter()?)),
            ("play", Some(a)) if a.eq_ignore_ascii_case("guard") => Ok(Action::PlayGuard),
            ("play", Some(a)) => a
                .parse::<u8>()
                .ok()
                .and_then(Card::from_number)
                .map(Action::Play)
                .ok_or_else(bad),
            ("skip", None) => Ok(Action::Skip),
            ("cross", None) => Ok(Action::Cross),
            ("grandma", None) => Ok(Action::Grandma),
            ("pass", None) => Ok(Action::Pass),
            _ => Err(bad()),
        }
    }
}

engine::serde_as_notation!(Action);

impl Action {
    /// Every action there is (for tests that compare legality with the legal list).
    pub fn universe() -> Vec<Action> {
        let mut all = Vec::new();
        for l in 0..4 {
            all.extend([Action::Pick(l), Action::Robot(l), Action::Raid(l)]);
        }
        all.extend(Card::all().filter(|c| !c.is_guard()).map(Action::Play));
        all.extend([
            Action::PlayGuard,
            Action::Skip,
            Action::Cross,
            Action::Grandma,
            Action::Pass,
        ]);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips_through_text_and_serde() {
        for a in Action::universe() {
            let text = a.to_string();
            assert_eq!(text.parse::<Action>(), Ok(a), "{text}");
            let json = serde_json::to_string(&a).expect("serializes");
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<Action>(&json).ok(), Some(a));
        }
    }

    #[test]
    fn loose_input_reads_and_garbage_is_refused() {
        assert_eq!("  PICK b ".parse::<Action>(), Ok(Action::Pick(1)));
        assert_eq!("play Guard".parse::<Action>(), Ok(Action::PlayGuard));
        for bad in [
            "", "pick", "pick E", "play 0", "play 31", "play x", "skip now", "jump",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }
}
