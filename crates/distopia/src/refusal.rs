//! Why the rules refuse an action, one variant per rule, in plain words.
use crate::action::{letter_char, Letter};
use crate::cards::{Card, Collaborator};
use engine::Coded;
use std::fmt;

/// A district named from the side of the player to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Where {
    /// On the side of the player to act.
    pub yours: bool,
    pub letter: Letter,
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whose = if self.yours {
            "your"
        } else {
            "your opponent's"
        };
        write!(f, "{whose} district {}", letter_char(self.letter))
    }
}

/// A rule an action breaks in this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over: nobody acts.
    GameOver,
    /// Turn Order, step 1: an empty district is picked up only when all four are empty.
    EmptyDistrict(Where),
    /// A letter past D.
    NoSuchDistrict,
    /// A turn starts by picking up a district.
    PickFirst,
    /// The turn's district is picked up already.
    AlreadyPicked,
    /// Only contraband is played by its number.
    NotContraband,
    /// The card is not in the hand being played.
    NotInHand(Card),
    /// Contraband never goes on top of a guard.
    Guarded { at: Where, holds_guard: bool },
    /// A guard is played only by who holds one.
    NoGuard,
    /// A district without a guard must take a card.
    NotGuarded(Where),
    /// Who holds a guard plays it on a guarded district.
    MustPlayGuard(Where),
    /// No collaborator card is in play (the advanced mode deals one).
    NoCollaborator,
    /// Another collaborator is in play.
    OtherCollaborator {
        in_play: Collaborator,
        wanted: Collaborator,
    },
    /// The collaborator changes hands after each use.
    CollaboratorUsed(Collaborator),
    /// Spy Pets: the border is crossed once a turn.
    AlreadyCrossing,
    /// Grandma the Hacker is used before the first card.
    GrandmaTooLate,
    /// Rebel Robot is used before the first card.
    RobotTooLate,
    /// Rebel Robot takes from a district next to the one picked up.
    RobotNotNext { picked: Letter, letter: Letter },
    /// Rebel Robot takes a card from a district that has one.
    RobotEmpty(Letter),
    /// The Shelf Raider takes from a district just won from, topped by contraband.
    NotRaidable(Letter),
    /// The Shelf Raider's decision comes first.
    RaidFirst,
    /// The Shelf Raider comes after all the cards are played.
    RaidTooEarly,
}

/// Each rule's stable code, `distopia/<rule>` (docs/http-api.md lists them): an API, so a
/// code keeps its meaning once given.
impl Coded for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::GameOver => "distopia/game_over",
            Refusal::EmptyDistrict(..) => "distopia/empty_district",
            Refusal::NoSuchDistrict => "distopia/no_such_district",
            Refusal::PickFirst => "distopia/pick_first",
            Refusal::AlreadyPicked => "distopia/already_picked",
            Refusal::NotContraband => "distopia/not_contraband",
            Refusal::NotInHand(..) => "distopia/not_in_hand",
            Refusal::Guarded { .. } => "distopia/guarded",
            Refusal::NoGuard => "distopia/no_guard",
            Refusal::NotGuarded(..) => "distopia/not_guarded",
            Refusal::MustPlayGuard(..) => "distopia/must_play_guard",
            Refusal::NoCollaborator => "distopia/no_collaborator",
            Refusal::OtherCollaborator { .. } => "distopia/other_collaborator",
            Refusal::CollaboratorUsed(..) => "distopia/collaborator_used",
            Refusal::AlreadyCrossing => "distopia/already_crossing",
            Refusal::GrandmaTooLate => "distopia/grandma_too_late",
            Refusal::RobotTooLate => "distopia/robot_too_late",
            Refusal::RobotNotNext { .. } => "distopia/robot_not_next",
            Refusal::RobotEmpty(..) => "distopia/robot_empty",
            Refusal::NotRaidable(..) => "distopia/not_raidable",
            Refusal::RaidFirst => "distopia/raid_first",
            Refusal::RaidTooEarly => "distopia/raid_too_early",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::EmptyDistrict(at) => write!(
                f,
                "{at} is empty; pick one with cards (an empty one only when all four are empty)"
            ),
            Refusal::NoSuchDistrict => f.write_str("there are only districts A to D"),
            Refusal::PickFirst => f.write_str("first pick up one of your districts (pick A-D)"),
            Refusal::AlreadyPicked => {
                f.write_str("you already picked up a district; play your hand")
            }
            Refusal::NotContraband => f.write_str(
                "that is not a contraband card; guards are played with `play guard`",
            ),
            Refusal::NotInHand(card) => write!(f, "card {card} is not in your hand"),
            Refusal::Guarded { at, holds_guard } => write!(
                f,
                "{at} has a guard: you can never play contraband on top of a guard{}",
                if holds_guard {
                    " (you must play a guard there)"
                } else {
                    " (skip it)"
                }
            ),
            Refusal::NoGuard => f.write_str("you hold no guard"),
            Refusal::NotGuarded(at) => write!(f, "{at} has no guard: you must play a card there"),
            Refusal::MustPlayGuard(at) => {
                write!(f, "you hold a guard, so you must play a guard in {at}")
            }
            Refusal::NoCollaborator => f.write_str("no collaborator card is in play"),
            Refusal::OtherCollaborator { in_play, wanted } => {
                write!(f, "the collaborator in play is {in_play}, not {wanted}")
            }
            Refusal::CollaboratorUsed(which) => write!(
                f,
                "you used {which} last; only your opponent may use it now"
            ),
            Refusal::AlreadyCrossing => f.write_str("you are already crossing the border"),
            Refusal::GrandmaTooLate => {
                f.write_str("Grandma the Hacker must be used before you play your first card")
            }
            Refusal::RobotTooLate => {
                f.write_str("Rebel Robot must be used before you play your first card")
            }
            Refusal::RobotNotNext { picked, letter } => write!(
                f,
                "Rebel Robot takes from a district of yours next to {}; {} is not",
                letter_char(picked),
                letter_char(letter)
            ),
            Refusal::RobotEmpty(letter) => {
                write!(f, "your district {} is empty", letter_char(letter))
            }
            Refusal::NotRaidable(letter) => write!(
                f,
                "The Shelf Raider takes one more card only from a district you just won cards from whose top card is contraband; your opponent's district {} is not one",
                letter_char(letter)
            ),
            Refusal::RaidFirst => {
                f.write_str("decide on The Shelf Raider first: raid a district or pass")
            }
            Refusal::RaidTooEarly => {
                f.write_str("The Shelf Raider comes after all your cards are played")
            }
        }
    }
}
