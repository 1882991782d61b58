//! `tabletop tournament`: every pair of bots plays, seats rotated; win rates and Elo.
use crate::options::{run_on_game, BatchArgs, GameOptions, OnGame};
use crate::user;
use bots::BotSpec;
use clap::Args;
use engine::prelude::*;
use sim::tournament::{try_run, TournamentError, TournamentOptions};

#[derive(Args)]
pub struct TournamentArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    #[arg(long, value_delimiter = ',', default_value = "random,heuristic",
          help = crate::options::bots_help("The bots, comma-separated"))]
    bots: Vec<String>,
    /// Games per pair of bots.
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    options: GameOptions,
}

impl OnGame for TournamentArgs {
    fn run<G: Game>(self, config: G::Config, _: &serde_json::Value) -> anyhow::Result<()> {
        let bots = self
            .bots
            .iter()
            .map(|s| s.parse::<BotSpec>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(user)?;
        let pairs = (bots.len() * bots.len().saturating_sub(1) / 2) as u64;
        let options = TournamentOptions {
            bots,
            games: self.games,
            seed: self.batch.seed,
            threads: self.batch.threads,
        };
        let bar = crate::options::progress(pairs * self.games);
        let report = try_run::<G>(&config, &options, &|| bar.inc(1)).map_err(|e| match e {
            TournamentError::Sim(e) => crate::simulate::sim_error(e),
            other => user(other),
        })?;
        bar.finish_and_clear();
        crate::options::print_report(&report, self.batch.json)
    }
}

pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let config = args.options.to_batch_config(&args.game)?;
    let game = args.game.clone();
    run_on_game(&game, config, args)
}
