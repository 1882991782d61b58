//! A game in play at a table: the game's state plus the table moves every game gets,
//! taking back a move (`undo`) and resigning (`resign N`).
//!
//! # Undo
//! A seat may take back its own actions since the start of its current turn, as long as
//! nothing was drawn, turned, rolled or revealed since and no other seat took part: the
//! game decides action by action ([`crate::Search::may_take_back`]). The session keeps the
//! states before each action that may be taken back; an action that may not, an action by
//! another seat, and a resignation clear them. `undo` restores the last of them, so
//! repeated undos take back more of the same turn. A finished game takes nothing back.
//!
//! # Resigning
//! A resigned seat is out. When at most one seat that has not resigned is left, the
//! session is over: that seat comes first, the resigned seats after it, the earliest
//! resigner last. Otherwise play goes on: the game still asks the resigned seat's
//! decisions ([`Session::to_act`] names it; the server lets a bot move for it), and once
//! the game ends every resigned seat ranks below every seat still playing (an earlier
//! resigner lower), the others keeping the game's scores and order.
//!
//! # Records
//! Table moves are entries of a record's action list like game actions: `undo` and
//! `resign N` (N counted from 1). [`Session::replay`] replays such a list.
use crate::dyn_state::DynState;
use crate::ending::{Ending, ScoreLine, SeatScore};
use crate::error::{Coded, EngineError, IllegalAction};
use crate::event::{Event, LogEntry, LogEvent};
use crate::moves::{is_table_move, Move, TableMove};
use crate::outcome::Outcome;
use crate::record::ReplayError;
use crate::seat::{Seat, Viewer};
use crate::text::Names;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a table move did, as every viewer is told it (the same for all: a table move
/// tells nothing about what was taken back).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// `seat` took back its last action.
    TookBack { seat: Seat },
    /// `seat` resigned.
    Resigned { seat: Seat },
    /// Everyone else resigned: `seat` wins.
    WonByResignation { seat: Seat },
}

impl Event for TableEvent {
    fn text(&self, names: &Names) -> String {
        match self {
            TableEvent::TookBack { seat } => format!("{} took back a move", names.seat(*seat)),
            TableEvent::Resigned { seat } => format!("{} resigned", names.seat(*seat)),
            TableEvent::WonByResignation { seat } => format!(
                "the game is over: {} won, everyone else resigned",
                names.seat(*seat)
            ),
        }
    }
}

/// A game in play at a table, over any game's state: game actions, `undo` and `resign`.
pub struct Session {
    state: Box<dyn DynState>,
    /// Resigned seats, in the order they resigned.
    resigned: Vec<Seat>,
    /// The states before each action that may still be taken back, oldest first; all
    /// were actions of `last_actor` in a row.
    takeback: Vec<Box<dyn DynState>>,
    /// The seat of the last game action.
    last_actor: Option<Seat>,
    /// Why `takeback` is empty, for the refusal of an undo.
    blocked: TableRefusal,
}

impl Clone for Session {
    fn clone(&self) -> Self {
        Session {
            state: self.state.clone_box(),
            resigned: self.resigned.clone(),
            takeback: self.takeback.iter().map(|s| s.clone_box()).collect(),
            last_actor: self.last_actor,
            blocked: self.blocked,
        }
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.state.game_name())
            .field("to_act", &self.to_act())
            .field("resigned", &self.resigned)
            .field("takeback", &self.takeback.len())
            .finish()
    }
}

fn refuse(entry: TableMove, reason: TableRefusal) -> EngineError {
    EngineError::Illegal(IllegalAction::<TableRefusal>::new(entry, reason).erase())
}

/// "seat 2", counted from 1, for messages.
fn seat_name(seat: Seat) -> String {
    format!("seat {}", seat + 1)
}

/// Why the table refuses a table move (`undo`, `resign N`): one variant per rule, each with
/// a stable code `table/...` ([`Coded`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableRefusal {
    /// The seat named is not at the table (`seats` of them).
    NoSuchSeat { seat: Seat, seats: usize },
    /// A resigned seat takes nothing back.
    Resigned(Seat),
    /// A seat resigns once.
    AlreadyResigned(Seat),
    /// Only the seat that moved last (`last`) may take back its move.
    NotLastMover { seat: Seat, last: Seat },
    /// No move has been made yet.
    NothingToUndo,
    /// The last move by the seat drew, turned, rolled or showed something, or needed
    /// another player.
    Irreversible(Seat),
    /// The seat has taken back every move of its turn that may be taken back.
    AllTakenBack(Seat),
    /// A seat resigned since the last move.
    ResignedSince(Seat),
    /// The game is over: nothing can be taken back.
    GameOver,
}

impl Coded for TableRefusal {
    fn code(&self) -> &'static str {
        match self {
            TableRefusal::NoSuchSeat { .. } => "table/no_such_seat",
            TableRefusal::Resigned(_) => "table/resigned",
            TableRefusal::AlreadyResigned(_) => "table/already_resigned",
            TableRefusal::NotLastMover { .. } => "table/not_last_mover",
            TableRefusal::NothingToUndo => "table/nothing_to_undo",
            TableRefusal::Irreversible(_) => "table/irreversible",
            TableRefusal::AllTakenBack(_) => "table/all_taken_back",
            TableRefusal::ResignedSince(_) => "table/resigned_since",
            TableRefusal::GameOver => "table/game_over",
        }
    }
}

impl fmt::Display for TableRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TableRefusal::NoSuchSeat { seat, seats } => write!(
                f,
                "there is no {}: the table has seats 1 to {seats}",
                seat_name(seat)
            ),
            TableRefusal::Resigned(seat) => write!(f, "{} has resigned", seat_name(seat)),
            TableRefusal::AlreadyResigned(seat) => {
                write!(f, "{} has already resigned", seat_name(seat))
            }
            TableRefusal::NotLastMover { seat, last } => write!(
                f,
                "{} has nothing to take back: {} moved last, and only the seat that moved last may take back its move",
                seat_name(seat),
                seat_name(last)
            ),
            TableRefusal::NothingToUndo => f.write_str("no move has been made yet"),
            TableRefusal::Irreversible(seat) => write!(
                f,
                "{}'s last move cannot be taken back: it drew, turned or rolled something, showed something hidden, or needed another player",
                seat_name(seat)
            ),
            TableRefusal::AllTakenBack(seat) => write!(
                f,
                "{} has taken back every move of this turn that may be taken back",
                seat_name(seat)
            ),
            TableRefusal::ResignedSince(seat) => {
                write!(f, "{} resigned since", seat_name(seat))
            }
            TableRefusal::GameOver => f.write_str("the game is over: nothing can be taken back"),
        }
    }
}

impl Session {
    /// A session from a game's state (a new game, or one loaded).
    pub fn new(state: Box<dyn DynState>) -> Session {
        Session {
            state,
            resigned: Vec::new(),
            takeback: Vec::new(),
            last_actor: None,
            blocked: TableRefusal::NothingToUndo,
        }
    }

    /// Replays a record's entries (game actions and table moves) from `start`.
    ///
    /// # Errors
    /// The first entry that does not apply; its index counts from 0.
    pub fn replay(start: Box<dyn DynState>, entries: &[String]) -> Result<Session, ReplayError> {
        let mut session = Session::new(start);
        for (index, entry) in entries.iter().enumerate() {
            session
                .parse(entry)
                .and_then(|mv| session.play(&mv))
                .map_err(|error| ReplayError {
                    index,
                    action: entry.clone(),
                    error,
                })?;
        }
        Ok(session)
    }

    /// The game's state, the session given up for it (a server that played a move on a
    /// copy of the session keeps the state before it).
    pub fn into_state(self) -> Box<dyn DynState> {
        self.state
    }

    /// The game's state now.
    pub fn state(&self) -> &dyn DynState {
        self.state.as_ref()
    }

    /// How many seats the table has.
    pub fn seats(&self) -> usize {
        self.state.seats()
    }

    /// Whether the session is over: the game ended, or at most one seat has not resigned.
    pub fn is_over(&self) -> bool {
        self.state.to_act().is_none() || self.seats() - self.resigned.len() <= 1
    }

    /// The seat whose decision it is (possibly a resigned seat, whose decisions someone
    /// else makes); `None` once the session is over.
    pub fn to_act(&self) -> Option<Seat> {
        if self.is_over() {
            None
        } else {
            self.state.to_act()
        }
    }

    /// Whether `seat` has resigned.
    pub fn is_resigned(&self, seat: Seat) -> bool {
        self.resigned.contains(&seat)
    }

    /// The resigned seats, in the order they resigned.
    pub fn resigned(&self) -> Vec<Seat> {
        self.resigned.clone()
    }

    /// Scores and places once the session is over; see the module's rules for resigned
    /// seats. Ended by resignation before the game's end, each seat keeps the score the
    /// board showed ([`crate::Present::standing`]; 0 in a game that shows none before its
    /// end).
    pub fn outcome(&self) -> Option<Outcome> {
        let seats = self.seats();
        let k = self.resigned.len();
        // Resigned seats take the last places, the latest resigner highest of them.
        let resigned_place = |i: usize| (seats - 1 - i) as u8;
        if let Some(game) = self.state.outcome() {
            if k == 0 {
                return Some(game);
            }
            let mut places = vec![0u8; seats];
            for (s, place) in places.iter_mut().enumerate() {
                *place = match self.resigned.iter().position(|&r| r == s) {
                    Some(i) => resigned_place(i),
                    None => (0..seats)
                        .filter(|&o| !self.is_resigned(o))
                        .filter(|&o| game.places.get(o) < game.places.get(s))
                        .count() as u8,
                };
            }
            return Some(Outcome {
                scores: game.scores,
                places,
            });
        }
        if !self.is_over() {
            return None;
        }
        let places = (0..seats)
            .map(|s| match self.resigned.iter().position(|&r| r == s) {
                Some(i) => resigned_place(i),
                None => 0,
            })
            .collect();
        Some(Outcome {
            scores: self.stopped_scores().iter().map(|s| s.total).collect(),
            places,
        })
    }

    /// Each seat's score where resignations stopped the game before its end: as the board
    /// shows it, or one line of 0 in a game that shows no score before the end.
    fn stopped_scores(&self) -> Vec<SeatScore> {
        let seats = self.seats();
        match self.state.standing() {
            Some(standing) if standing.len() == seats => standing,
            _ => vec![
                SeatScore::new(vec![ScoreLine::new(
                    "nothing is scored before the end of the game",
                    0,
                )]);
                seats
            ],
        }
    }

    /// Why the session ended and each seat's score line by line, once it is over (`None`
    /// before): the game's own explanation when the game reached its end (resignations
    /// added to why), else who resigned, with the scores the board showed. The totals are
    /// [`Session::outcome`]'s scores. `names` names the seats.
    pub fn ending(&self, names: &Names) -> Option<Ending> {
        if !self.is_over() {
            return None;
        }
        let resigned = (!self.resigned.is_empty()).then(|| names.list(&self.resigned));
        if let Some(mut ending) = self.state.ending(names) {
            if let Some(resigned) = resigned {
                ending.why = format!(
                    "{}; {resigned} resigned before the end and so placed below everyone still playing",
                    ending.why
                );
            }
            return Some(ending);
        }
        let left: Vec<Seat> = (0..self.seats())
            .filter(|&s| !self.is_resigned(s))
            .collect();
        let resigned = resigned.unwrap_or_else(|| "nobody".into());
        let why = match left.as_slice() {
            [] => format!("{resigned} resigned: nobody is left to play"),
            [winner] => format!(
                "{resigned} resigned, so {} won: the only one left in the game",
                names.seat(*winner)
            ),
            more => format!("{resigned} resigned, leaving {}", names.list(more)),
        };
        Some(Ending {
            why,
            seats: self.stopped_scores(),
        })
    }

    /// `text` read as a move here: a table move (its first word is `undo` or `resign`)
    /// or the game's action (not yet checked against the rules). This is the one place a
    /// move's text is read; everything after carries the [`Move`].
    ///
    /// # Errors
    /// [`EngineError::Parse`], saying what a move looks like here.
    pub fn parse(&self, text: &str) -> Result<Move, EngineError> {
        if is_table_move(text) {
            Ok(Move::Table(text.parse()?))
        } else {
            Ok(Move::Game(self.state.parse_action(text)?))
        }
    }

    /// Plays `mv`: a game action by the seat to act, or a table move (`undo` takes back
    /// the last action for the seat that may, see [`Session::undoer`]). Nothing changes
    /// when it is refused.
    ///
    /// # Errors
    /// A refused table move; a game action that is illegal, or comes once the session is
    /// over.
    pub fn play(&mut self, mv: &Move) -> Result<(), EngineError> {
        match mv {
            Move::Table(table) => match *table {
                TableMove::Undo => {
                    let Some(seat) = self.undoer() else {
                        return Err(refuse(*table, self.why_not()));
                    };
                    self.undo(seat)
                }
                TableMove::Resign(seat) => self.resign(seat),
            },
            Move::Game(action) => {
                let Some(seat) = self.to_act() else {
                    return Err(EngineError::GameOver);
                };
                let takeable = !self.is_resigned(seat) && self.state.may_take_back_any(action);
                let before = takeable.then(|| self.state.clone_box());
                self.state.apply_any(action)?;
                self.moved(seat, before);
                Ok(())
            }
        }
    }

    /// Keeps the books after a game action by `seat`: the state before it when it may be
    /// taken back, or why nothing may be now.
    fn moved(&mut self, seat: Seat, before: Option<Box<dyn DynState>>) {
        if self.last_actor != Some(seat) {
            self.takeback.clear();
        }
        match before {
            Some(before) => self.takeback.push(before),
            None => {
                self.takeback.clear();
                self.blocked = if self.is_resigned(seat) {
                    TableRefusal::Resigned(seat)
                } else {
                    TableRefusal::Irreversible(seat)
                };
            }
        }
        self.last_actor = Some(seat);
    }

    /// Who may take back a move now: the seat of the last game action, when that action
    /// may be taken back (it revealed and drew nothing and needed nobody else), the
    /// session is not over and nobody resigned since.
    pub fn undoer(&self) -> Option<Seat> {
        if self.is_over() || self.takeback.is_empty() {
            None
        } else {
            self.last_actor
        }
    }

    /// Why nothing can be taken back now.
    fn why_not(&self) -> TableRefusal {
        if self.is_over() {
            TableRefusal::GameOver
        } else {
            self.blocked
        }
    }

    /// `seat` takes back its last action: the game is exactly as it was before it.
    ///
    /// # Errors
    /// In plain words, when `seat` may not undo now: no such seat, nothing to take back,
    /// the last action drew or revealed something or needed another player, another seat
    /// acted since, or the game is over. The session is then unchanged.
    pub fn undo(&mut self, seat: Seat) -> Result<(), EngineError> {
        let undo = TableMove::Undo;
        self.check_seat(seat, undo)?;
        if self.is_resigned(seat) {
            return Err(refuse(undo, TableRefusal::Resigned(seat)));
        }
        // Another seat hears the same whether or not the last move may be taken back:
        // that answer is the mover's to know (it may rest on what the mover alone sees).
        match self.last_actor {
            Some(s) if s != seat && !self.is_over() => {
                return Err(refuse(undo, TableRefusal::NotLastMover { seat, last: s }))
            }
            _ if self.undoer() != Some(seat) => return Err(refuse(undo, self.why_not())),
            _ => {}
        }
        let Some(before) = self.takeback.pop() else {
            return Err(refuse(undo, self.why_not()));
        };
        self.state = before;
        if self.takeback.is_empty() {
            self.blocked = TableRefusal::AllTakenBack(seat);
        }
        Ok(())
    }

    /// `seat` resigns: it is out of the game (see the module's rules).
    ///
    /// # Errors
    /// No such seat, the seat already resigned, or the session is over; the session is
    /// then unchanged.
    pub fn resign(&mut self, seat: Seat) -> Result<(), EngineError> {
        let resign = TableMove::Resign(seat);
        self.check_seat(seat, resign)?;
        if self.is_over() {
            return Err(EngineError::GameOver);
        }
        if self.is_resigned(seat) {
            return Err(refuse(resign, TableRefusal::AlreadyResigned(seat)));
        }
        self.resigned.push(seat);
        self.takeback.clear();
        self.blocked = TableRefusal::ResignedSince(seat);
        Ok(())
    }

    fn check_seat(&self, seat: Seat, table: TableMove) -> Result<(), EngineError> {
        if seat < self.seats() {
            Ok(())
        } else {
            Err(refuse(
                table,
                TableRefusal::NoSuchSeat {
                    seat,
                    seats: self.seats(),
                },
            ))
        }
    }
}

/// Replays `entries` from `start` and tells every entry from index `since` on as `viewer`
/// may know it: a game action by the game's events, a table move by a [`TableEvent`].
///
/// # Errors
/// The first entry that does not replay.
pub fn session_log(
    start: Box<dyn DynState>,
    entries: &[String],
    viewer: Viewer,
    names: &Names,
    since: usize,
) -> Result<Vec<LogEntry>, ReplayError> {
    let mut session = Session::new(start);
    let mut log = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let fail = |error: EngineError| ReplayError {
            index,
            action: entry.clone(),
            error,
        };
        let mv = session.parse(entry).map_err(fail)?;
        let before = match &mv {
            Move::Game(_) if index >= since => Some(session.state.clone_box()),
            _ => None,
        };
        let seat = match &mv {
            Move::Table(TableMove::Undo) => session.undoer(),
            Move::Table(TableMove::Resign(s)) => Some(*s),
            Move::Game(_) => session.to_act(),
        };
        session.play(&mv).map_err(fail)?;
        if index < since {
            continue;
        }
        let seat = seat.unwrap_or_default();
        let events = match (&mv, before) {
            (Move::Table(TableMove::Undo), _) => {
                vec![LogEvent::new(&TableEvent::TookBack { seat }, names)]
            }
            (Move::Table(TableMove::Resign(_)), _) => {
                let mut events = vec![LogEvent::new(&TableEvent::Resigned { seat }, names)];
                if session.state.to_act().is_some() && session.is_over() {
                    if let Some(winner) = (0..session.seats()).find(|&s| !session.is_resigned(s)) {
                        events.push(LogEvent::new(
                            &TableEvent::WonByResignation { seat: winner },
                            names,
                        ));
                    }
                }
                events
            }
            (Move::Game(action), Some(before)) => before
                .step_events(action, session.state(), viewer, names)
                .unwrap_or_default(),
            (Move::Game(_), None) => Vec::new(),
        };
        log.push(LogEntry {
            index,
            seat,
            events,
        });
    }
    Ok(log)
}
