//! What each key and click does to the [`App`]: the keys listed in
//! [`crate::tui::draw::KEYS`]. The moving about is [`Nav`]'s; the game's own keys are here.
use super::super::nav::Ask;
use super::{App, Flow};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};

/// The letters that do something of their own in `play` (any other opens the typing line).
const LETTERS: &str = "uhr";

impl App {
    /// What one key does.
    pub fn on_key(&mut self, key: KeyEvent) -> Flow {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Flow::Quit;
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
        let may_type = self.human_to_act().is_some();
        let ask = self.nav.on_key(key, self.moves.len(), LETTERS, may_type);
        self.answer(ask)
    }

    /// What the mouse does (nothing while the screen waits to be handed over).
    pub fn on_mouse(&mut self, mouse: MouseEvent) -> Flow {
        if self.cover.is_some() {
            return Flow::Continue;
        }
        let ask = self.nav.on_mouse(mouse, self.moves.len());
        self.answer(ask)
    }

    fn answer(&mut self, ask: Ask) -> Flow {
        match ask {
            Ask::Quit => return Flow::Quit,
            Ask::Nothing => {}
            Ask::Play(_) => self.play_selected(),
            Ask::Typed(text) => self.typed(&text),
            Ask::Letter('u') => self.undo(),
            Ask::Letter('h') => self.hint(),
            Ask::Letter('r') => self.ask_resign(),
            Ask::Letter(_) => {}
            Ask::Back if self.narrowed => {
                self.refresh();
                self.say("All the legal moves again.", false);
            }
            Ask::Back => {}
            Ask::Yes => self.resign(),
        }
        Flow::Continue
    }
}
