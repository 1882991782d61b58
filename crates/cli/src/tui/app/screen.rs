//! The [`App`] as the drawing sees it ([`Screen`]).
use super::App;
use crate::tui::draw::{Keys, Screen, KEYS};
use crate::tui::nav::Nav;
use engine::LegalMove;

impl Screen for App {
    fn nav(&self) -> &Nav {
        &self.nav
    }

    fn title(&self) -> String {
        let game = &self.table.record.game;
        let turn = if let Some(why) = &self.failure {
            format!("stopped: {why}")
        } else if let Some(seat) = self.session.to_act() {
            if self.human_to_act().is_some() && self.table.humans == 1 {
                "your turn".to_string()
            } else {
                format!("{} to act", self.seat_name(seat))
            }
        } else {
            "the game is over".to_string()
        };
        let played = match self.actions().len() {
            1 => "1 move played".to_string(),
            n => format!("{n} moves played"),
        };
        format!("tabletop · {game} · {turn} · {played}")
    }

    fn board_title(&self) -> String {
        match self.board_viewer() {
            engine::Viewer::Seat(seat) => format!("Board for {}", self.seat_name(seat)),
            engine::Viewer::Spectator => "Board".to_string(),
        }
    }

    fn board_text(&self) -> String {
        self.state().view_text(self.board_viewer())
    }

    fn moves(&self) -> &[LegalMove] {
        &self.moves
    }

    fn moves_title(&self) -> String {
        if self.narrowed {
            "Moves there (Esc: all)".to_string()
        } else {
            format!("Your moves ({})", self.moves.len())
        }
    }

    fn no_moves(&self) -> String {
        if self.is_over() {
            "The game is over. Press q to leave.".to_string()
        } else {
            "Waiting for the other players…".to_string()
        }
    }

    fn log(&self) -> &[String] {
        &self.log
    }

    fn keys(&self) -> &'static Keys {
        &KEYS
    }

    fn rules(&self) -> Option<&engine::Rules> {
        Some(&self.rules)
    }

    fn help_foot(&self) -> Vec<String> {
        vec![
            "After /, a typed move may also start with q, u, h, r or ?.".to_string(),
            format!(
                "`tabletop rules {}` prints the whole rules.",
                self.table.record.game
            ),
        ]
    }

    fn cover(&self) -> Option<String> {
        self.cover.map(|seat| self.seat_name(seat))
    }
}
