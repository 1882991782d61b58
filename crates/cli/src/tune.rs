//! `tabletop tune`: successive halving over options or card data toward a win rate.
use crate::options::{run_on_game, BatchArgs, GameOptions, OnGame};
use crate::simulate::{seat_specs, sim_error};
use crate::user;
use clap::Args;
use engine::prelude::*;
use sim::tune::{tune, Param, Target, TuneError, TuneOptions};

#[derive(Args)]
pub struct TuneArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// A parameter and its range, NAME=LO..HI (a path into the options, like
    /// `target=40..120` or, with --cards, `deck/12/points=3..9`); repeat for several.
    #[arg(long = "param", required = true, value_name = "NAME=LO..HI")]
    params: Vec<Param>,
    /// The goal, like `win_rate[0]=0.5` (seats from 0, as in JSON).
    #[arg(long, default_value = "win_rate[0]=0.5")]
    target: Target,
    /// Games per candidate in the last round (earlier rounds play fewer).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Candidates in the first round.
    #[arg(long, default_value_t = 9)]
    candidates: usize,
    /// Bots by seat, comma-separated (default: random in every seat).
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// The game's options and card data in quotes (`--options '--players 3 --cards
    /// deck.json'`); `--target` here is the balance goal.
    #[arg(
        long,
        value_name = "OPTIONS",
        allow_hyphen_values = true,
        default_value = ""
    )]
    options: String,
    #[command(flatten)]
    batch: BatchArgs,
}

impl OnGame for TuneArgs {
    fn run<G: Game>(self, config: G::Config, json: &serde_json::Value) -> anyhow::Result<()> {
        let options = TuneOptions {
            params: self.params,
            target: self.target,
            games: self.games,
            candidates: self.candidates,
            seed: self.batch.seed,
            threads: self.batch.threads,
            seats: seat_specs::<G>(&config, &self.seats)?,
        };
        let bar = indicatif::ProgressBar::new_spinner();
        let report = tune::<G>(json, &options, &|| bar.inc(1)).map_err(|e| match e {
            TuneError::Sim(e) => sim_error(e),
            other => user(other),
        })?;
        bar.finish_and_clear();
        crate::options::print_report(&report, self.batch.json)
    }
}

pub fn run(args: TuneArgs) -> anyhow::Result<()> {
    let config =
        GameOptions::from_words("--options", &args.options)?.to_batch_config(&args.game)?;
    let game = args.game.clone();
    run_on_game(&game, config, args)
}
