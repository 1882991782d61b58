//! What the full-screen boards share (a game at this terminal, a lesson, a server table):
//! where the focus is, the chosen move, how far the board and the log are scrolled, the
//! typing line, the answer line and the panel on top; and what keys and the mouse do to
//! them. What a key means for the game itself goes back to the screen's owner as an
//! [`Ask`].
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use std::cell::{Cell, RefCell};

/// The part of the screen the arrow keys work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Moves,
    Board,
    Log,
}

/// A panel drawn over the board until it is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The rules of the chosen move and the keys; any key closes it.
    Help,
    /// A question answered with `y` (anything else says no).
    Confirm(String),
}

/// What a key or a click asks of the screen's owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The screen took care of it.
    Nothing,
    Quit,
    /// Play the move at this place in the list.
    Play(usize),
    /// Play this typed line.
    Typed(String),
    /// One of the owner's own letters (undo, hint, resign…).
    Letter(char),
    /// Esc, with no line or panel to close.
    Back,
    /// `y` to the question of a [`Panel::Confirm`].
    Yes,
}

/// The panes as last drawn, for the mouse.
#[derive(Clone, Copy, Debug, Default)]
pub struct Areas {
    pub board: Rect,
    pub moves: Rect,
    pub log: Rect,
}

/// How many lines a turn of the mouse wheel scrolls.
const WHEEL: u16 = 3;

pub struct Nav {
    pub focus: Focus,
    pub selected: usize,
    pub board_scroll: u16,
    /// Lines up from the newest; 0 follows the log as it grows.
    pub log_back: u16,
    /// The move being typed, while the line is open.
    pub typing: Option<String>,
    /// The last answer to a key, in words.
    pub status: String,
    /// Whether `status` tells of a refusal (drawn as an error).
    pub refused: bool,
    pub panel: Option<Panel>,
    /// No colour (`NO_COLOR`: see [`no_color`]).
    pub mono: bool,
    /// The height of the moves pane at the last drawing (a page for PageUp/PageDown).
    pub(super) page: Cell<u16>,
    pub(super) areas: Cell<Areas>,
    /// The rows of the moves list at the last drawing: each screen row and the move on it.
    pub(super) rows: RefCell<Vec<(u16, usize)>>,
}

impl Default for Nav {
    fn default() -> Nav {
        Nav {
            focus: Focus::Moves,
            selected: 0,
            board_scroll: 0,
            log_back: 0,
            typing: None,
            status: String::new(),
            refused: false,
            panel: None,
            mono: false,
            page: Cell::new(10),
            areas: Cell::new(Areas::default()),
            rows: RefCell::new(Vec::new()),
        }
    }
}

/// Whether `NO_COLOR` asks for a screen without colour.
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

impl Nav {
    /// Tells `text` on the answer line (as a refusal when `refused`).
    pub fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.status = text.into();
        self.refused = refused;
    }

    /// Keeps the chosen move within a list of `moves`.
    pub fn clamp(&mut self, moves: usize) {
        self.selected = self.selected.min(moves.saturating_sub(1));
    }

    /// What one key does. `moves` is how many moves are listed, `letters` the owner's own
    /// keys (they come back as [`Ask::Letter`]; any other letter opens the typing line
    /// when `may_type`).
    pub fn on_key(&mut self, key: KeyEvent, moves: usize, letters: &str, may_type: bool) -> Ask {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Ask::Quit;
        }
        match self.panel.take() {
            Some(Panel::Help) => return Ask::Nothing,
            Some(Panel::Confirm(_)) => {
                if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                    return Ask::Yes;
                }
                self.say("Nothing was done.", false);
                return Ask::Nothing;
            }
            None => {}
        }
        if let Some(line) = &mut self.typing {
            match key.code {
                KeyCode::Esc => {
                    self.typing = None;
                    self.say("", false);
                }
                KeyCode::Enter => {
                    let text = line.trim().to_string();
                    self.typing = None;
                    if !text.is_empty() {
                        return Ask::Typed(text);
                    }
                }
                KeyCode::Backspace => {
                    line.pop();
                }
                KeyCode::Char(c) => line.push(c),
                _ => {}
            }
            return Ask::Nothing;
        }
        match key.code {
            KeyCode::Char('q') => return Ask::Quit,
            KeyCode::Char('?') => self.panel = Some(Panel::Help),
            KeyCode::Tab => {
                self.focus = match self.focus {
                    Focus::Moves => Focus::Board,
                    Focus::Board => Focus::Log,
                    Focus::Log => Focus::Moves,
                }
            }
            KeyCode::BackTab => {
                self.focus = match self.focus {
                    Focus::Moves => Focus::Log,
                    Focus::Board => Focus::Moves,
                    Focus::Log => Focus::Board,
                }
            }
            KeyCode::Char(c) if letters.contains(c) => return Ask::Letter(c),
            KeyCode::Esc => return Ask::Back,
            KeyCode::Char('/') => self.open_line(String::new(), may_type),
            KeyCode::Char(c) if self.focus == Focus::Moves => {
                self.open_line(c.to_string(), may_type)
            }
            KeyCode::Enter if self.focus == Focus::Moves => return Ask::Play(self.selected),
            code => self.scroll(self.focus, code, moves),
        }
        Ask::Nothing
    }

    fn open_line(&mut self, start: String, may_type: bool) {
        if !may_type {
            self.say("It is not your turn.", true);
            return;
        }
        self.typing = Some(start);
        self.say("Type a move (its notation, a number from the list, or a place); Enter plays it, Esc cancels.", false);
    }

    fn scroll(&mut self, pane: Focus, code: KeyCode, moves: usize) {
        let page = self.page.get().max(1);
        let step = |at: u16, up: bool, by: u16| {
            if up {
                at.saturating_sub(by)
            } else {
                at.saturating_add(by)
            }
        };
        match pane {
            Focus::Moves => {
                let last = moves.saturating_sub(1);
                let page = usize::from(page);
                self.selected = match code {
                    KeyCode::Up => self.selected.saturating_sub(1),
                    KeyCode::Down => (self.selected + 1).min(last),
                    KeyCode::PageUp => self.selected.saturating_sub(page),
                    KeyCode::PageDown => (self.selected + page).min(last),
                    KeyCode::Home => 0,
                    KeyCode::End => last,
                    _ => self.selected,
                };
            }
            Focus::Board => {
                // The board scrolls down its text; the drawing keeps it within the text.
                self.board_scroll = match code {
                    KeyCode::Up => step(self.board_scroll, true, 1),
                    KeyCode::Down => step(self.board_scroll, false, 1),
                    KeyCode::PageUp => step(self.board_scroll, true, page),
                    KeyCode::PageDown => step(self.board_scroll, false, page),
                    KeyCode::Home => 0,
                    KeyCode::End => u16::MAX,
                    _ => self.board_scroll,
                };
            }
            Focus::Log => {
                // The log counts back from its newest line.
                self.log_back = match code {
                    KeyCode::Up => step(self.log_back, false, 1),
                    KeyCode::Down => step(self.log_back, true, 1),
                    KeyCode::PageUp => step(self.log_back, false, page),
                    KeyCode::PageDown => step(self.log_back, true, page),
                    KeyCode::Home => u16::MAX,
                    KeyCode::End => 0,
                    _ => self.log_back,
                };
            }
        }
    }

    /// What the mouse does: a click on a move chooses it, a click on the chosen move (or
    /// a double click) plays it; a click on a pane gives it the focus; the wheel scrolls
    /// the pane under the pointer. A click anywhere closes the help.
    pub fn on_mouse(&mut self, mouse: MouseEvent, moves: usize) -> Ask {
        let at = Position::new(mouse.column, mouse.row);
        let areas = self.areas.get();
        let pane = if areas.moves.contains(at) {
            Some(Focus::Moves)
        } else if areas.board.contains(at) {
            Some(Focus::Board)
        } else if areas.log.contains(at) {
            Some(Focus::Log)
        } else {
            None
        };
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if self.panel == Some(Panel::Help) {
                    self.panel = None;
                    return Ask::Nothing;
                }
                if self.panel.is_some() || self.typing.is_some() {
                    // A question or a typed line is answered with keys.
                    return Ask::Nothing;
                }
                let Some(pane) = pane else {
                    return Ask::Nothing;
                };
                if pane == Focus::Moves {
                    let hit = self
                        .rows
                        .borrow()
                        .iter()
                        .find(|(row, _)| *row == mouse.row)
                        .map(|&(_, index)| index);
                    if let Some(index) = hit.filter(|&i| i < moves) {
                        if self.focus == Focus::Moves && index == self.selected {
                            return Ask::Play(index);
                        }
                        self.selected = index;
                    }
                }
                self.focus = pane;
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let Some(pane) = pane else {
                    return Ask::Nothing;
                };
                let up = mouse.kind == MouseEventKind::ScrollUp;
                let code = if up { KeyCode::Up } else { KeyCode::Down };
                let times = if pane == Focus::Moves { 1 } else { WHEEL };
                for _ in 0..times {
                    self.scroll(pane, code, moves);
                }
            }
            _ => {}
        }
        Ask::Nothing
    }
}
