//! Presentation: the game told to people (its description, rules page, lessons, each
//! move's label, the log's events, the end explained and the score during play).
use super::rules::GameRules;
use crate::about::{About, MoveText};
use crate::ending::{self, Ending, SeatScore};
use crate::event::Event;
use crate::guide::Rules;
use crate::seat::Viewer;
use crate::text::Names;

/// What a game shows people: nothing here changes the game or its rules.
pub trait Present: GameRules {
    /// One thing a move did, as one viewer may know it (see [`log`]).
    type Event: Event;
    /// The game described for people: its title, its options in words, its printed
    /// components. Option defaults are filled in from [`GameRules::Config`]'s `Default` by
    /// [`DynGame::about`].
    fn about() -> About;
    /// The rules written for people: what the game is, its components (tables filled from
    /// the game's own data), set-up, a turn, every rule, scoring and the options.
    fn rules() -> Rules;
    /// The game's lessons, each a JSON text in the lesson format ([`lesson`],
    /// docs/lessons.md), usually `include_str!` of the crate's `lessons/*.json`. None by
    /// default.
    fn lessons() -> &'static [&'static str] {
        &[]
    }
    /// What a client needs to show `action`, legal now, to the seat to act: a label in
    /// words for this position (a cost or a change as the rules work it out here) and
    /// where it goes on the board, in the keys the game's page gives its parts. Worked out
    /// only from what the seat to act may know: the conformance harness checks that it
    /// stays the same when what that seat cannot see is resampled. The default labels a
    /// move with its notation and places it nowhere.
    fn describe(&self, action: Self::Action) -> MoveText {
        MoveText::words(action.to_string())
    }
    /// Why the game ended (the rule, in words, naming seats with `names`) and each seat's
    /// score line by line, once the game is over; `None` before (the end is public, play
    /// is not). Built from the game's own scoring, so each seat's lines add up to its
    /// total and the totals are [`GameRules::outcome`]'s scores (the conformance harness checks
    /// it). The default gives each seat one line, its score.
    fn ending(&self, names: &Names) -> Option<Ending> {
        let _ = names;
        self.outcome()
            .map(|o| ending::from_outcome("the game is over", &o))
    }
    /// Each seat's score as the board shows it now, line by line, from what everyone may
    /// see: what a game stopped by resignations ([`Session`]) scores. `None` when the
    /// board shows no score before the end (the default).
    fn standing(&self) -> Option<Vec<SeatScore>> {
        None
    }
    /// What `viewer` may know happened when `action` took `before` to `after`, in the
    /// order it happened. Worked out only when someone reads it, never inside
    /// [`GameRules::apply`]. Describe the move from `viewer`'s views before and after it plus
    /// the public part of `action`, so it tells nothing those do not: the conformance
    /// harness checks that the events stay the same when what `viewer` cannot see is
    /// resampled, or when the action is one `viewer` cannot tell apart from another.
    fn events(
        before: &Self,
        action: Self::Action,
        after: &Self,
        viewer: Viewer,
    ) -> Vec<Self::Event>;
    /// The part of `action` (taken now, in this state) that `viewer` may know, as text.
    /// The default is the whole notation; games whose actions hide something (a card
    /// banked face down) leave it out. [`Present::events`] may tell this and what the views
    /// show, nothing more: the conformance harness checks that two moves with the same
    /// public part and the same resulting view are told the same way.
    fn public_action(&self, action: Self::Action, viewer: Viewer) -> String {
        let _ = viewer;
        action.to_string()
    }
}
