//! The position interface: states as JSON files, one command per question.
use crate::options::GameOptions;
use crate::user;
use clap::Args;
use engine::{DynState, GameRecord, Move, StateFile, TableMove, Viewer};
use std::io::Read;
use std::path::PathBuf;

#[derive(Args)]
pub struct NewArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    #[command(flatten)]
    options: GameOptions,
    /// The seed of the game's random stream.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Args)]
pub struct FileArgs {
    /// A state file written by `tabletop new` or `apply` (`-` reads standard input).
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ApplyArgs {
    /// A state file (`-` reads standard input).
    file: PathBuf,
    /// The action in the game's notation, e.g. `7 on 2`.
    action: String,
    /// Also write the new state back to FILE (only if the action is accepted).
    #[arg(long)]
    write: bool,
}

#[derive(Args)]
pub struct ViewArgs {
    /// A state file (`-` reads standard input).
    file: PathBuf,
    /// The seat whose view to print, counted from 1.
    #[arg(long, conflicts_with = "spectator")]
    seat: Option<usize>,
    /// Print the public view.
    #[arg(long)]
    spectator: bool,
    /// Print the view as a text board instead of JSON.
    #[arg(long)]
    text: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// A game record: {"game", "config", "seed", "actions": [...]}.
    file: PathBuf,
    /// Print the public view after every step.
    #[arg(long)]
    verbose: bool,
}

pub(crate) fn read(file: &PathBuf) -> anyhow::Result<String> {
    let mut text = String::new();
    if file.as_os_str() == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| user(format!("cannot read standard input: {e}")))?;
    } else {
        text = std::fs::read_to_string(file)
            .map_err(|e| user(format!("cannot read {}: {e}", file.display())))?;
    }
    Ok(text)
}

/// Reads and validates a state file.
pub fn load(file: &PathBuf) -> anyhow::Result<Box<dyn DynState>> {
    let text = read(file)?;
    let parsed: StateFile = serde_json::from_str(&text).map_err(|e| {
        user(format!(
            "{} is not a state file ({e}); expected {{\"game\": NAME, \"state\": {{...}}}}",
            file.display()
        ))
    })?;
    let game = catalog::game(&parsed.game).map_err(user)?;
    game.load_file(&parsed).map_err(user)
}

fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string_pretty(value)?)?;
    Ok(())
}

pub fn new(args: NewArgs) -> anyhow::Result<()> {
    let config = args.options.to_config(&args.game)?;
    let state = catalog::game(&args.game)
        .map_err(user)?
        .new_state(&config, args.seed)
        .map_err(user)?;
    print_json(&state.state_json())
}

pub fn legal(args: FileArgs) -> anyhow::Result<()> {
    let state = load(&args.file)?;
    let legal = state.legal();
    if args.json {
        return print_json(&serde_json::json!({ "to_act": state.to_act(), "actions": legal }));
    }
    match state.to_act() {
        Some(seat) => errln!("seat {} to act, {} legal actions:", seat + 1, legal.len())?,
        None => errln!("the game is over: no legal actions")?,
    }
    for action in legal {
        outln!("{action}")?;
    }
    Ok(())
}

pub fn apply(args: ApplyArgs) -> anyhow::Result<()> {
    let mut state = load(&args.file)?;
    let action = state
        .parse_action(&args.action)
        .map_err(|e| user(crate::said(&e)))?;
    state
        .apply_any(&action)
        .map_err(|e| user(crate::said(&e)))?;
    let json = serde_json::to_string_pretty(&state.state_json())?;
    if args.write {
        if args.file.as_os_str() == "-" {
            return Err(user("--write needs a file, not standard input"));
        }
        std::fs::write(&args.file, format!("{json}\n"))
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", args.file.display()))?;
    }
    outln!("{json}")?;
    Ok(())
}

pub fn view(args: ViewArgs) -> anyhow::Result<()> {
    let state = load(&args.file)?;
    // People count seats from 1 (the JSON of states and views counts from 0).
    let viewer = match (args.seat, args.spectator) {
        (Some(n), _) if (1..=state.seats()).contains(&n) => Viewer::Seat(n - 1),
        (Some(n), _) => {
            return Err(user(format!(
                "there is no seat {n}: this game has seats 1 to {}",
                state.seats()
            )));
        }
        (None, true) => Viewer::Spectator,
        (None, false) => return Err(user("name a viewer: --seat N or --spectator")),
    };
    if args.text {
        outln!("{}", state.view_text(viewer))?;
        Ok(())
    } else {
        print_json(&state.view_json(viewer))
    }
}

pub fn outcome(args: FileArgs) -> anyhow::Result<()> {
    let state = load(&args.file)?;
    let Some(outcome) = state.outcome() else {
        return Err(user(format!(
            "the game is not over: seat {} is to act",
            state.to_act().unwrap_or(0) + 1
        )));
    };
    if args.json {
        return print_json(&serde_json::to_value(&outcome)?);
    }
    let ending = state.ending(&engine::Names::default());
    if let Some(ending) = &ending {
        outln!("why it ended: {}", ending.why)?;
    }
    for (seat, (score, place)) in outcome.scores.iter().zip(&outcome.places).enumerate() {
        outln!("seat {}: score {score}, place {}", seat + 1, place + 1)?;
        score_lines(ending.as_ref(), seat)?;
    }
    outln!(
        "winner: {}",
        outcome
            .winners()
            .iter()
            .map(|s| format!("seat {}", s + 1))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    Ok(())
}

/// A seat's score line by line, as the game's ending gives it (indented, signed).
pub(crate) fn score_lines(ending: Option<&engine::Ending>, seat: usize) -> anyhow::Result<()> {
    for line in ending
        .iter()
        .flat_map(|e| e.seats.get(seat))
        .flat_map(|s| &s.lines)
    {
        outln!("  {:>+5}  {}", line.points, line.label)?;
    }
    Ok(())
}

pub fn replay(args: ReplayArgs) -> anyhow::Result<()> {
    let text = read(&args.file)?;
    let record: GameRecord = serde_json::from_str(&text)
        .map_err(|e| user(format!("{} is not a game record ({e}); expected {{\"game\", \"config\", \"seed\", \"actions\"}}", args.file.display())))?;
    let game = catalog::game(&record.game).map_err(user)?;
    let start = game
        .new_state(&record.config, record.seed)
        .map_err(|e| user(format!("the record's game cannot start: {e}")))?;
    // A session, so the table moves (`undo`, `resign N`) replay too.
    let mut session = engine::Session::new(start);
    outln!(
        "{} · seed {} · options {}",
        record.game,
        record.seed,
        record.config
    )?;
    for (i, action) in record.actions.iter().enumerate() {
        let replayed = session.parse(action).and_then(|mv| {
            let seat = match &mv {
                Move::Table(TableMove::Undo) => session.undoer(),
                Move::Table(TableMove::Resign(s)) => Some(*s),
                Move::Game(_) => session.to_act(),
            };
            session.play(&mv).map(|()| seat)
        });
        let seat = match replayed {
            Ok(seat) => seat,
            Err(e) => {
                return Err(user(format!(
                    "step {} (`{action}`) does not replay: {}",
                    i + 1,
                    crate::said(&e)
                )))
            }
        };
        match seat {
            Some(s) => outln!("{:>5}. seat {}: {action}", i + 1, s + 1)?,
            None => outln!("{:>5}. {action}", i + 1)?,
        }
        if args.verbose {
            outln!("{}\n", session.state().view_text(Viewer::Spectator))?;
        }
    }
    outln!("{}", session.state().view_text(Viewer::Spectator))?;
    if !session.resigned().is_empty() {
        let seats: Vec<String> = session
            .resigned()
            .iter()
            .map(|s| format!("seat {}", s + 1))
            .collect();
        outln!("resigned: {}", seats.join(", "))?;
    }
    match session.outcome() {
        Some(o) => outln!(
            "replayed {} actions; the game is over, scores {:?}, places {:?}",
            record.actions.len(),
            o.scores,
            o.places.iter().map(|p| p + 1).collect::<Vec<_>>()
        )?,
        None => outln!(
            "replayed {} actions; the game goes on (seat {} to act)",
            record.actions.len(),
            session.to_act().unwrap_or(0) + 1
        )?,
    }
    if let Some(ending) = session.ending(&engine::Names::default()) {
        outln!("why it ended: {}", ending.why)?;
        for (seat, score) in ending.seats.iter().enumerate() {
            outln!("seat {}: {}", seat + 1, score.total)?;
            score_lines(Some(&ending), seat)?;
        }
    }
    Ok(())
}
