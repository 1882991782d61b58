//! `tabletop play`: a game in the terminal. Each human sees only their own view; every
//! move is told as its events (never another seat's raw notation). With several people at
//! one terminal the screen is cleared and the next player presses Enter before their hand
//! appears. The seed, which would give away every hidden card, shows once the game is over.
use crate::options::GameOptions;
use crate::table::{place_moves, Narrowed, Seat, Table};
use crate::user;
use bots::{BotSpec, CoachOptions};
use engine::{AnyAction, DynState, GameRecord, LegalMove, Names, Viewer};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlayArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    #[arg(long, value_delimiter = ',',
          help = crate::options::bots_help("Who sits where (default: you, then random), comma-separated: human"))]
    seats: Vec<String>,
    /// The game's seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game record (config, seed, actions) here after every move.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Stop with an error if the game has not ended after this many moves (for tables of
    /// bots only: a check that they finish).
    #[arg(long, value_name = "N")]
    max_moves: Option<usize>,
    /// Line mode (prompts and typed moves) even in a terminal, where the full-screen
    /// board would open.
    #[arg(long)]
    plain: bool,
    #[command(flatten)]
    options: GameOptions,
}

fn set_up(args: &PlayArgs) -> anyhow::Result<Table> {
    let config = args.options.to_config(&args.game)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let game = catalog::game(&args.game).map_err(user)?;
    let state = game.new_state(&config, seed).map_err(user)?;
    let specs: Vec<BotSpec> = if args.seats.is_empty() {
        (0..state.seats())
            .map(|s| {
                if s == 0 {
                    BotSpec::Human
                } else {
                    BotSpec::Random
                }
            })
            .collect()
    } else {
        args.seats
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()
            .map_err(user)?
    };
    if specs.len() != state.seats() {
        return Err(user(format!(
            "{} seats named for a table of {}: name one per seat",
            specs.len(),
            state.seats()
        )));
    }
    let mut seats = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        seats.push(match spec {
            BotSpec::Human => Seat::Human,
            bot => Seat::Bot(
                catalog::bot(game.name(), bot, engine::derive_seed(seed, i as u64 + 1))
                    .map_err(user)?,
            ),
        });
    }
    let humans = specs.iter().filter(|s| **s == BotSpec::Human).count();
    let record = GameRecord {
        game: game.name().to_string(),
        config: state.config_json(),
        seed,
        actions: Vec::new(),
        format: game.format(),
    };
    // One person at the terminal reads the log as their seat; several, or none, read the
    // public log (each still sees their own hand when it is their turn).
    let viewer = match specs.iter().position(|s| *s == BotSpec::Human) {
        Some(seat) if humans == 1 => Viewer::Seat(seat),
        _ => Viewer::Spectator,
    };
    let players: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let names = Names::for_viewer(viewer).with_players(&players);
    Ok(Table {
        state,
        specs,
        seats,
        seed,
        humans,
        viewer,
        names,
        record,
    })
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let table = set_up(&args)?;
    if !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return crate::tui::run(table, args.record.clone(), args.max_moves);
    }
    let Table {
        mut state,
        specs,
        mut seats,
        seed,
        humans,
        viewer,
        names,
        mut record,
    } = table;
    outln!(
        "{} · seats {}",
        record.game,
        specs
            .iter()
            .enumerate()
            .map(|(s, spec)| format!("{}: {spec}", s + 1))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut last_shown: Option<usize> = None;
    // What happened since the screen was last cleared, shown again to the next person.
    let mut since_cleared: Vec<String> = Vec::new();
    while let Some(seat) = state.to_act() {
        if let Some(max) = args.max_moves.filter(|&max| record.actions.len() >= max) {
            anyhow::bail!("the game did not end within {max} moves (seed {seed})");
        }
        let before = state.clone_box();
        let action = match &mut seats[seat] {
            Seat::Bot(bot) => {
                let action = bot
                    .choose(state.as_ref())
                    .ok_or_else(|| anyhow::anyhow!("the {} bot found no move", bot.name()))?;
                state
                    .apply_any(&action)
                    .map_err(|e| anyhow::anyhow!("the bot's move was refused: {e}"))?;
                action
            }
            Seat::Human => {
                if humans > 1 && last_shown != Some(seat) {
                    // Hide the last hand before the next person sits down.
                    out!("\x1b[2J\x1b[H")?;
                    outln!("Seat {}: your turn. Others, look away.", seat + 1)?;
                    out!(
                        "Press Enter when only seat {} can see the screen. ",
                        seat + 1
                    )?;
                    std::io::stdout().flush()?;
                    if lines.next().transpose()?.is_none() {
                        outln!("\nleaving the game (seed {seed}); nothing more is played")?;
                        return Ok(());
                    }
                    for line in since_cleared.drain(..) {
                        outln!("{line}")?;
                    }
                }
                last_shown = Some(seat);
                match prompt(state.as_mut(), seat, &mut lines)? {
                    Some(action) => action,
                    None => {
                        outln!("\nleaving the game (seed {seed}); nothing more is played")?;
                        return Ok(());
                    }
                }
            }
        };
        for event in before
            .step_events(&action, state.as_ref(), viewer, &names)
            .unwrap_or_default()
        {
            let line = format!("  * {}", event.text);
            outln!("{line}")?;
            if humans > 1 {
                since_cleared.push(line);
            }
        }
        record.actions.push(action.to_string());
        if let Some(path) = &args.record {
            std::fs::write(path, serde_json::to_string_pretty(&record)?)?;
        }
    }
    outln!(
        "\n=== game over after {} moves ===\n{}",
        record.actions.len(),
        state.view_text(Viewer::Spectator)
    )?;
    if let Some(outcome) = state.outcome() {
        let ending = state.ending(&names);
        if let Some(ending) = &ending {
            outln!("why it ended: {}", ending.why)?;
        }
        for (seat, score) in outcome.scores.iter().enumerate() {
            outln!("seat {} ({}): {score}", seat + 1, specs[seat])?;
            // The score line by line, from the game's own scoring: the lines add up.
            crate::position::score_lines(ending.as_ref(), seat)?;
        }
        let winners: Vec<String> = outcome
            .winners()
            .iter()
            .map(|s| format!("seat {} ({})", s + 1, specs[*s]))
            .collect();
        outln!("winner: {}", winners.join(" and "))?;
    }
    outln!("seed {seed}")?;
    Ok(())
}

/// The coach's three best moves for the seat to act, in words with the notation to type:
/// worked out from that seat's view only, with the coach's default budget and seed (docs/coach.md).
fn show_hint(state: &dyn DynState) -> anyhow::Result<()> {
    outln!("thinking...")?;
    let advice = catalog::hint(state, &CoachOptions::default(), 3)?;
    if advice.is_empty() {
        outln!("no move to suggest")?;
    }
    for (i, a) in advice.iter().enumerate() {
        let place = a
            .place
            .map(|p| format!(", expected place {p:.1}"))
            .unwrap_or_default();
        outln!(
            "  {}. {}  [type: {}]  {:.0}% to win{place} ({} of the search's tries)",
            i + 1,
            a.label,
            a.action,
            a.chance * 100.0,
            a.visits
        )?;
    }
    Ok(())
}

/// Shows `seat` its view and legal actions and reads until it enters an accepted action.
/// `None` when input ends.
fn prompt(
    state: &mut dyn DynState,
    seat: usize,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<AnyAction>> {
    outln!("\n{}", state.view_text(Viewer::Seat(seat)))?;
    // Each move in the game's words, with its notation for those who type it.
    let moves = state.moves();
    list_moves(&moves)?;
    let legal: Vec<String> = moves.iter().map(|m| m.action.clone()).collect();
    // What a number chooses from: every legal move, or the few a typed place narrowed
    // them to.
    let mut choices = legal.clone();
    loop {
        let Some(line) = ask(&format!("seat {}> ", seat + 1), lines)? else {
            return Ok(None);
        };
        let input = line.trim();
        if input.is_empty() {
            continue;
        }
        if matches!(input, "quit" | "exit") {
            return Ok(None);
        }
        if matches!(input, "?" | "help" | "view") {
            outln!("{}", state.view_text(Viewer::Seat(seat)))?;
            outln!("legal: {}", legal.join(" | "))?;
            outln!("(`hint` shows the search's three best moves)")?;
            choices.clone_from(&legal);
            continue;
        }
        if input == "hint" {
            show_hint(state)?;
            continue;
        }
        let text = match input.parse::<usize>() {
            Ok(n) if (1..=choices.len()).contains(&n) => choices[n - 1].clone(),
            Ok(n) if legal.iter().all(|a| a != input) => {
                outln!(
                    "there is no move {n}: choose 1 to {}, or type one",
                    choices.len()
                )?;
                continue;
            }
            _ => match place_moves(state, &moves, input) {
                Narrowed::One(action) => action,
                Narrowed::Several(these) => {
                    outln!("`{input}` could be any of these; choose one by its number:")?;
                    for (i, m) in these.iter().enumerate() {
                        outln!("{:>3}) {}  [{}]", i + 1, m.text.label, m.action)?;
                    }
                    choices = these.into_iter().map(|m| m.action.clone()).collect();
                    continue;
                }
                Narrowed::NotAPlace => input.to_string(),
            },
        };
        // The one place the typed move is read; the game carries it from here.
        match state
            .parse_action(&text)
            .and_then(|action| state.apply_any(&action).map(|()| action))
        {
            Ok(action) => return Ok(Some(action)),
            Err(e) => outln!(
                "{}. Try again (a number from the list, or `help`).",
                crate::said(&e)
            )?,
        }
    }
}

/// A game of the standard options against the easy bot, the person in seat 1 (what a
/// lesson offers at its end).
pub fn against_easy(game: &str) -> anyhow::Result<()> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: PlayArgs,
    }
    let name = catalog::game(game).map_err(user)?.name();
    let line =
        <Line as clap::Parser>::try_parse_from(["play", name, "--seats", &easy_seats(game)?])
            .map_err(user)?;
    run(line.args)
}

/// The seats of a standard game of `game` against the easy bot: `human,easy,…`.
pub fn easy_seats(game: &str) -> anyhow::Result<String> {
    let dyn_game = catalog::game(game).map_err(user)?;
    let seats = dyn_game
        .new_state(&dyn_game.default_config(), 0)
        .map_err(user)?
        .seats();
    Ok(std::iter::once("human")
        .chain(std::iter::repeat_n("easy", seats.saturating_sub(1)))
        .collect::<Vec<_>>()
        .join(","))
}
/// The moves, numbered, in words with what to type (the notation alone where the words
/// are the notation).
pub(crate) fn list_moves(moves: &[LegalMove]) -> anyhow::Result<()> {
    for (i, m) in moves.iter().enumerate() {
        if m.text.label == m.action {
            outln!("{:>3}) {}", i + 1, m.action)?;
        } else {
            outln!("{:>3}) {}  [{}]", i + 1, m.text.label, m.action)?;
        }
    }
    Ok(())
}

/// Prints `question` and reads the answer's line: `None` when input ends.
pub(crate) fn ask(
    question: &str,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<String>> {
    out!("{question}")?;
    let Some(line) = lines.next().transpose()? else {
        return Ok(None);
    };
    if !std::io::stdin().is_terminal() {
        // Piped input is not echoed: end the prompt's line ourselves.
        outln!()?;
    }
    Ok(Some(line))
}

/// A table from `play`'s arguments (`["distopia", "--seats", "human,easy"]`), for tests.
#[cfg(test)]
pub(crate) fn table_for(args: &[&str]) -> anyhow::Result<Table> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: PlayArgs,
    }
    let line = <Line as clap::Parser>::try_parse_from(
        std::iter::once("play").chain(args.iter().copied()),
    )?;
    set_up(&line.args)
}
