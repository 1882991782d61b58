//! Actions and their text notation.
//!
//! | Text | Meaning |
//! |---|---|
//! | `up 12` / `down 30` | setup: keep dealt recruit 12 face up / 30 face down |
//! | `3@gen` | place an available die showing 3 on the Generator |
//! | `ret 3@gen` | pick a die showing 3 on the Generator to retrieve |
//! | `fin food` / `fin bliss` / `fin free` | retrieve the picked dice, paying 1 food / 1 bliss (morale +2) or nothing (morale −1) |
//! | `pay gold` | pay one good towards the pending cost |
//! | `take clay` / `draw` | tunnel or Sky Lounge reward: a resource / an artifact card |
//! | `star terr` / `star msa` | put the star in the territory / on market tile SA |
//! | `end` | stop placing doubles |
//! | `discard bear` / `lose food` | hand-limit discard / roll-penalty loss |
//! | `dilemma`, `rebel`, `conform`, `keep 17` | resolve the ethical dilemma |
//! | `trade`, `offer p2` (seat 2, counted from 1), `give gold`, `ask bear`, `propose`, `cancel`, `accept`, `decline` | trading |
//! | `pass` | nothing else is possible |
//! | `fin energy` | retrieve paying 1 energy (Jefferson) |
//! | `use amanda` / `decline` | use or decline the recruit ability offered (keys: `Recruit::key`) |
//! | `use chase-new` | the second ability of Dr. Sheppard, Pete or Chase, offered for a new worker (a bare `use chase` there was the notation before issue 16: old records are rewritten when loaded) |
//! | `set 4` | give a die a value (Amanda, Yordy) |
//! | `choose gold` / `choose morale` / `choose -knowledge` | a boon a recruit offers |
//!
//! Space codes: `gen aqu farm cloud`, `tun-e tun-s tun-w`, `end-e end-s end-w`,
//! `art-e art-s art-w art-i`, `nimbus breeze sky`, `act-e act-w`, construction sites
//! `ea1`..`wb4`, built markets `mea meb msa msb mwa mwb`.

use crate::cards::{Good, Recruit, Space};
use crate::state::{Boon, StarTarget};
use engine::ParseActionError;
use std::fmt;
use std::str::FromStr;

/// How a retrieval is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RetrievePay {
    /// Pay 1 food: morale +2.
    Food,
    /// Pay 1 bliss: morale +2.
    Bliss,
    /// Pay nothing: morale −1.
    Free,
    /// Jefferson the Shock Artist: pay 1 energy, knowledge −1 and morale +1.
    Energy,
}

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `up N`: keep dealt recruit N face up.
    KeepUp(Recruit),
    /// `down N`: keep dealt recruit N face down.
    KeepDown(Recruit),
    /// `V@SPACE`: place an available die showing V.
    Place { value: u8, space: Space },
    /// `ret V@SPACE`: pick one of your dice on the board to retrieve.
    Retrieve { value: u8, space: Space },
    /// `fin food|bliss|free`: retrieve the picked dice.
    FinishRetrieve(RetrievePay),
    /// `pay G`: pay one good towards the pending cost.
    Pay(Good),
    /// `take R`: take a resource (tunnel, Sky Lounge).
    Take(Good),
    /// `draw`: take an artifact card (tunnel).
    Draw,
    /// `star terr|mXX`: where an artifact-market star goes.
    Star(StarTarget),
    /// `end`: place no more doubles.
    End,
    /// `discard K`: discard an artifact card over the hand limit.
    Discard(Good),
    /// `lose G`: lose a commodity or resource to a roll penalty.
    Lose(Good),
    /// `dilemma`: reveal and resolve your dilemma (the whole turn).
    Dilemma,
    /// `rebel`: draw 2 recruits, keep 1.
    Rebel,
    /// `conform`: a star on the dilemma card.
    Conform,
    /// `keep N`: keep drawn recruit N.
    Keep(Recruit),
    /// `trade`: start an offer.
    Trade,
    /// `offer S`: the offer goes to seat S.
    Offer(u8),
    /// `give G`: add one G you give.
    Give(Good),
    /// `ask G`: add one G you ask for.
    Ask(Good),
    /// `propose`: send the offer.
    Propose,
    /// `cancel`: drop the offer.
    Cancel,
    /// `accept`: the partner takes the offer.
    Accept,
    /// `decline`: the partner refuses it.
    Decline,
    /// `pass`: nothing else is possible.
    Pass,
    /// `use KEY`: use the offered recruit ability (KEY from [`Recruit::key`]).
    Use(Recruit),
    /// `use KEY-new`: use the offered ability of a recruit that has two, the one for a new
    /// worker (Dr. Sheppard, Pete, Chase).
    UseNew(Recruit),
    /// `set V`: give a die the value V (Amanda, Yordy).
    Set(u8),
    /// `choose energy|...|morale|-knowledge`: a boon a recruit offers.
    Choose(Boon),
}

impl Action {
    /// Whether this action starts, builds or proposes a trade offer.
    pub(crate) fn builds_offer(self) -> bool {
        matches!(
            self,
            Action::Trade | Action::Offer(_) | Action::Give(_) | Action::Ask(_) | Action::Propose
        )
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::KeepUp(r) => write!(f, "up {}", r.number()),
            Action::KeepDown(r) => write!(f, "down {}", r.number()),
            Action::Place { value, space } => write!(f, "{value}@{space}"),
            Action::Retrieve { value, space } => write!(f, "ret {value}@{space}"),
            Action::FinishRetrieve(p) => write!(
                f,
                "fin {}",
                match p {
                    RetrievePay::Food => "food",
                    RetrievePay::Bliss => "bliss",
                    RetrievePay::Free => "free",
                    RetrievePay::Energy => "energy",
                }
            ),
            Action::Pay(g) => write!(f, "pay {g}"),
            Action::Take(g) => write!(f, "take {g}"),
            Action::Draw => f.write_str("draw"),
            Action::Star(StarTarget::Territory) => f.write_str("star terr"),
            Action::Star(StarTarget::Market(m)) => {
                write!(f, "star m{}", crate::cards::market_code(*m as usize % 6))
            }
            Action::End => f.write_str("end"),
            Action::Discard(g) => write!(f, "discard {g}"),
            Action::Lose(g) => write!(f, "lose {g}"),
            Action::Dilemma => f.write_str("dilemma"),
            Action::Rebel => f.write_str("rebel"),
            Action::Conform => f.write_str("conform"),
            Action::Keep(r) => write!(f, "keep {}", r.number()),
            Action::Trade => f.write_str("trade"),
            Action::Offer(s) => write!(f, "offer p{}", *s as usize + 1),
            Action::Give(g) => write!(f, "give {g}"),
            Action::Ask(g) => write!(f, "ask {g}"),
            Action::Propose => f.write_str("propose"),
            Action::Cancel => f.write_str("cancel"),
            Action::Accept => f.write_str("accept"),
            Action::Decline => f.write_str("decline"),
            Action::Pass => f.write_str("pass"),
            Action::Use(r) => write!(f, "use {}", r.key()),
            Action::UseNew(r) => write!(f, "use {}-new", r.key()),
            Action::Set(v) => write!(f, "set {v}"),
            Action::Choose(Boon::Good(g)) => write!(f, "choose {g}"),
            Action::Choose(Boon::Morale) => f.write_str("choose morale"),
            Action::Choose(Boon::LessKnowledge) => f.write_str("choose -knowledge"),
        }
    }
}

const EXPECTED: &str = "moves look like `3@gen`, `ret 3@gen`, `fin free`, `pay gold`, `take clay`, `draw`, `star terr`, `end`, `discard bear`, `up 12`, `offer p2`, `accept`, `use amanda`, `set 4`, `choose morale` or `pass`";

fn placement(s: &str) -> Option<(u8, Space)> {
    let (v, sp) = s.split_once('@')?;
    let value: u8 = v.parse().ok()?;
    if !(1..=6).contains(&value) {
        return None;
    }
    Some((value, Space::from_code(sp)?))
}

/// The recruits whose second ability (for a new worker) is its own action.
pub const TWO_ABILITIES: [Recruit; 3] = [Recruit::Sheppard, Recruit::Pete, Recruit::Chase];

fn recruit_number(s: &str) -> Option<Recruit> {
    Recruit::from_number(s.parse().ok()?)
}

/// `use KEY` or `use KEY-new` (only for the recruits with two abilities).
fn use_action(k: &str) -> Option<Action> {
    match k.strip_suffix("-new") {
        Some(k) => {
            let id = Recruit::from_key(k)?;
            if !TWO_ABILITIES.contains(&id) {
                return None;
            }
            Some(Action::UseNew(id))
        }
        None => Some(Action::Use(Recruit::from_key(k)?)),
    }
}

/// `set V`, a die value 1 to 6.
fn set_action(v: &str) -> Option<Action> {
    let v: u8 = v.parse().ok()?;
    if !(1..=6).contains(&v) {
        return None;
    }
    Some(Action::Set(v))
}

/// `star mX`: the star on market X.
fn star_market_action(m: &str) -> Option<Action> {
    let code = m.strip_prefix('m')?;
    let idx = (0..6).find(|&i| crate::cards::market_code(i) == code)?;
    Some(Action::Star(StarTarget::Market(idx as u8)))
}

/// `offer p2`: seat 2 counted from 1. (The older `offer 1`, counted from 0, is rewritten
/// when an old record is brought up to today's format: see `upgrade.rs`.)
fn offer_action(a: &str) -> Option<Action> {
    let s = a.strip_prefix('p')?.parse::<u8>().ok()?.checked_sub(1)?;
    if s >= 6 {
        return None;
    }
    Some(Action::Offer(s))
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let err = || ParseActionError::new(input, EXPECTED);
        let text = input.trim().to_ascii_lowercase();
        let mut words = text.split_whitespace();
        let head = words.next().ok_or_else(err)?;
        let arg = words.next();
        if words.next().is_some() {
            return Err(err());
        }
        let good = |a: Option<&str>| a.and_then(Good::from_code).ok_or_else(err);
        let action = match (head, arg) {
            (h, None) if h.contains('@') => {
                let (value, space) = placement(h).ok_or_else(err)?;
                Action::Place { value, space }
            }
            ("up", Some(a)) => Action::KeepUp(recruit_number(a).ok_or_else(err)?),
            ("down", Some(a)) => Action::KeepDown(recruit_number(a).ok_or_else(err)?),
            ("keep", Some(a)) => Action::Keep(recruit_number(a).ok_or_else(err)?),
            ("ret", Some(a)) => {
                let (value, space) = placement(a).ok_or_else(err)?;
                Action::Retrieve { value, space }
            }
            ("fin", Some("food")) => Action::FinishRetrieve(RetrievePay::Food),
            ("fin", Some("bliss")) => Action::FinishRetrieve(RetrievePay::Bliss),
            ("fin", Some("free")) => Action::FinishRetrieve(RetrievePay::Free),
            ("fin", Some("energy")) => Action::FinishRetrieve(RetrievePay::Energy),
            ("use", Some(k)) => use_action(k).ok_or_else(err)?,
            ("set", Some(v)) => set_action(v).ok_or_else(err)?,
            ("choose", Some("morale")) => Action::Choose(Boon::Morale),
            ("choose", Some("-knowledge")) => Action::Choose(Boon::LessKnowledge),
            ("choose", a) => Action::Choose(Boon::Good(good(a)?)),
            ("pay", a) => Action::Pay(good(a)?),
            ("take", a) => {
                let g = good(a)?;
                if !g.is_resource() {
                    return Err(err());
                }
                Action::Take(g)
            }
            ("draw", None) => Action::Draw,
            ("star", Some("terr")) => Action::Star(StarTarget::Territory),
            ("star", Some(m)) => star_market_action(m).ok_or_else(err)?,
            ("end", None) => Action::End,
            ("discard", a) => {
                let g = good(a)?;
                if !g.is_artifact() {
                    return Err(err());
                }
                Action::Discard(g)
            }
            ("lose", a) => {
                let g = good(a)?;
                if g.is_artifact() {
                    return Err(err());
                }
                Action::Lose(g)
            }
            ("dilemma", None) => Action::Dilemma,
            ("rebel", None) => Action::Rebel,
            ("conform", None) => Action::Conform,
            ("trade", None) => Action::Trade,
            ("offer", Some(a)) => offer_action(a).ok_or_else(err)?,
            ("give", a) => Action::Give(good(a)?),
            ("ask", a) => Action::Ask(good(a)?),
            ("propose", None) => Action::Propose,
            ("cancel", None) => Action::Cancel,
            ("accept", None) => Action::Accept,
            ("decline", None) => Action::Decline,
            ("pass", None) => Action::Pass,
            _ => return Err(err()),
        };
        Ok(action)
    }
}

engine::serde_as_notation!(Action);
