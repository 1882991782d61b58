//! Simulation: many seeded games on all cores, and their statistics.
//!
//! Game `i` of a batch is seeded with `derive_seed(seed, i)` and its bots with seeds
//! derived from that, and results are reduced in game order, so a batch gives identical
//! results whatever the thread count. A study can be split into shards (`Shard`): shard
//! K of N plays its own range of game indices, and [`merge`] puts the shards' results
//! back in game order, so the merged summary is the one a single machine computes.

mod error;
pub mod html;
pub mod ladder;
mod play;
mod stats;
mod study;
pub mod tournament;
pub mod tune;

pub use error::SimError;
pub use play::{play_game, GameResult, MakeBot};
pub use stats::{reward, two_proportion, wilson, Comparison, FirstPlayer, HoldingRate, Summary};
pub use study::{merge, MergeError, Part, Shard, ShardFile};

use bots::{make_bot, BotSpec};
use engine::prelude::*;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Who plays each seat; must name one bot per seat.
    pub seats: Vec<BotSpec>,
    /// Play only this shard of the `games` games.
    pub shard: Option<Shard>,
}

/// A pool of `threads` worker threads (as many as cores when `None`, at least one).
///
/// # Errors
/// [`SimError::Threads`] when the threads cannot start.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, SimError> {
    let threads = threads.unwrap_or_else(rayon::current_num_threads).max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads(threads, e.to_string()))
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
    let pool = thread_pool(options.threads)?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    let range = options
        .shard
        .map_or(0..options.games, |s| s.range(options.games));
    let played = range.end - range.start;
    let results: Result<Vec<GameResult>, SimError> = pool.install(|| {
        range
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
    let part = Part {
        game: G::NAME.to_string(),
        config: serde_json::to_value(config).unwrap_or_default(),
        seed: options.seed,
        games: options.games,
        seats: options.seats.iter().map(ToString::to_string).collect(),
        results,
    };
    let mut report = Report::of(&part);
    report.shard = options.shard;
    report.timing = Some(Timing {
        threads,
        seconds: elapsed,
        games_per_second: played as f64 / elapsed.max(1e-9),
    });
    report.part = part;
    Ok(report)
}

/// A batch's results. `summary` depends only on the inputs; `timing` on the machine (a
/// merged study has none).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub config: serde_json::Value,
    pub seed: u64,
    /// The shard this batch played, if it played one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
    /// The inputs and every game's result (in shard files, not in the report).
    #[serde(skip)]
    pub part: Part,
}

impl Report {
    /// The report of a study's results (without timing).
    pub fn of(part: &Part) -> Report {
        Report {
            game: part.game.clone(),
            config: part.config.clone(),
            seed: part.seed,
            shard: None,
            summary: Summary::of(&part.results, part.seats.clone()),
            timing: None,
            part: part.header(),
        }
    }
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
        if let Some(shard) = self.shard {
            writeln!(f, "shard {shard} of a {}-game study", self.part.games)?;
        }
        write!(f, "{}", self.summary)?;
        match &self.timing {
            Some(t) => write!(
                f,
                "{:.1} s on {} threads: {:.0} games/s",
                t.seconds, t.threads, t.games_per_second
            ),
            None => Ok(()),
        }
    }
}
