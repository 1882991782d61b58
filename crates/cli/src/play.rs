//! `tabletop play`: a game in the terminal. Each human sees only their own view; bots
//! play their moves as they come.
use crate::options::GameOptions;
use crate::user;
use bots::{BotSpec, DynBot};
use engine::{DynState, GameRecord, Viewer};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlayArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// Who sits where, comma-separated: human, random, ... (default: you, then random).
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// The game's seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game record (config, seed, actions) here after every move.
    #[arg(long)]
    record: Option<PathBuf>,
    #[command(flatten)]
    options: GameOptions,
}

enum Seat {
    Human,
    Bot(Box<dyn DynBot>),
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let config = args.options.to_config(&args.game)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let game = catalog::game(&args.game).map_err(user)?;
    let mut state = game.new_state(&config, seed).map_err(user)?;
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
    let mut record = GameRecord {
        game: game.name().to_string(),
        config: state.config_json(),
        seed,
        actions: Vec::new(),
    };
    println!(
        "{} · seed {seed} · seats {}",
        game.name(),
        specs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut last_shown: Option<usize> = None;
    while let Some(seat) = state.to_act() {
        let rounds = state.rounds();
        let action = match &mut seats[seat] {
            Seat::Bot(bot) => {
                let action = bot
                    .choose_text(state.as_ref())
                    .ok_or_else(|| anyhow::anyhow!("the {} bot found no move", bot.name()))?;
                println!("seat {seat} ({}) plays {action}", bot.name());
                state
                    .apply_text(&action)
                    .map_err(|e| anyhow::anyhow!("the bot's move was refused: {e}"))?;
                action
            }
            Seat::Human => {
                if humans > 1 && last_shown != Some(seat) {
                    println!("\n=== seat {seat}: your turn (others, look away) ===");
                }
                last_shown = Some(seat);
                match prompt(state.as_mut(), seat, &mut lines)? {
                    Some(action) => action,
                    None => {
                        println!("\nleaving the game (seed {seed}); nothing more is played");
                        return Ok(());
                    }
                }
            }
        };
        record.actions.push(action);
        if let Some(path) = &args.record {
            std::fs::write(path, serde_json::to_string_pretty(&record)?)?;
        }
        if state.rounds() > rounds && state.to_act().is_some() {
            println!(
                "\n--- round over ---\n{}\n",
                state.view_text(Viewer::Spectator)
            );
        }
    }
    println!(
        "\n=== game over ===\n{}",
        state.view_text(Viewer::Spectator)
    );
    if let Some(outcome) = state.outcome() {
        for (seat, score) in outcome.scores.iter().enumerate() {
            println!("seat {seat} ({}): {score}", specs[seat]);
        }
        let winners: Vec<String> = outcome
            .winners()
            .iter()
            .map(|s| format!("seat {s} ({})", specs[*s]))
            .collect();
        println!("winner: {}", winners.join(" and "));
    }
    Ok(())
}

/// Shows `seat` its view and legal actions and reads until it enters an accepted action.
/// `None` when input ends.
fn prompt(
    state: &mut dyn DynState,
    seat: usize,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<String>> {
    println!("\n{}", state.view_text(Viewer::Seat(seat)));
    let legal = state.legal();
    for (i, action) in legal.iter().enumerate() {
        print!("{:>3}) {:<18}", i + 1, action);
        if (i + 1) % 4 == 0 {
            println!();
        }
    }
    println!();
    loop {
        print!("seat {seat}> ");
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(None);
        };
        let line = line?;
        let input = line.trim();
        if input.is_empty() {
            continue;
        }
        if matches!(input, "quit" | "exit") {
            return Ok(None);
        }
        if matches!(input, "?" | "help" | "view") {
            println!("{}", state.view_text(Viewer::Seat(seat)));
            println!("legal: {}", legal.join(" | "));
            continue;
        }
        let text = match input.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => legal[n - 1].clone(),
            Ok(n) if legal.iter().all(|a| a != input) => {
                println!(
                    "there is no action {n}: choose 1 to {}, or type one",
                    legal.len()
                );
                continue;
            }
            _ => input.to_string(),
        };
        match state.apply_text(&text) {
            Ok(()) => return Ok(Some(text)),
            Err(e) => println!("{e}. Try again (a number from the list, or `help`)."),
        }
    }
}
