//! `tabletop ladder`: one game's bot levels on one Elo scale (`medium` = 1500), every game
//! appended to a file as it ends, so that the same command resumes a stopped run.
use crate::options::{run_on_game, GameOptions, OnGame};
use crate::user;
use bots::BotSpec;
use clap::Args;
use engine::prelude::*;
use sim::ladder::{LadderError, LadderOptions};
use std::path::PathBuf;

#[derive(Args)]
pub struct LadderArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// Games each pair of levels plays in all (run again with more to extend a ladder).
    #[arg(long, value_name = "K")]
    games_per_pair: u64,
    /// The ladder's file (JSON Lines: a header, then one finished game a line). Games it
    /// holds are not played again.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[arg(long, value_delimiter = ',', default_value = "random,heuristic,pimc,easy,medium,hard",
          help = crate::options::bots_help("The levels, comma-separated"))]
    levels: Vec<String>,
    /// The level rated 1500.
    #[arg(long, default_value = "medium")]
    anchor: String,
    /// The ladder's seed: each game's seed comes from it, the pair's names and the game's
    /// number in the pair.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (`hard` searches one tree a thread). Results do not depend on it.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Bootstrap resamples for the 95% intervals.
    #[arg(long, default_value_t = 1000)]
    bootstrap: u32,
    /// Stop after playing this many games not yet in the file (a run in slices).
    #[arg(long, value_name = "N")]
    max_games: Option<u64>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    options: GameOptions,
}

impl OnGame for LadderArgs {
    fn run<G: Game>(self, config: G::Config, _: &serde_json::Value) -> anyhow::Result<()> {
        let parse = |s: &str| s.parse::<BotSpec>().map_err(user);
        let levels = self
            .levels
            .iter()
            .map(|s| parse(s))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let options = LadderOptions {
            levels,
            games_per_pair: self.games_per_pair,
            seed: self.seed,
            anchor: parse(&self.anchor)?,
            bootstrap: self.bootstrap,
            threads: Some(self.threads.max(1)),
            stop_after: self.max_games,
        };
        let fail = |e: LadderError| match e {
            LadderError::Sim(e) => crate::simulate::sim_error(e),
            other => user(other),
        };
        let todo = sim::ladder::remaining(&options, &self.out).map_err(fail)?;
        let bar = crate::options::progress(todo);
        let report =
            sim::ladder::run::<G>(&config, &options, &self.out, &|| bar.inc(1)).map_err(fail)?;
        bar.finish_and_clear();
        crate::options::print_report(&report, self.json)
    }
}

pub fn run(args: LadderArgs) -> anyhow::Result<()> {
    let config = args.options.to_batch_config(&args.game)?;
    let game = args.game.clone();
    run_on_game(&game, config, args)
}
