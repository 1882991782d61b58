//! `tabletop log`: a recorded game as one viewer saw it, move by move.
use crate::position::read;
use crate::user;
use clap::Args;
use engine::{DynGame, GameRecord, Names, Viewer};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Args)]
pub struct LogArgs {
    /// A game record from `play --record`, or the server's `/record` answer (`-` reads
    /// standard input).
    file: PathBuf,
    /// The seat whose log to print, counted from 1.
    #[arg(
        long,
        conflicts_with = "spectator",
        required_unless_present = "spectator"
    )]
    seat: Option<usize>,
    /// Print what a spectator was told.
    #[arg(long)]
    spectator: bool,
    /// Print the entries as JSON (seats counted from 0) instead of text.
    #[arg(long)]
    json: bool,
}

/// A record file: a bare record, or the server's answer with who sat where and the
/// names the seats showed.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum RecordFile {
    Published {
        record: GameRecord,
        /// `human` or the bot spec, by seat.
        #[serde(default)]
        seats: Vec<String>,
        /// Each seat's display name: the one given, or "Seat N".
        #[serde(default)]
        names: Vec<String>,
    },
    Bare(GameRecord),
}

impl RecordFile {
    /// Reads a record file (`-` reads standard input), refusing one that is no game
    /// record with the shape it should have.
    pub(crate) fn read(file: &PathBuf) -> anyhow::Result<RecordFile> {
        serde_json::from_str(&read(file)?).map_err(|e| {
            user(format!(
                "{} is not a game record ({e}); expected {{\"game\", \"config\", \"seed\", \"actions\"}}",
                file.display()
            ))
        })
    }
}

/// The record's game and the seat `--seat` names (counted from 1; `None` without one),
/// refused when the game cannot start from the record or has no such seat.
pub(crate) fn game_and_seat(
    record: &GameRecord,
    seat: Option<usize>,
) -> anyhow::Result<(Box<dyn DynGame>, Option<usize>)> {
    let game = catalog::game(&record.game).map_err(user)?;
    let seats = game
        .new_state(&record.config, record.seed)
        .map_err(|e| user(format!("the record's game cannot start: {e}")))?
        .seats();
    let seat = match seat {
        Some(n) if (1..=seats).contains(&n) => Some(n - 1),
        Some(n) => {
            return Err(user(format!(
                "there is no seat {n}: this game has seats 1 to {seats}"
            )))
        }
        None => None,
    };
    Ok((game, seat))
}

pub fn run(args: LogArgs) -> anyhow::Result<()> {
    let (record, players, shown) = match RecordFile::read(&args.file)? {
        RecordFile::Published {
            record,
            seats,
            names,
        } => (record, seats, names),
        RecordFile::Bare(record) => (record, Vec::new(), Vec::new()),
    };
    let (game, seat) = game_and_seat(&record, args.seat)?;
    let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
    // Named as the server's log names them (`engine::log::table_names`).
    let names = Names::for_table(viewer, &players, &shown);
    let log = game
        .log(&record, viewer, &names, 0)
        .map_err(|e| user(format!("the record does not replay: {e}")))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&log)?)?;
        return Ok(());
    }
    let who = match viewer {
        Viewer::Seat(s) => format!("seat {}", s + 1),
        Viewer::Spectator => "a spectator".into(),
    };
    outln!(
        "{} · {} moves · as {who} saw them",
        record.game,
        record.actions.len()
    )?;
    for entry in &log {
        for (k, event) in entry.events.iter().enumerate() {
            if k == 0 {
                outln!("{:>5}. {}", entry.index + 1, event.text)?;
            } else {
                outln!("       {}", event.text)?;
            }
        }
    }
    Ok(())
}
