//! `tabletop learn` full-screen: a lesson's steps on the board of `play`. Each step's
//! position is drawn for the learner's seat with its legal moves; the step's text and
//! what each move did are in the log pane. A move the rules refuse is answered with the
//! rule in words, a legal move the step does not ask for with why another is asked, and
//! nothing changes; the asked move is played by the real engine ([`engine::lesson`]) and
//! told as its events, then Enter goes on. At the end, `p` starts a game against the easy
//! bot.
use super::draw::{self, Keys, Screen};
use super::nav::{Ask, Focus, Nav};
use crate::table::{numbered, place_moves, Narrowed};
use engine::lesson::{self, Attempt, Lesson};
use engine::{DynState, LegalMove, Rules, Viewer};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, MouseEvent};
use std::time::Duration;

/// The keys of a lesson.
const KEYS: Keys = Keys {
    line: "↑↓ choose · Enter play / go on · / type · Tab focus · ? help · q leave",
    list: &[
        (
            "Up / Down",
            "choose a move (or scroll the board or the lesson)",
        ),
        ("PageUp / PageDown", "a page at a time"),
        (
            "Enter",
            "play the chosen move; after the asked move, the next step",
        ),
        (
            "mouse",
            "click a move to choose it, again to play it; wheel scrolls",
        ),
        ("/, a-z, 0-9", "type a move: its notation or a number"),
        (
            "Tab / Shift-Tab",
            "move between the moves, the board and the lesson",
        ),
        ("p", "at the end: a game against the easy bot"),
        ("?", "this help: the chosen move's rules and the keys"),
        ("q or Ctrl-C", "leave the lesson"),
    ],
};

/// Where the lesson is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The step waits for its asked move.
    Asking,
    /// The asked move was made: Enter goes on.
    Made,
    /// Every step is done.
    Finished,
}

/// What the learner chose when the screen closed.
#[derive(Debug, PartialEq, Eq)]
pub enum Leave {
    /// Left before the end.
    Early,
    /// Finished, without asking for a game.
    Finished,
    /// Finished, and asked for a game against the easy bot.
    Play,
}

pub struct LessonApp {
    /// The game's title ("Drop Site") and name (`dropsite`).
    title: String,
    game: String,
    lesson: Lesson,
    number: usize,
    starts: Vec<Box<dyn DynState>>,
    pub step: usize,
    pub stage: Stage,
    /// The position after the asked move and its replies, while the step is done.
    after: Option<Box<dyn DynState>>,
    pub moves: Vec<LegalMove>,
    /// The lesson's text so far: each step's words, what the moves did, what it taught.
    pub log: Vec<String>,
    pub nav: Nav,
    rules: Rules,
    /// `p` was pressed at the end.
    wants_game: bool,
}

impl LessonApp {
    /// Lesson `number` (from 1) of `game`, at its first step.
    pub fn new(
        game: &dyn engine::DynGame,
        lesson: Lesson,
        number: usize,
        starts: Vec<Box<dyn DynState>>,
    ) -> LessonApp {
        let title = game.about().title;
        let mut app = LessonApp {
            log: vec![format!(
                "Lesson {number}: {}. {} You are seat {}.",
                lesson.title,
                lesson.summary,
                lesson.seat + 1
            )],
            title,
            game: game.name().to_string(),
            lesson,
            number,
            starts,
            step: 0,
            stage: Stage::Asking,
            after: None,
            moves: Vec::new(),
            nav: Nav::default(),
            rules: game.rules(),
            wants_game: false,
        };
        app.begin_step();
        app
    }

    fn begin_step(&mut self) {
        let step = &self.lesson.steps[self.step];
        let start = &self.starts[self.step];
        self.log.push(String::new());
        self.log.push(format!(
            "Step {} of {}: {}",
            self.step + 1,
            self.lesson.steps.len(),
            step.text
        ));
        if let Some(first) = step.ask.first() {
            self.log.push(format!(
                "(Choose: {})",
                lesson::move_label(start.as_ref(), first)
            ));
        }
        self.moves = start.moves();
        self.after = None;
        self.stage = Stage::Asking;
        self.nav.selected = 0;
        self.nav.focus = Focus::Moves;
        self.nav.log_back = 0;
        self.nav.board_scroll = 0;
        self.nav
            .say("Choose the move the step asks for, and press Enter.", false);
    }

    /// What one key does: `false` once the screen is to close.
    pub fn on_key(&mut self, key: KeyEvent) -> bool {
        let letters = if self.stage == Stage::Finished {
            "p"
        } else {
            ""
        };
        let may_type = self.stage == Stage::Asking;
        let free = self.nav.panel.is_none() && self.nav.typing.is_none();
        if self.stage == Stage::Made && free && key.code == KeyCode::Enter {
            // After the asked move, Enter goes on whichever pane has the focus.
            return self.answer(Ask::Play(0));
        }
        let ask = self.nav.on_key(key, self.moves.len(), letters, may_type);
        self.answer(ask)
    }

    /// What the mouse does: `false` once the screen is to close.
    pub fn on_mouse(&mut self, mouse: MouseEvent) -> bool {
        let ask = self.nav.on_mouse(mouse, self.moves.len());
        self.answer(ask)
    }

    /// How the learner leaves, once the screen is to close.
    pub fn leave(&self) -> Leave {
        match (self.stage, self.wants_game) {
            (Stage::Finished, true) => Leave::Play,
            (Stage::Finished, false) => Leave::Finished,
            _ => Leave::Early,
        }
    }

    fn answer(&mut self, ask: Ask) -> bool {
        match ask {
            Ask::Quit => return false,
            Ask::Letter('p') => {
                self.wants_game = true;
                return false;
            }
            Ask::Play(i) => match self.stage {
                Stage::Asking => {
                    if let Some(m) = self.moves.get(i) {
                        let action = m.action.clone();
                        self.attempt(&action);
                    }
                }
                Stage::Made => {
                    self.step += 1;
                    if self.step < self.lesson.steps.len() {
                        self.begin_step();
                    } else {
                        self.stage = Stage::Finished;
                        self.log.push(String::new());
                        self.log.push("That is the end of the lesson.".to_string());
                        self.nav.log_back = 0;
                        self.nav.say(
                            "That is the end of the lesson: p plays a game against the easy bot, q leaves.",
                            false,
                        );
                    }
                }
                Stage::Finished => self.nav.say(
                    "That is the end of the lesson: p plays a game against the easy bot, q leaves.",
                    false,
                ),
            },
            Ask::Typed(text) if self.stage == Stage::Asking => self.typed(&text),
            _ => {}
        }
        true
    }

    /// A typed line: a number from the list, a place, or a move's notation.
    fn typed(&mut self, input: &str) {
        if let Some(m) = numbered(&self.moves, input) {
            let action = m.action.clone();
            self.attempt(&action);
            return;
        }
        let start = self.starts[self.step].as_ref();
        match place_moves(start, &self.moves, input) {
            Narrowed::One(action) => self.attempt(&action),
            // A lesson's list is short: the place is told, and the learner chooses.
            Narrowed::Several(_) => self.nav.say(
                format!("`{input}` could be several of the moves: choose one from the list."),
                true,
            ),
            Narrowed::NotAPlace => self.attempt(input),
        }
    }

    /// The learner's move `text`: refused in words, or not the asked one (nothing is
    /// played either way), or played and told.
    fn attempt(&mut self, text: &str) {
        let start = self.starts[self.step].as_ref();
        let step = &self.lesson.steps[self.step];
        let attempt = match start.parse_action(text) {
            Ok(made) => lesson::attempt(&self.lesson, step, start, &made),
            Err(error) => Attempt::Refused { error },
        };
        match attempt {
            Attempt::Refused { error } => {
                let why = lesson::refusal_words(&error);
                self.nav
                    .say(format!("Not allowed: {why}. Try again."), true);
            }
            Attempt::NotAsked { why } => self.nav.say(format!("{why} Try again."), true),
            Attempt::Asked { after, log } => {
                let then = step.then.clone();
                for (k, entry) in log.iter().enumerate() {
                    if k == 1 {
                        self.log.push(then.clone());
                    }
                    self.log
                        .extend(entry.events.iter().map(|e| format!("  * {}", e.text)));
                }
                if log.len() <= 1 {
                    self.log.push(then);
                }
                self.after = Some(after);
                self.moves.clear();
                self.stage = Stage::Made;
                self.nav.log_back = 0;
                let next = if self.step + 1 < self.lesson.steps.len() {
                    "Enter: the next step."
                } else {
                    "Enter: the end of the lesson."
                };
                self.nav.say(format!("Well done. {next}"), false);
            }
        }
    }

    fn position(&self) -> &dyn DynState {
        self.after
            .as_deref()
            .unwrap_or_else(|| self.starts[self.step].as_ref())
    }
}

impl Screen for LessonApp {
    fn nav(&self) -> &Nav {
        &self.nav
    }

    fn title(&self) -> String {
        format!(
            "tabletop · learn {} · lesson {}: {} · step {} of {}",
            self.title,
            self.number,
            self.lesson.title,
            (self.step + 1).min(self.lesson.steps.len()),
            self.lesson.steps.len()
        )
    }

    fn board_title(&self) -> String {
        if self.after.is_some() {
            format!(
                "Board for seat {} (you), after your move",
                self.lesson.seat + 1
            )
        } else {
            format!("Board for seat {} (you)", self.lesson.seat + 1)
        }
    }

    fn board_text(&self) -> String {
        self.position().view_text(Viewer::Seat(self.lesson.seat))
    }

    fn moves(&self) -> &[LegalMove] {
        &self.moves
    }

    fn moves_title(&self) -> String {
        format!("Your moves ({})", self.moves.len())
    }

    fn no_moves(&self) -> String {
        match self.stage {
            Stage::Finished => {
                "The lesson is over: p plays a game against the easy bot, q leaves.".to_string()
            }
            _ => "Press Enter for the next step.".to_string(),
        }
    }

    fn log_title(&self) -> String {
        "Lesson".to_string()
    }

    fn log(&self) -> &[String] {
        &self.log
    }

    fn keys(&self) -> &'static Keys {
        &KEYS
    }

    fn rules(&self) -> Option<&Rules> {
        Some(&self.rules)
    }

    fn help_foot(&self) -> Vec<String> {
        vec![format!(
            "`tabletop rules {}` prints the whole rules; `tabletop learn {} --list` the lessons.",
            self.game, self.game
        )]
    }
}

/// Runs the lesson full-screen; how the learner left.
pub fn run(mut app: LessonApp) -> anyhow::Result<Leave> {
    app.nav.mono = super::nav::no_color();
    super::with_terminal(|terminal| loop {
        terminal.draw(|frame| draw::draw(frame, &app))?;
        if !event::poll(Duration::from_millis(250))? {
            continue;
        }
        let go_on = match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => app.on_key(key),
            Event::Mouse(mouse) => app.on_mouse(mouse),
            _ => true,
        };
        if !go_on {
            return Ok(app.leave());
        }
    })
}
