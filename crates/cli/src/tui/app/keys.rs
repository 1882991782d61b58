//! What each key does to the [`App`]: the keys listed in [`crate::tui::draw::KEYS`].
use super::{App, Flow, Focus};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl App {
    /// What one key does.
    pub fn on_key(&mut self, key: KeyEvent) -> Flow {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Flow::Quit;
        }
        if self.help {
            self.help = false;
            return Flow::Continue;
        }
        if let Some(seat) = self.cover {
            match key.code {
                KeyCode::Enter => {
                    self.cover = None;
                    self.say(format!("{}: your turn.", self.seat_name(seat)), false);
                }
                KeyCode::Char('q') => return Flow::Quit,
                _ => {}
            }
            return Flow::Continue;
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
                        self.typed(&text);
                    }
                }
                KeyCode::Backspace => {
                    line.pop();
                }
                KeyCode::Char(c) => line.push(c),
                _ => {}
            }
            return Flow::Continue;
        }
        match key.code {
            KeyCode::Char('q') => return Flow::Quit,
            KeyCode::Char('?') => self.help = true,
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
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('h') => self.hint(),
            KeyCode::Esc if self.narrowed => {
                self.refresh();
                self.say("All the legal moves again.", false);
            }
            KeyCode::Char('/') => self.open_line(String::new()),
            KeyCode::Char(c) if self.focus == Focus::Moves => self.open_line(c.to_string()),
            KeyCode::Enter if self.focus == Focus::Moves => self.play_selected(),
            code => self.scroll(code),
        }
        Flow::Continue
    }

    fn open_line(&mut self, start: String) {
        if self.human_to_act().is_none() {
            self.say("It is not your turn.", true);
            return;
        }
        self.typing = Some(start);
        self.say("Type a move (its notation, a number from the list, or a place); Enter plays it, Esc cancels.", false);
    }

    fn scroll(&mut self, code: KeyCode) {
        let page = self.page.get().max(1);
        let step = |at: u16, up: bool, by: u16| {
            if up {
                at.saturating_sub(by)
            } else {
                at.saturating_add(by)
            }
        };
        match self.focus {
            Focus::Moves => {
                let last = self.moves.len().saturating_sub(1);
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
}
