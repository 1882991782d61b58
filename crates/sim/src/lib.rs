//! Simulation: many seeded games on all cores, and their statistics.
//!
//! Game `i` of a batch is seeded with `derive_seed(seed, i)` and its bots with seeds
//! derived from that, and results are reduced in game order, so a batch gives identical
//! results whatever the thread count.

mod play;
mod stats;
pub mod tournament;

pub use play::{play_game, GameResult, MakeBot};
pub use stats::{wilson, Summary};

use bots::{make_bot, BotError, BotSpec};
use engine::Game;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;
use thiserror::Error;

/// What to run.
#[derive(Clone, Debug)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Who plays each seat; must name one bot per seat.
    pub seats: Vec<BotSpec>,
}

/// A batch that cannot run.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("{seats} seats named for a table of {players}: name one bot per seat")]
    SeatCount { seats: usize, players: usize },
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error(transparent)]
    Config(#[from] engine::ConfigError),
    #[error("game {index} (seed {seed}) broke down: {message}")]
    Broken {
        index: u64,
        seed: u64,
        message: String,
    },
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
}

/// Runs a batch; `on_game` is called after each game (for a progress bar).
///
/// # Errors
/// A bad seat list or config, or the first broken game.
pub fn run<G: Game>(
    config: &G::Config,
    options: &SimOptions,
    on_game: &(dyn Fn() + Sync),
) -> Result<Report, SimError> {
    let probe = G::new(config, options.seed)?;
    if options.seats.len() != probe.seats() {
        return Err(SimError::SeatCount {
            seats: options.seats.len(),
            players: probe.seats(),
        });
    }
    for spec in &options.seats {
        make_bot::<G>(spec, 0)?;
    }
    let threads = options
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads(threads, e.to_string()))?;
    let start = Instant::now();
    let results: Result<Vec<GameResult>, SimError> = pool.install(|| {
        (0..options.games)
            .into_par_iter()
            .map(|i| {
                let make = |seat: usize, seed: u64| make_bot::<G>(&options.seats[seat], seed);
                let r = play_game::<G>(config, options.seed, i, &make);
                on_game();
                r
            })
            .collect()
    });
    let results = results?;
    let elapsed = start.elapsed().as_secs_f64();
    let summary = Summary::of(
        &results,
        options.seats.iter().map(ToString::to_string).collect(),
    );
    Ok(Report {
        game: G::NAME.to_string(),
        config: serde_json::to_value(config).unwrap_or_default(),
        seed: options.seed,
        summary,
        timing: Timing {
            threads,
            seconds: elapsed,
            games_per_second: options.games as f64 / elapsed.max(1e-9),
        },
    })
}

/// A batch's results. `summary` depends only on the inputs; `timing` on the machine.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub config: serde_json::Value,
    pub seed: u64,
    pub summary: Summary,
    pub timing: Timing,
}

#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub threads: usize,
    pub seconds: f64,
    pub games_per_second: f64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} · {} games · seed {} · options {}",
            self.game, self.summary.games, self.seed, self.config
        )?;
        write!(f, "{}", self.summary)?;
        write!(
            f,
            "{:.1} s on {} threads: {:.0} games/s",
            self.timing.seconds, self.timing.threads, self.timing.games_per_second
        )
    }
}
