//! The full-screen boards, where both ends of the terminal are a person's: `play` (the
//! board for the seat to act, the legal moves in words chosen with the arrow keys or the
//! mouse, the log), `learn` (a lesson's steps) and `join` (a seat or a spectator at a
//! server table). Generic over [`engine::DynState`]: no game's rules in here. What the
//! three share is in [`nav`] (keys and mouse) and [`draw`] (the screen); `play`'s app is
//! in [`app`]; this module owns the terminal and `play`'s loop, and thinks for the bots on
//! another thread so the screen keeps answering.
mod about;
mod app;
mod draw;
pub mod join;
pub mod learn;
mod nav;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_join;

use crate::table::Table;
use app::{App, BotJob, Flow};
use engine::AnyAction;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::crossterm::execute;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// A bot's answer from its thread: the seat, the bot back, its move.
type BotAnswer = (usize, Box<dyn bots::DynBot>, Option<AnyAction>);

/// Takes the terminal (raw mode, the other screen, the mouse where there is one), runs
/// `body` on it and gives the terminal back as it was, also when `body` fails or panics.
pub(crate) fn with_terminal<T>(
    body: impl FnOnce(&mut ratatui::DefaultTerminal) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    // Raw mode and the other screen; the hook it sets restores the terminal on a panic.
    let mut terminal = ratatui::try_init()?;
    // A terminal without a mouse ignores the request.
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        hook(info);
    }));
    let result = body(&mut terminal);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::try_restore()?;
    result
}

pub fn run(table: Table, record: Option<PathBuf>, max_moves: Option<usize>) -> anyhow::Result<()> {
    let mut app = App::new(table, record, max_moves);
    app.nav.mono = nav::no_color();
    with_terminal(|terminal| event_loop(terminal, &mut app))?;
    // What stays on the terminal: how it ended, or that it was left.
    if let Some(why) = &app.failure {
        anyhow::bail!("{why}");
    }
    if app.state().outcome().is_some() || app.is_over() {
        let start = app
            .log
            .iter()
            .rposition(|l| l.starts_with("The game is over"))
            .unwrap_or(0);
        for line in &app.log[start..] {
            outln!("{line}")?;
        }
    } else {
        outln!(
            "leaving the game (seed {}); nothing more is played",
            app.table.seed
        )?;
    }
    Ok(())
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> anyhow::Result<()> {
    let mut thinking: Option<mpsc::Receiver<BotAnswer>> = None;
    loop {
        terminal.draw(|frame| draw::draw(frame, app))?;
        if app.failure.is_some() {
            return Ok(());
        }
        if thinking.is_none() {
            thinking = app.bot_job().map(think);
        }
        if let Some(answer) = &thinking {
            match answer.try_recv() {
                Ok((seat, bot, action)) => {
                    app.bot_done(seat, bot, action);
                    thinking = None;
                    continue;
                }
                Err(mpsc::TryRecvError::Empty) => {}
                Err(mpsc::TryRecvError::Disconnected) => anyhow::bail!("a bot stopped thinking"),
            }
        }
        // A short wait while a bot thinks, so its move shows as soon as it comes.
        let wait = Duration::from_millis(if thinking.is_some() { 20 } else { 250 });
        if event::poll(wait)? {
            let flow = match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.on_key(key),
                Event::Mouse(mouse) => app.on_mouse(mouse),
                // A resize (or anything else) is answered by the next drawing.
                _ => Flow::Continue,
            };
            if flow == Flow::Quit {
                return Ok(());
            }
        }
    }
}

/// Starts a bot thinking on its own thread.
fn think((seat, mut bot, state): BotJob) -> mpsc::Receiver<BotAnswer> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let action = bot.choose(state.as_ref());
        // The screen may have closed meanwhile: nobody is left to tell.
        let _ = send.send((seat, bot, action));
    });
    receive
}
