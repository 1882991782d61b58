//! A game set up at the terminal, for both ways of playing it (line mode in `play`, the
//! full-screen board in `tui`): the table, who sits where, and what a typed word names.
use bots::{BotSpec, DynBot};
use engine::{DynState, GameRecord, LegalMove, Names, Viewer};

/// Who sits at a seat: a person at this terminal, or a bot.
pub(crate) enum Seat {
    Human,
    Bot(Box<dyn DynBot>),
}

/// A table set up from the command line: the game, who sits where, and how the log names them.
pub(crate) struct Table {
    pub state: Box<dyn DynState>,
    pub specs: Vec<BotSpec>,
    pub seats: Vec<Seat>,
    pub seed: u64,
    pub humans: usize,
    /// Who the log is told to (the one person at the terminal, or the public).
    pub viewer: Viewer,
    pub names: Names,
    pub record: GameRecord,
}

/// What a typed word that is no move comes to when it names a place on the board.
pub(crate) enum Narrowed<'a> {
    /// The one move that goes there.
    One(String),
    /// The moves that go there, for the player to choose from.
    Several(Vec<&'a LegalMove>),
    /// It is a move (or nothing the board names): the rules answer it.
    NotAPlace,
}

/// The move a number picks from the list (counted from 1), when `input` is a number in
/// the list's range: every prompt takes one as well as a move's notation.
pub(crate) fn numbered<'a>(moves: &'a [LegalMove], input: &str) -> Option<&'a LegalMove> {
    let n = input.parse::<usize>().ok()?;
    moves.get(n.checked_sub(1)?)
}

/// The legal moves that go to the place `input` names (the word the board shows in
/// brackets, such as Euphoria's `farm`), when `input` itself is not a move.
pub(crate) fn place_moves<'a>(
    state: &dyn DynState,
    moves: &'a [LegalMove],
    input: &str,
) -> Narrowed<'a> {
    if state.parse_action(input).is_ok() {
        return Narrowed::NotAPlace;
    }
    let there: Vec<&LegalMove> = moves.iter().filter(|m| m.goes_to(input)).collect();
    match there.as_slice() {
        [] => Narrowed::NotAPlace,
        [one] => Narrowed::One(one.action.clone()),
        _ => Narrowed::Several(there),
    }
}
