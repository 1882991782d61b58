//! `tabletop sim`: many bot games on all cores.
use crate::options::{BatchArgs, GameOptions};
use crate::user;
use bots::BotSpec;
use catalog::Visit;
use clap::Args;
use engine::Game;
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

struct Sim {
    config: serde_json::Value,
    args: SimArgs,
}

impl Visit for Sim {
    type Out = anyhow::Result<()>;
    fn visit<G: Game>(self) -> anyhow::Result<()> {
        let config = engine::Typed::<G>::config(&self.config).map_err(user)?;
        let options = SimOptions {
            games: self.args.games,
            seed: self.args.batch.seed,
            threads: self.args.batch.threads,
            seats: seat_specs::<G>(&config, &self.args.seats)?,
            shard: self.args.shard,
        };
        let bar = crate::options::progress(self.args.games);
        let report = sim::run::<G>(&config, &options, &|| bar.inc(1)).map_err(sim_error)?;
        bar.finish_and_clear();
        match (self.args.shard, self.args.batch.json) {
            (Some(shard), true) => {
                let file = ShardFile {
                    shard,
                    parts: vec![report.part],
                };
                outln!("{}", serde_json::to_string(&file)?)?;
                Ok(())
            }
            _ => crate::options::print_report(&report, self.args.batch.json),
        }
    }
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
    catalog::with_game(&game, Sim { config, args }).map_err(user)?
}
