//! `tabletop join URL`: a seat at a server table (its invite link, `…/play/ID?token=T`) or
//! a spectator's place (the table's link without a token), through the WebSocket the table
//! page uses (docs/http-api.md, [`crate::remote`]): the server's snapshot for this viewer
//! drawn, moves sent as `{"type": "action", "action", "version"}`, refusals told in words.
//! Full-screen in a terminal ([`crate::tui::join`]); line mode for scripts and pipes, or
//! with `--plain`.
use crate::remote::{Address, Heard, Link, Snapshot, Told};
use std::io::{BufRead, IsTerminal};
use std::sync::mpsc;

#[derive(clap::Args)]
pub struct JoinArgs {
    /// The table's link: a seat's invite link (`http://HOST/play/ID?token=TOKEN`) to play
    /// that seat, or the link without a token to watch.
    url: String,
    /// Line mode (the board printed, moves typed) even in a terminal, where the
    /// full-screen board would open.
    #[arg(long)]
    plain: bool,
}

pub fn run(args: JoinArgs) -> anyhow::Result<()> {
    let address = Address::parse(&args.url)?;
    if !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return crate::tui::join::run(address);
    }
    let (tell, heard) = mpsc::channel();
    let (link, log) = Link::open(address, tell.clone())?;
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tell.send(Heard::Line(Some(line))).is_err() {
                return;
            }
        }
        let _ = tell.send(Heard::Line(None));
    });
    let result = line_mode(&link, &log, &heard);
    link.close();
    result
}

/// Line mode: each event printed as it comes, the board and the moves when it is the
/// seat's turn, typed moves sent (a line waits for the seat's turn).
fn line_mode(
    link: &Link,
    (log, version): &Told,
    heard: &mpsc::Receiver<Heard>,
) -> anyhow::Result<()> {
    let watching = link.address.token.is_none();
    let mut typed: std::collections::VecDeque<String> = Default::default();
    let mut input_over = false;
    let mut last: Option<Snapshot> = None;
    // The next log entry to print, and whether a move of ours waits for its answer.
    let mut told = *version as usize;
    let mut waiting = false;
    // The version our last taken move made: its events are printed before leaving.
    let mut shown_after = 0u64;
    for line in log {
        outln!("  * {line}")?;
    }
    loop {
        let Ok(message) = heard.recv() else {
            return Ok(());
        };
        match message {
            Heard::State(snapshot) => {
                if last.is_none() {
                    let who = match snapshot.seat {
                        Some(seat) => format!("you are {}", snapshot.seat_name(seat)),
                        None => "watching".to_string(),
                    };
                    outln!("{} · table {} · {who}", snapshot.game, link.address.table)?;
                    if !snapshot.my_turn() {
                        outln!("{}", snapshot.board())?;
                    }
                }
                for entry in snapshot.events.iter().filter(|e| e.index >= told) {
                    for event in &entry.events {
                        outln!("  * {}", event.text)?;
                    }
                }
                told = told.max(snapshot.version as usize);
                if let Some(note) = &snapshot.paused {
                    outln!("({note})")?;
                }
                if snapshot.over() {
                    for line in snapshot.ending_lines() {
                        outln!("{line}")?;
                    }
                    return Ok(());
                }
                let fresh = last.as_ref().is_none_or(|l| l.version != snapshot.version);
                if snapshot.my_turn() && fresh {
                    outln!("\n{}", snapshot.board())?;
                    crate::play::list_moves(&snapshot.moves)?;
                    out!(
                        "{}> ",
                        snapshot.seat_name(snapshot.seat.unwrap_or_default())
                    )?;
                    std::io::Write::flush(&mut std::io::stdout())?;
                }
                last = Some(*snapshot);
            }
            Heard::Ack(version) => {
                waiting = false;
                shown_after = version;
            }
            Heard::Refused(why) => {
                waiting = false;
                outln!("Refused: {why}. Try again (a number from the list, or a move).")?;
            }
            Heard::Note(note) => outln!("({note})")?,
            Heard::Closed(why) => anyhow::bail!("{why}"),
            Heard::Line(Some(line)) => {
                let line = line.trim().to_string();
                if !line.is_empty() {
                    typed.push_back(line);
                }
            }
            Heard::Line(None) => input_over = true,
        }
        // Typed lines are read once the table is shown; a move is sent once it is the
        // seat's turn and no move of ours waits for its answer.
        let Some(now) = &last else { continue };
        while let Some(line) = typed.front() {
            if matches!(line.as_str(), "quit" | "exit") {
                outln!("leaving the table; the same link brings you back")?;
                return Ok(());
            }
            if watching {
                outln!("A spectator makes no moves: `quit` leaves.")?;
                typed.pop_front();
                continue;
            }
            if !now.my_turn() || waiting {
                break;
            }
            let action = match crate::table::numbered(&now.moves, line) {
                Some(m) => m.action.clone(),
                None => line.clone(),
            };
            typed.pop_front();
            link.send(&action, now.version);
            waiting = true;
        }
        let caught_up = now.version >= shown_after;
        if input_over && typed.is_empty() && !waiting && caught_up && !watching {
            outln!("\nleaving the table (the input ended); the same link brings you back")?;
            return Ok(());
        }
    }
}
