//! `tabletop sim`: many bot games on all cores.
use crate::options::{run_on_game, BatchArgs, GameOptions, OnGame};
use crate::user;
use bots::BotSpec;
use clap::Args;
use engine::prelude::*;
use sim::{Shard, ShardFile, SimOptions};

#[derive(Args)]
pub struct SimArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Bots by seat, comma-separated (default: random in every seat).
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// Play only shard K of N of the study (K from 1); with --json, print the shard file
    /// that `tabletop merge` combines.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    options: GameOptions,
}

impl OnGame for SimArgs {
    fn run<G: Game>(self, config: G::Config, _: &serde_json::Value) -> anyhow::Result<()> {
        let options = sim_options::<G>(&config, self.games, &self.seats, self.shard, &self.batch)?;
        let bar = crate::options::progress(self.games);
        let report = sim::run::<G>(&config, &options, &|| bar.inc(1)).map_err(sim_error)?;
        bar.finish_and_clear();
        match (self.shard, self.batch.json) {
            (Some(shard), true) => {
                let file = ShardFile {
                    shard,
                    parts: vec![report.part],
                };
                outln!("{}", serde_json::to_string(&file)?)?;
                Ok(())
            }
            _ => crate::options::print_report(&report, self.batch.json),
        }
    }
}

/// A study's options: `games` games (or the shard's share of them) with the bots `seats`
/// names, by the batch's seed and threads.
pub fn sim_options<G: Game>(
    config: &G::Config,
    games: u64,
    seats: &[String],
    shard: Option<Shard>,
    batch: &BatchArgs,
) -> anyhow::Result<SimOptions> {
    Ok(SimOptions {
        games,
        seed: batch.seed,
        threads: batch.threads,
        seats: seat_specs::<G>(config, seats)?,
        shard,
    })
}

/// The bots by seat (random in every seat when none are named); `human` is refused.
///
/// # Errors
/// A name that is no bot, or a human seat.
pub fn seat_specs<G: Game>(config: &G::Config, names: &[String]) -> anyhow::Result<Vec<BotSpec>> {
    if names.is_empty() {
        let players = G::new(config, 0).map_err(user)?.seats();
        return Ok(vec![BotSpec::Random; players]);
    }
    let seats = names
        .iter()
        .map(|s| s.parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(user)?;
    if seats.contains(&BotSpec::Human) {
        return Err(user(
            "studies play bots only: use `tabletop play` for human seats",
        ));
    }
    Ok(seats)
}

/// A broken game or a thread pool that cannot start is not the user's to fix (exit 1);
/// a bad seat list or config is (exit 2).
pub fn sim_error(e: sim::SimError) -> anyhow::Error {
    match e {
        sim::SimError::Broken { .. } | sim::SimError::Threads(..) => anyhow::Error::new(e),
        other => user(other),
    }
}

pub fn run(args: SimArgs) -> anyhow::Result<()> {
    let config = args.options.to_batch_config(&args.game)?;
    let game = args.game.clone();
    run_on_game(&game, config, args)
}
