//! `tabletop sim`: many bot games on all cores.
use crate::options::{BatchArgs, GameOptions};
use crate::user;
use bots::BotSpec;
use catalog::Visit;
use clap::Args;
use engine::Game;
use sim::SimOptions;

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
        let players = G::new(&config, self.args.batch.seed).map_err(user)?.seats();
        let seats = if self.args.seats.is_empty() {
            vec![BotSpec::Random; players]
        } else {
            self.args
                .seats
                .iter()
                .map(|s| s.parse::<BotSpec>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(user)?
        };
        if seats.contains(&BotSpec::Human) {
            return Err(user(
                "sim plays bots only: use `tabletop play` for human seats",
            ));
        }
        let options = SimOptions {
            games: self.args.games,
            seed: self.args.batch.seed,
            threads: self.args.batch.threads,
            seats,
        };
        let bar = crate::options::progress(self.args.games);
        let report = sim::run::<G>(&config, &options, &|| bar.inc(1)).map_err(sim_error)?;
        bar.finish_and_clear();
        crate::options::print_report(&report, self.args.batch.json)
    }
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
    let config = args.options.to_config(&args.game)?;
    let game = args.game.clone();
    catalog::with_game(&game, Sim { config, args }).map_err(user)?
}
