//! `tabletop`: play, simulate and study Drop Site, Distop-IA and Euphoria.
//!
//! `main` parses the command line, dispatches, and maps errors to exit codes: 2 for input
//! the user can fix (a bad option, a malformed or illegal action, a broken state file),
//! 1 for anything else. A reader that closes the output early (`| head`) stops the
//! command quietly, with success ([`out`]).
// Every line goes through `out`'s macros, which do not panic on a closed pipe.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod out;

mod bench;
mod join;
mod ladder;
mod learn;
mod load;
mod log;
mod options;
mod play;
mod position;
mod remote;
mod report;
mod review;
mod rules;
mod serve;
mod simulate;
mod soak;
mod table;
mod tournament;
mod tui;
mod tune;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;

/// Play, simulate and study three tabletop games with their rules enforced exactly.
#[derive(Parser)]
#[command(name = "tabletop", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against friends (hot seat) or bots.
    Play(play::PlayArgs),
    /// Learn a game: a guided lesson on real positions, then a game against the easy bot.
    Learn(learn::LearnArgs),
    /// Sit at a server table from its invite link, or watch it from its link.
    Join(join::JoinArgs),
    /// Run many games between bots on all cores and print statistics.
    Sim(simulate::SimArgs),
    /// Print a new game's state (JSON) from a game, its options and a seed.
    New(position::NewArgs),
    /// List the legal actions of a state file.
    Legal(position::FileArgs),
    /// Apply one action to a state file and print the new state.
    Apply(position::ApplyArgs),
    /// Print what one seat (or a spectator) sees of a state file.
    View(position::ViewArgs),
    /// Print the result of a finished game's state file.
    Outcome(position::FileArgs),
    /// Replay a game record step by step; report the first action that does not replay.
    Replay(position::ReplayArgs),
    /// Print a recorded game's log as one seat (--seat N, from 1) or a spectator saw it.
    Log(log::LogArgs),
    /// Review a finished game: each seat's costliest moves against what the search
    /// preferred, its chance to win move by move, and why the game ended.
    Review(review::ReviewArgs),
    /// Random playouts per second on one thread.
    Bench(bench::BenchArgs),
    /// A study as one self-contained HTML page with charts (optionally against a variant).
    Report(report::ReportArgs),
    /// Combine shard files (--shard K/N --json) into the study one machine would play.
    Merge(report::MergeArgs),
    /// Search options or card data for a balance target (successive halving).
    Tune(tune::TuneArgs),
    /// Many random games on all cores, every move checked (invariants, refusals, panics),
    /// the conformance harness on a sample; exits 1 on any fault, naming the first.
    Soak(soak::SoakArgs),
    /// Every pair of bots plays with seats rotated: win rates with 95% intervals and Elo.
    Tournament(tournament::TournamentArgs),
    /// One game's bot levels on one Elo scale (medium = 1500, bootstrap 95% intervals):
    /// a round robin, seats rotated, each game appended to --out; run again to resume.
    Ladder(ladder::LadderArgs),
    /// List the games and their options.
    Games,
    /// Print a game's rules: what it is, components, set-up, a turn, scoring, options.
    Rules(rules::RulesArgs),
    /// Serve tables over HTTP and WebSocket (see docs/http-api.md).
    Serve(serve::ServeArgs),
    /// Load a running server with tables of random moves; print moves/s, latency and CPU.
    Load(load::LoadArgs),
}

/// An error the user can fix: exit code 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserError {}

/// Wraps anything displayable as a [`UserError`].
pub fn user(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::Error::new(UserError(e.to_string()))
}

/// An engine error in words for the person who typed the move, naming its stable code
/// (the one the server and Python give): "illegal move `play 9 on 1`: a card played on a
/// drop site must be lower than its top card, and 9 is not lower than 3
/// (dropsite/not_lower)".
pub fn said(e: &engine::EngineError) -> String {
    match (e, e.refusal()) {
        (engine::EngineError::Illegal(illegal), _) => format!(
            "illegal move `{}`: {} ({})",
            illegal.action,
            illegal.reason,
            illegal.code()
        ),
        (_, Some(code)) => format!("{e} ({code})"),
        (_, None) => e.to_string(),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Learn(args) => learn::run(args),
        Command::Join(args) => join::run(args),
        Command::Sim(args) => simulate::run(args),
        Command::New(args) => position::new(args),
        Command::Legal(args) => position::legal(args),
        Command::Apply(args) => position::apply(args),
        Command::View(args) => position::view(args),
        Command::Outcome(args) => position::outcome(args),
        Command::Replay(args) => position::replay(args),
        Command::Log(args) => log::run(args),
        Command::Review(args) => review::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Soak(args) => soak::run(args),
        Command::Report(args) => report::run(args),
        Command::Merge(args) => report::merge(args),
        Command::Tune(args) => tune::run(args),
        Command::Games => options::list_games(),
        Command::Rules(args) => rules::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Load(args) => load::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output has gone (`| head`): nothing went wrong.
        Err(e) if out::is_closed(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Where standard error is gone too, the exit code still tells.
            let _ = errln!("error: {e:#}");
            if e.downcast_ref::<UserError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
