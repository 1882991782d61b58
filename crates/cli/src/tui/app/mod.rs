//! The full-screen game's state and what it does: moves played, taken back and hinted,
//! bots' turns handed out (the keys are in [`keys`]). No terminal in here, so the tests
//! drive it with key events and read what [`super::draw`] makes of it.
use super::nav::{Focus, Nav, Panel};
use crate::table::{Narrowed, Seat, Table};
use bots::{BotSpec, CoachOptions, DynBot};
use engine::{AnyAction, DynState, Event, LegalMove, Move, Session, TableEvent, TableMove, Viewer};
use std::path::PathBuf;

mod keys;
mod screen;

/// What the event loop does after a key.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A bot's decision handed out to be worked out away from the screen: the seat, the bot,
/// and the position it decides in.
pub type BotJob = (usize, Box<dyn DynBot>, Box<dyn DynState>);

pub struct App {
    session: Session,
    /// Each seat's player; a bot is out (`None`) while it thinks elsewhere.
    bots: Vec<Option<Box<dyn DynBot>>>,
    specs: Vec<BotSpec>,
    /// The table as set up (its `state` stays the first position; the session plays on).
    pub(super) table: Table,
    /// The log in words, oldest first.
    pub log: Vec<String>,
    /// The legal moves of the person to act (empty on a bot's turn), or the few a typed
    /// place narrowed them to.
    pub moves: Vec<LegalMove>,
    pub narrowed: bool,
    /// The focus, the chosen move, the scrolled panes, the typing line, the answer line.
    pub nav: Nav,
    /// The seat the screen waits to be handed to (several people at one terminal).
    pub cover: Option<usize>,
    shown: Option<usize>,
    record_path: Option<PathBuf>,
    max_moves: Option<usize>,
    /// Why the game stopped short (a bot found no move, the move bound was reached).
    pub failure: Option<String>,
    over_told: bool,
    /// The game's rules page, for `?` on a move.
    pub(super) rules: engine::Rules,
}

impl App {
    pub fn new(table: Table, record_path: Option<PathBuf>, max_moves: Option<usize>) -> App {
        let mut table = table;
        let copy = table.state.clone_box();
        let state = std::mem::replace(&mut table.state, copy);
        let bots = std::mem::take(&mut table.seats)
            .into_iter()
            .map(|s| match s {
                Seat::Human => None,
                Seat::Bot(bot) => Some(bot),
            })
            .collect();
        let specs = table.specs.clone();
        let table_game = table.record.game.clone();
        let seats: Vec<String> = specs
            .iter()
            .enumerate()
            .map(|(s, spec)| format!("{}: {spec}", s + 1))
            .collect();
        let mut app = App {
            session: Session::new(state),
            bots,
            specs,
            log: vec![format!(
                "{} · seats {}",
                table.record.game,
                seats.join(", ")
            )],
            table,
            moves: Vec::new(),
            narrowed: false,
            nav: Nav::default(),
            cover: None,
            shown: None,
            record_path,
            max_moves,
            failure: None,
            over_told: false,
            rules: catalog::game(&table_game)
                .map(|g| g.rules())
                .unwrap_or_else(|_| engine::Rules {
                    title: String::new(),
                    sections: Vec::new(),
                }),
        };
        app.refresh();
        app
    }

    pub fn state(&self) -> &dyn DynState {
        self.session.state()
    }

    pub fn is_over(&self) -> bool {
        self.session.is_over() || self.failure.is_some()
    }

    pub fn actions(&self) -> &[String] {
        &self.table.record.actions
    }

    /// The person to act, when it is a person's turn.
    pub fn human_to_act(&self) -> Option<usize> {
        self.session
            .to_act()
            .filter(|&s| self.specs[s] == BotSpec::Human)
    }

    /// A seat's name for the title and prompts: "seat 2 (easy)", or "seat 1 (you)".
    pub fn seat_name(&self, seat: usize) -> String {
        match &self.specs[seat] {
            BotSpec::Human if self.table.humans == 1 => format!("seat {} (you)", seat + 1),
            BotSpec::Human => format!("seat {}", seat + 1),
            bot => format!("seat {} ({bot})", seat + 1),
        }
    }

    /// Whose eyes the board is drawn for: the person to act, the one person at the
    /// terminal, or (several people, a bot's turn, the end) everyone.
    pub fn board_viewer(&self) -> Viewer {
        if self.session.is_over() {
            return Viewer::Spectator;
        }
        match self.human_to_act() {
            Some(seat) if self.cover.is_none() => Viewer::Seat(seat),
            _ => self.table.viewer,
        }
    }

    /// After every change: the moves of the person to act, the screen to hand over, the
    /// end told once.
    fn refresh(&mut self) {
        self.narrowed = false;
        self.moves = match self.human_to_act() {
            Some(seat) => {
                if self.table.humans > 1 && self.shown != Some(seat) {
                    self.cover = Some(seat);
                }
                self.shown = Some(seat);
                self.state().moves()
            }
            None => Vec::new(),
        };
        self.nav.clamp(self.moves.len());
        if self.session.is_over() && !self.over_told {
            self.over_told = true;
            self.tell_end();
        }
    }

    fn tell_end(&mut self) {
        let names = &self.table.names;
        let mut lines = vec![format!(
            "The game is over after {} moves.",
            self.table.record.actions.len()
        )];
        if let Some(ending) = self.session.ending(names) {
            lines.push(format!(
                "Why it ended: {}.",
                ending.why.trim_end_matches('.')
            ));
        }
        if let Some(outcome) = self.session.outcome() {
            for (seat, score) in outcome.scores.iter().enumerate() {
                lines.push(format!("{}: {score} points", self.seat_name(seat)));
            }
            let winners: Vec<String> = outcome
                .winners()
                .iter()
                .map(|&s| self.seat_name(s))
                .collect();
            lines.push(format!("Winner: {}.", winners.join(" and ")));
        }
        lines.push(format!("Seed {}.", self.table.seed));
        self.log.extend(lines);
        self.nav.log_back = 0;
        self.say("The game is over: q leaves.", false);
    }

    fn say(&mut self, text: impl Into<String>, refused: bool) {
        self.nav.say(text, refused);
    }

    /// Plays `action` for the seat to act: its events go to the log and the record.
    fn apply(&mut self, action: AnyAction) -> Result<(), engine::EngineError> {
        let before = self.state().clone_box();
        self.session.play(&Move::Game(action.clone()))?;
        let events = before
            .step_events(
                &action,
                self.session.state(),
                self.table.viewer,
                &self.table.names,
            )
            .unwrap_or_default();
        self.log.extend(events.into_iter().map(|e| e.text));
        self.nav.log_back = 0;
        self.table.record.actions.push(action.to_string());
        self.save();
        if let Some(max) = self
            .max_moves
            .filter(|&max| self.table.record.actions.len() >= max && !self.session.is_over())
        {
            self.failure = Some(format!(
                "the game did not end within {max} moves (seed {})",
                self.table.seed
            ));
        }
        self.refresh();
        Ok(())
    }

    fn save(&mut self) {
        let Some(path) = &self.record_path else {
            return;
        };
        let written = serde_json::to_string_pretty(&self.table.record)
            .map_err(anyhow::Error::from)
            .and_then(|text| std::fs::write(path, text).map_err(anyhow::Error::from));
        if let Err(e) = written {
            self.say(format!("The record could not be written: {e}."), true);
        }
    }

    /// A bot's turn to hand out, when a bot is to act and is not thinking already.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        if self.is_over() {
            return None;
        }
        let seat = self.session.to_act()?;
        let bot = self.bots[seat].take()?;
        self.say(format!("{} is thinking…", self.seat_name(seat)), false);
        Some((seat, bot, self.state().clone_box()))
    }

    /// The bot back with its choice, played.
    pub fn bot_done(&mut self, seat: usize, bot: Box<dyn DynBot>, action: Option<AnyAction>) {
        let name = bot.name();
        self.bots[seat] = Some(bot);
        self.say("", false);
        if self.session.is_over() {
            // The person resigned while the bot thought: its move comes too late.
            return;
        }
        match action {
            None => self.failure = Some(format!("the {name} bot found no move")),
            Some(action) => {
                if let Err(e) = self.apply(action) {
                    self.failure = Some(format!("the bot's move was refused: {e}"));
                }
            }
        }
    }

    #[cfg(test)]
    /// Every bot move due now, played here and now (the tests; the terminal thinks away
    /// from the screen instead).
    pub fn run_bots(&mut self) {
        while let Some((seat, mut bot, state)) = self.bot_job() {
            let action = bot.choose(state.as_ref());
            self.bot_done(seat, bot, action);
        }
    }

    fn play_selected(&mut self) {
        let Some(m) = self.moves.get(self.nav.selected) else {
            let why = if self.session.is_over() {
                "The game is over: q leaves."
            } else {
                "It is not your turn."
            };
            self.say(why, true);
            return;
        };
        let text = m.action.clone();
        self.play_text(&text);
    }

    /// A typed line: a number from the list, a place on the board, or a move's notation.
    fn typed(&mut self, input: &str) {
        // As in line mode, a number in the list's range chooses from the list.
        if let Some(m) = crate::table::numbered(&self.moves, input) {
            let text = m.action.clone();
            self.play_text(&text);
            return;
        }
        match crate::table::place_moves(self.state(), &self.moves, input) {
            Narrowed::One(action) => self.play_text(&action),
            Narrowed::Several(these) => {
                let these: Vec<LegalMove> = these.into_iter().cloned().collect();
                self.moves = these;
                self.narrowed = true;
                self.nav.selected = 0;
                self.nav.focus = Focus::Moves;
                self.say(
                    format!(
                        "`{input}` could be any of these moves: choose one (Esc shows them all)."
                    ),
                    false,
                );
            }
            Narrowed::NotAPlace => self.play_text(input),
        }
    }

    /// Plays the move `text` for the person to act; a refusal is told and changes nothing.
    fn play_text(&mut self, text: &str) {
        if self.human_to_act().is_none() {
            self.say("It is not your turn.", true);
            return;
        }
        // Cleared first, so that what playing says (a record not written) stays.
        self.say("", false);
        let played = match self.session.parse(text) {
            Ok(Move::Game(action)) => self.apply(action),
            Ok(Move::Table(TableMove::Undo)) => {
                self.undo();
                return;
            }
            Ok(Move::Table(TableMove::Resign(_))) => {
                self.ask_resign();
                return;
            }
            Err(e) => Err(e),
        };
        if let Err(e) = played {
            self.say(format!("{}.", crate::said(&e)), true);
        }
    }

    /// `u`: the person who played last takes it back, when the rules let them.
    fn undo(&mut self) {
        let Some(seat) = self.session.undoer().or(self.human_to_act()) else {
            self.say("There is nothing to take back.", true);
            return;
        };
        if self.specs[seat] != BotSpec::Human {
            self.say(
                format!(
                    "There is nothing of yours to take back: {} moved since.",
                    self.seat_name(seat)
                ),
                true,
            );
            return;
        }
        match self.session.undo(seat) {
            Ok(()) => {
                self.table.record.actions.push("undo".to_string());
                self.save();
                self.log.push(format!(
                    "{} took back their last move.",
                    self.seat_name(seat)
                ));
                self.refresh();
                self.say("Your last move was taken back.", false);
            }
            Err(e) => self.say(format!("Nothing was taken back: {e}."), true),
        }
    }

    /// Who would resign now: the person to act, or else the one person at the terminal
    /// (who may resign while the bots think).
    fn resigner(&self) -> Option<usize> {
        if self.session.is_over() {
            return None;
        }
        self.human_to_act().or(match self.table.viewer {
            Viewer::Seat(seat) if self.specs[seat] == BotSpec::Human => Some(seat),
            _ => None,
        })
    }

    /// `r`: asks before resigning.
    pub(super) fn ask_resign(&mut self) {
        match self.resigner() {
            None if self.session.is_over() => self.say("The game is over: q leaves.", true),
            None => self.say("Nobody can resign now: wait for your turn.", true),
            Some(seat) => {
                let others = self.specs.len() - self.session.resigned().len() - 1;
                let then = if others <= 1 {
                    "the game ends and you lose"
                } else {
                    "you are placed last and a bot plays out your seat"
                };
                self.nav.panel = Some(Panel::Confirm(format!(
                    "Resign {}? Then {then}.",
                    self.seat_name(seat)
                )));
            }
        }
    }

    /// `y` to "resign?": the seat resigns; where others play on, an easy bot moves for it.
    pub(super) fn resign(&mut self) {
        let Some(seat) = self.resigner() else {
            self.say("Nobody can resign now.", true);
            return;
        };
        if let Err(e) = self.session.resign(seat) {
            self.say(format!("Nobody resigned: {}.", crate::said(&e)), true);
            return;
        }
        self.table
            .record
            .actions
            .push(format!("resign {}", seat + 1));
        self.log
            .push(TableEvent::Resigned { seat }.text(&self.table.names));
        self.nav.log_back = 0;
        self.say(format!("{} resigned.", self.seat_name(seat)), false);
        self.save();
        if !self.session.is_over() {
            let seed = engine::derive_seed(self.table.seed, (self.specs.len() + seat) as u64 + 1);
            let easy = BotSpec::Level(bots::Level::Easy);
            match catalog::bot(&self.table.record.game, &easy, seed) {
                Ok(bot) => {
                    self.bots[seat] = Some(bot);
                    self.specs[seat] = easy;
                }
                Err(e) => self.failure = Some(format!("no bot could take the seat: {e}")),
            }
        }
        self.refresh();
    }

    /// `h`: the coach's three best moves (from this seat's view), the best one selected.
    fn hint(&mut self) {
        if self.human_to_act().is_none() || self.moves.is_empty() {
            self.say("There is nothing to hint: it is not your turn.", true);
            return;
        }
        match catalog::hint(self.state(), &CoachOptions::default(), 3) {
            Err(e) => self.say(format!("No hint: {e}."), true),
            Ok(advice) if advice.is_empty() => self.say("There is no move to suggest.", false),
            Ok(advice) => {
                let told: Vec<String> = advice
                    .iter()
                    .map(|a| format!("{} ({:.0}% to win)", a.label, a.chance * 100.0))
                    .collect();
                if let Some(i) = self.moves.iter().position(|m| m.action == advice[0].action) {
                    self.nav.selected = i;
                    self.nav.focus = Focus::Moves;
                }
                self.say(format!("The coach suggests: {}.", told.join("; ")), false);
            }
        }
    }
}
