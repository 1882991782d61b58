//! A move as it travels between the front ends and the rules: parsed once, where it
//! enters (the CLI, an HTTP body, a socket message, Python, a stored record), into the
//! game's own typed action behind [`AnyAction`], or into one of the table's own moves
//! ([`TableMove`]); [`Move`] is either. Its notation (`Display`) is what a record keeps.
use crate::error::ParseActionError;
use crate::seat::Seat;
use std::any::Any;
use std::fmt;
use std::str::FromStr;

/// The object-safe face of a game's action (`GameRules::Action` is `Copy + Eq + Display +
/// Debug`): what [`AnyAction`] needs to clone, compare and show it.
trait ErasedAction: fmt::Display + fmt::Debug + Send + Sync + 'static {
    fn clone_box(&self) -> Box<dyn ErasedAction>;
    fn same(&self, other: &dyn ErasedAction) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<A> ErasedAction for A
where
    A: Copy + Eq + fmt::Display + fmt::Debug + Send + Sync + 'static,
{
    fn clone_box(&self) -> Box<dyn ErasedAction> {
        Box::new(*self)
    }
    fn same(&self, other: &dyn ErasedAction) -> bool {
        other.as_any().downcast_ref::<A>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One game's action, typed, behind the type-erased interface ([`crate::DynState`]):
/// made by [`crate::DynState::parse_action`] (or [`AnyAction::new`] from a typed action)
/// and taken back out by the game it belongs to ([`AnyAction::get`]). Its `Display` is the
/// game's notation.
pub struct AnyAction(Box<dyn ErasedAction>);

impl AnyAction {
    /// `action` behind the erased type.
    pub fn new<A>(action: A) -> AnyAction
    where
        A: Copy + Eq + fmt::Display + fmt::Debug + Send + Sync + 'static,
    {
        AnyAction(Box::new(action))
    }

    /// The typed action, when this is an action of type `A` (`None` for another game's).
    pub fn get<A: Copy + 'static>(&self) -> Option<A> {
        self.0.as_any().downcast_ref::<A>().copied()
    }
}

impl Clone for AnyAction {
    fn clone(&self) -> Self {
        AnyAction(self.0.clone_box())
    }
}

impl PartialEq for AnyAction {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(&*other.0)
    }
}

impl Eq for AnyAction {}

impl fmt::Debug for AnyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for AnyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// A table move in a record's action list: `undo` (the last action is taken back) or
/// `resign N` (seat N, counted from 1, resigns; the value is the seat from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableMove {
    Undo,
    Resign(Seat),
}

const TABLE_EXPECTED: &str = "`undo`, or `resign N` with N a seat counted from 1";

/// Whether `text` is meant as a table move (its first word is `undo` or `resign`, in any
/// case), rather than a game action.
pub fn is_table_move(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("undo") || w.eq_ignore_ascii_case("resign"))
}

impl FromStr for TableMove {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseActionError::new(s, TABLE_EXPECTED);
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            [w] if w.eq_ignore_ascii_case("undo") => Ok(TableMove::Undo),
            [w, n] if w.eq_ignore_ascii_case("resign") => n
                .parse::<Seat>()
                .ok()
                .filter(|&n| n >= 1)
                .map(|n| TableMove::Resign(n - 1))
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for TableMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableMove::Undo => f.write_str("undo"),
            TableMove::Resign(seat) => write!(f, "resign {}", seat + 1),
        }
    }
}

/// A move at a table: the game's action, or a move every table has (`undo`, `resign N`).
/// Its `Display` is the notation a record keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Game(AnyAction),
    Table(TableMove),
}

impl Move {
    /// A game's typed action as a move (`Move::Game(AnyAction::new(action))`).
    pub fn game<A>(action: A) -> Move
    where
        A: Copy + Eq + fmt::Display + fmt::Debug + Send + Sync + 'static,
    {
        Move::Game(AnyAction::new(action))
    }

    /// The game's action, when this is one.
    pub fn action(&self) -> Option<&AnyAction> {
        match self {
            Move::Game(action) => Some(action),
            Move::Table(_) => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Game(action) => action.fmt(f),
            Move::Table(table) => table.fmt(f),
        }
    }
}

impl From<TableMove> for Move {
    fn from(table: TableMove) -> Move {
        Move::Table(table)
    }
}

impl From<AnyAction> for Move {
    fn from(action: AnyAction) -> Move {
        Move::Game(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Pick(u8);
    impl fmt::Display for Pick {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "pick {}", self.0)
        }
    }

    #[test]
    fn an_action_comes_back_out_as_its_own_type_only() {
        let action = AnyAction::new(Pick(3));
        assert_eq!(action.get::<Pick>(), Some(Pick(3)));
        assert_eq!(action.get::<u8>(), None);
        assert_eq!(action.to_string(), "pick 3");
        assert_eq!(action.clone(), action);
        assert_ne!(action, AnyAction::new(Pick(4)));
        assert_ne!(action, AnyAction::new(3u8));
        assert_eq!(Move::from(action).to_string(), "pick 3");
        assert_eq!(Move::from(TableMove::Resign(1)).to_string(), "resign 2");
    }
}
