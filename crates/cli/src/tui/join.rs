//! `tabletop join` full-screen: a server table on the board of `play`. The board is the
//! server's view for this viewer (a seat's, or the spectators'), drawn from its JSON;
//! the moves are the snapshot's, in the game's words; the log is the server's, as this
//! viewer may know it. Enter sends the chosen move as the table page does; a refusal is
//! told in words and changes nothing.
use super::draw::{self, Keys, Screen};
use super::nav::{Ask, Nav, Panel};
use crate::remote::{Address, Heard, Link, Snapshot};
use engine::{LegalMove, Rules};
use ratatui::crossterm::event::{self, Event, KeyEvent, KeyEventKind, MouseEvent};
use std::sync::mpsc;
use std::time::Duration;

/// The keys at a server table.
const KEYS: Keys = Keys {
    line: "↑↓ choose · Enter send · / type · Tab focus · u undo · r resign · ? help · q leave",
    list: &[
        ("Up / Down", "choose a move (or scroll the board or log)"),
        ("PageUp / PageDown", "a page at a time"),
        ("Home / End", "the first or last move (top or bottom)"),
        ("Enter", "send the chosen move to the table"),
        (
            "mouse",
            "click a move to choose it, again to play it; wheel scrolls",
        ),
        ("/, a-z, 0-9", "type a move: its notation or a number"),
        (
            "Tab / Shift-Tab",
            "move between the moves, the board and the log",
        ),
        ("u", "take back your last move, when the table allows"),
        ("r", "resign (asks first)"),
        ("?", "this help: the chosen move's rules and the keys"),
        (
            "q or Ctrl-C",
            "leave the table (the same link brings you back)",
        ),
    ],
};

/// The letters that do something of their own at a table.
const LETTERS: &str = "ur";

/// A server table as this terminal shows it.
pub struct RemoteApp {
    pub table: String,
    pub snapshot: Option<Snapshot>,
    pub log: Vec<String>,
    /// The next log entry not yet told.
    told: usize,
    /// A move sent and not yet answered.
    pub waiting: bool,
    pub nav: Nav,
    rules: Option<Rules>,
    /// Why the table closed, once it has.
    pub closed: Option<String>,
    /// What is sent to the table: (a move, the version it was chosen on).
    pub sent: Vec<(String, u64)>,
}

impl RemoteApp {
    /// A table `table`, with the log so far up to `version`.
    pub fn new(table: String, (log, version): (Vec<String>, u64)) -> RemoteApp {
        let mut nav = Nav::default();
        nav.say("Connecting to the table…", false);
        RemoteApp {
            table,
            snapshot: None,
            log,
            told: version as usize,
            waiting: false,
            nav,
            rules: None,
            closed: None,
            sent: Vec::new(),
        }
    }

    fn moves_now(&self) -> &[LegalMove] {
        match &self.snapshot {
            Some(s) if s.my_turn() => &s.moves,
            _ => &[],
        }
    }

    /// What the table said.
    pub fn hear(&mut self, heard: Heard) {
        match heard {
            Heard::State(snapshot) => {
                if self.rules.is_none() {
                    self.rules = catalog::game(&snapshot.game).ok().map(|g| g.rules());
                }
                for entry in snapshot.events.iter().filter(|e| e.index >= self.told) {
                    self.log.extend(entry.events.iter().map(|e| e.text.clone()));
                }
                self.told = self.told.max(snapshot.version as usize);
                let was_over = self.snapshot.as_ref().is_some_and(Snapshot::over);
                let fresh = self
                    .snapshot
                    .as_ref()
                    .is_none_or(|s| s.version != snapshot.version);
                if snapshot.over() && !was_over {
                    self.log.extend(snapshot.ending_lines());
                }
                if fresh {
                    self.nav.selected = 0;
                }
                self.nav.clamp(if snapshot.my_turn() {
                    snapshot.moves.len()
                } else {
                    0
                });
                let status = if snapshot.over() {
                    "The game is over: q leaves.".to_string()
                } else if let Some(paused) = &snapshot.paused {
                    paused.clone()
                } else if snapshot.my_turn() {
                    "Your turn.".to_string()
                } else {
                    String::new()
                };
                // A refusal stays told until the table moves on.
                if fresh || !self.nav.refused {
                    self.nav.say(status, false);
                }
                self.nav.log_back = 0;
                self.snapshot = Some(*snapshot);
            }
            Heard::Ack(_) => self.waiting = false,
            Heard::Refused(why) => {
                self.waiting = false;
                self.nav.say(format!("Refused: {why}."), true);
            }
            Heard::Note(note) => self.nav.say(note, false),
            Heard::Closed(why) => {
                self.nav.say(format!("{why}."), true);
                self.closed = Some(why);
            }
            Heard::Line(_) => {}
        }
    }

    /// What one key does: `false` once the screen is to close.
    pub fn on_key(&mut self, key: KeyEvent) -> bool {
        let may_type = !self.moves_now().is_empty() && !self.waiting;
        let ask = self
            .nav
            .on_key(key, self.moves_now().len(), LETTERS, may_type);
        self.answer(ask)
    }

    /// What the mouse does: `false` once the screen is to close.
    pub fn on_mouse(&mut self, mouse: MouseEvent) -> bool {
        let ask = self.nav.on_mouse(mouse, self.moves_now().len());
        self.answer(ask)
    }

    fn answer(&mut self, ask: Ask) -> bool {
        match ask {
            Ask::Quit => return false,
            Ask::Play(i) => match self.moves_now().get(i) {
                Some(m) => {
                    let action = m.action.clone();
                    self.send(action);
                }
                None => self.not_now(),
            },
            Ask::Typed(text) => {
                let action = match crate::table::numbered(self.moves_now(), &text) {
                    Some(m) => m.action.clone(),
                    None => text,
                };
                self.send(action);
            }
            Ask::Letter('u') => self.send("undo".to_string()),
            Ask::Letter('r') => match self.snapshot.as_ref().and_then(|s| s.seat) {
                Some(seat) if !self.over() => {
                    self.nav.panel = Some(Panel::Confirm(format!(
                        "Resign seat {} at this table? You are placed last.",
                        seat + 1
                    )));
                }
                _ => self.not_now(),
            },
            Ask::Yes => {
                if let Some(seat) = self.snapshot.as_ref().and_then(|s| s.seat) {
                    self.send(format!("resign {}", seat + 1));
                }
            }
            _ => {}
        }
        true
    }

    fn over(&self) -> bool {
        self.snapshot.as_ref().is_some_and(Snapshot::over)
    }

    fn not_now(&mut self) {
        let why = match &self.snapshot {
            None => "The table has not answered yet.",
            Some(s) if s.seat.is_none() => "You are watching: a spectator makes no moves.",
            Some(s) if s.over() => "The game is over: q leaves.",
            Some(_) => "It is not your turn.",
        };
        self.nav.say(why, true);
    }

    /// Sends `action` chosen on the version shown.
    fn send(&mut self, action: String) {
        let Some(snapshot) = &self.snapshot else {
            return self.not_now();
        };
        if snapshot.seat.is_none() || snapshot.over() {
            return self.not_now();
        }
        if self.waiting {
            self.nav
                .say("Your last move has not been answered yet.", true);
            return;
        }
        self.waiting = true;
        self.sent.push((action.clone(), snapshot.version));
        self.nav.say(format!("Sent `{action}`…"), false);
    }
}

impl Screen for RemoteApp {
    fn nav(&self) -> &Nav {
        &self.nav
    }

    fn title(&self) -> String {
        let Some(s) = &self.snapshot else {
            return format!("tabletop · table {} · connecting…", self.table);
        };
        let who = match s.seat {
            Some(seat) => format!("you are {}", s.seat_name(seat)),
            None => "watching".to_string(),
        };
        let turn = match s.to_act {
            None => "the game is over".to_string(),
            Some(_) if s.my_turn() => "your turn".to_string(),
            Some(seat) => format!("{} to act", s.seat_name(seat)),
        };
        let played = match s.version {
            1 => "1 move played".to_string(),
            n => format!("{n} moves played"),
        };
        format!(
            "tabletop · {} · table {} · {who} · {turn} · {played}",
            s.game, self.table
        )
    }

    fn board_title(&self) -> String {
        match self.snapshot.as_ref().and_then(|s| s.seat) {
            Some(seat) => format!("Board for seat {} (you)", seat + 1),
            None => "Board (as spectators see it)".to_string(),
        }
    }

    fn board_text(&self) -> String {
        self.snapshot
            .as_ref()
            .map(Snapshot::board)
            .unwrap_or_default()
    }

    fn moves(&self) -> &[LegalMove] {
        self.moves_now()
    }

    fn moves_title(&self) -> String {
        format!("Your moves ({})", self.moves_now().len())
    }

    fn no_moves(&self) -> String {
        match &self.snapshot {
            None => "Connecting…".to_string(),
            Some(s) if s.over() => "The game is over. Press q to leave.".to_string(),
            Some(s) if s.seat.is_none() => {
                "You are watching: the moves are the players'.".to_string()
            }
            Some(s) if !s.open_seats.is_empty() => {
                "Waiting for every seat to be taken…".to_string()
            }
            Some(_) => "Waiting for the other players…".to_string(),
        }
    }

    fn log(&self) -> &[String] {
        &self.log
    }

    fn keys(&self) -> &'static Keys {
        &KEYS
    }

    fn rules(&self) -> Option<&Rules> {
        self.rules.as_ref()
    }

    fn help_foot(&self) -> Vec<String> {
        vec![format!(
            "The table's page: /play/{} in a browser. The same link brings you back here.",
            self.table
        )]
    }
}

/// Runs the table full-screen until the person leaves (or the table closes).
pub fn run(address: Address) -> anyhow::Result<()> {
    let (tell, heard) = mpsc::channel();
    let (link, told) = Link::open(address.clone(), tell)?;
    let mut app = RemoteApp::new(address.table.clone(), told);
    app.nav.mono = super::nav::no_color();
    let looped = super::with_terminal(|terminal| event_loop(terminal, &mut app, &link, &heard));
    link.close();
    looped?;
    if let Some(why) = &app.closed {
        anyhow::bail!("{why}");
    }
    if app.over() {
        for line in app.snapshot.iter().flat_map(Snapshot::ending_lines) {
            outln!("{line}")?;
        }
    } else {
        outln!(
            "leaving table {}; the same link brings you back",
            address.table
        )?;
    }
    Ok(())
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut RemoteApp,
    link: &Link,
    heard: &mpsc::Receiver<Heard>,
) -> anyhow::Result<()> {
    loop {
        terminal.draw(|frame| draw::draw(frame, app))?;
        while let Ok(message) = heard.try_recv() {
            app.hear(message);
        }
        if event::poll(Duration::from_millis(50))? {
            let go_on = match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.on_key(key),
                Event::Mouse(mouse) => app.on_mouse(mouse),
                _ => true,
            };
            if !go_on {
                return Ok(());
            }
        }
        for (action, version) in app.sent.drain(..) {
            link.send(&action, version);
        }
    }
}
