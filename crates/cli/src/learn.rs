//! `tabletop learn GAME [--lesson N]`: a lesson of a game in the terminal. Each step shows
//! its text and the board as the learner sees it, reads a move, plays it with the real
//! engine and tells what happened (the same events `play` tells); a move the rules refuse
//! is answered with the rule in words, a legal move the step does not ask for with why
//! another is asked, and the step asks again. The lesson ends by offering a game against
//! the easy bot.
use crate::play::{ask, list_moves};
use crate::tui::learn::Leave;
use crate::user;
use engine::lesson::{self, Attempt, Lesson};
use engine::{DynState, Viewer};
use std::io::{BufRead, IsTerminal};

#[derive(clap::Args)]
pub struct LearnArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// Which lesson, counted from 1 (default: the first). `--list` shows them.
    #[arg(long, value_name = "N")]
    lesson: Option<usize>,
    /// List the game's lessons and stop.
    #[arg(long)]
    list: bool,
    /// Line mode (the step printed, moves typed) even in a terminal, where the full-screen
    /// board would open.
    #[arg(long)]
    plain: bool,
}

pub fn run(args: LearnArgs) -> anyhow::Result<()> {
    let game = catalog::game(&args.game).map_err(user)?;
    let title = game.about().title;
    let lessons = game.lessons()?;
    if lessons.is_empty() {
        return Err(user(format!("{title} has no lessons yet")));
    }
    if args.list {
        for (i, l) in lessons.iter().enumerate() {
            outln!(
                "{:>3}) {} ({} steps): {}",
                i + 1,
                l.title,
                l.steps.len(),
                l.summary
            )?;
        }
        return Ok(());
    }
    let n = args.lesson.unwrap_or(1);
    let Some(lesson) = n.checked_sub(1).and_then(|i| lessons.get(i)) else {
        return Err(user(format!(
            "{title} has lessons 1 to {}, not {n} (`tabletop learn {} --list` shows them)",
            lessons.len(),
            game.name()
        )));
    };
    let starts = lesson.starts(game.as_ref())?;
    if !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        let app = crate::tui::learn::LessonApp::new(game.as_ref(), lesson.clone(), n, starts);
        return match crate::tui::learn::run(app)? {
            Leave::Play => crate::play::against_easy(game.name()),
            Leave::Finished => {
                outln!(
                    "That is the end of the lesson. Whenever you like: `tabletop play {} --seats {}`",
                    game.name(),
                    crate::play::easy_seats(game.name())?
                )?;
                Ok(())
            }
            Leave::Early => {
                outln!(
                    "leaving the lesson; `tabletop learn {} --lesson {n}` starts it again",
                    game.name()
                )?;
                Ok(())
            }
        };
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    outln!(
        "{title} · lesson {n}: {} · you are seat {}\n{}",
        lesson.title,
        lesson.seat + 1,
        lesson.summary
    )?;
    for (i, (step, start)) in lesson.steps.iter().zip(&starts).enumerate() {
        outln!("\n=== step {} of {} ===", i + 1, lesson.steps.len())?;
        outln!("{}", start.view_text(Viewer::Seat(lesson.seat)))?;
        outln!("\n{}", step.text)?;
        list_moves(&start.moves())?;
        if let Some(first) = step.ask.first() {
            outln!(
                "(type `{}`: {})",
                start
                    .parse_action(first)
                    .map_or_else(|_| first.clone(), |action| action.to_string()),
                lesson::move_label(start.as_ref(), first)
            )?;
        }
        if !play_step(lesson, i, start.as_ref(), &mut lines)? {
            outln!(
                "\nleaving the lesson; `tabletop learn {}` starts it again",
                game.name()
            )?;
            return Ok(());
        }
    }
    outln!("\nThat is the end of the lesson.")?;
    let play = wants_game(game.name(), &mut lines)?;
    // The game reads standard input itself: this lock goes first.
    drop(lines);
    if play {
        crate::play::against_easy(game.name())
    } else {
        Ok(())
    }
}

/// Reads moves until the step's asked move is made: `false` when input ends.
fn play_step(
    lesson: &Lesson,
    i: usize,
    start: &dyn DynState,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<bool> {
    let step = &lesson.steps[i];
    loop {
        let Some(line) = ask(&format!("seat {}> ", lesson.seat + 1), lines)? else {
            return Ok(false);
        };
        let input = line.trim();
        match input {
            "" => continue,
            "quit" | "exit" => return Ok(false),
            "?" | "help" | "view" => {
                outln!("{}", start.view_text(Viewer::Seat(lesson.seat)))?;
                outln!("{}", step.text)?;
                list_moves(&start.moves())?;
                continue;
            }
            _ => {}
        }
        // A number picks from the list, as at the play prompt.
        let moves = start.moves();
        let chosen = match crate::table::numbered(&moves, input) {
            Some(m) => m.action.clone(),
            None => input.to_string(),
        };
        let attempt = match start.parse_action(&chosen) {
            Ok(made) => lesson::attempt(lesson, step, start, &made),
            Err(error) => Attempt::Refused { error },
        };
        match attempt {
            Attempt::Refused { error } => {
                let why = lesson::refusal_words(&error);
                outln!("Not allowed: {why}. Try again (a number from the list, or `help`).")?;
            }
            Attempt::NotAsked { why } => {
                outln!("{why} Try again.")?;
            }
            Attempt::Asked { log, .. } => {
                for (k, entry) in log.iter().enumerate() {
                    if k == 1 {
                        outln!("{}", step.then)?;
                    }
                    for event in &entry.events {
                        outln!("  * {}", event.text)?;
                    }
                }
                if log.len() <= 1 {
                    outln!("{}", step.then)?;
                }
                return Ok(true);
            }
        }
    }
}

/// Offers a game against the easy bot, the learner in seat 1: whether it is wanted.
fn wants_game(
    game: &str,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<bool> {
    let answer = ask("Play a game against the easy bot now? [y/N] ", lines)?.unwrap_or_default();
    let yes = matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes");
    if !yes {
        outln!(
            "Whenever you like: `tabletop play {game} --seats {}`",
            crate::play::easy_seats(game)?
        )?;
    }
    Ok(yes)
}
