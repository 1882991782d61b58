//! `tabletop tournament`: every pair of bots plays, seats rotated; win rates and Elo.
use crate::options::{BatchArgs, GameOptions};
use crate::user;
use bots::BotSpec;
use catalog::Visit;
use clap::Args;
use engine::Game;
use sim::tournament::{try_run, TournamentError, TournamentOptions};

#[derive(Args)]
pub struct TournamentArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// The bots, comma-separated: random, heuristic, ismcts, ismcts:5000, easy, medium, hard.
    #[arg(long, value_delimiter = ',', default_value = "random,heuristic")]
    bots: Vec<String>,
    /// Games per pair of bots.
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    options: GameOptions,
}

struct Tournament {
    config: serde_json::Value,
    args: TournamentArgs,
}

impl Visit for Tournament {
    type Out = anyhow::Result<()>;
    fn visit<G: Game>(self) -> anyhow::Result<()> {
        let config = engine::Typed::<G>::config(&self.config).map_err(user)?;
        let bots = self
            .args
            .bots
            .iter()
            .map(|s| s.parse::<BotSpec>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(user)?;
        let pairs = (bots.len() * bots.len().saturating_sub(1) / 2) as u64;
        let options = TournamentOptions {
            bots,
            games: self.args.games,
            seed: self.args.batch.seed,
            threads: self.args.batch.threads,
        };
        let bar = crate::options::progress(pairs * self.args.games);
        let report = try_run::<G>(&config, &options, &|| bar.inc(1)).map_err(|e| match e {
            TournamentError::Sim(e) => crate::simulate::sim_error(e),
            other => user(other),
        })?;
        bar.finish_and_clear();
        crate::options::print_report(&report, self.args.batch.json)
    }
}

pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let config = args.options.to_batch_config(&args.game)?;
    let game = args.game.clone();
    catalog::with_game(&game, Tournament { config, args }).map_err(user)?
}
