//! Plays a tournament and prints its table:
//! `cargo run --release -p sim --example arena -- GAME GAMES BOT BOT... [--players N] [--seed S] [--offers N]`
//! where GAME is `dropsite`, `distopia` or `euphoria` and each BOT a spec (`random`,
//! `heuristic`, `ismcts:500`, `medium`...). Euphoria trades unbounded, as at a table, unless
//! `--offers N` bounds the offers a turn. `--json` prints the report as JSON too.
use bots::BotSpec;
use engine::prelude::*;
use sim::tournament::{run, TournamentOptions};
use std::sync::atomic::{AtomicU64, Ordering};

fn play<G: Game>(config: &G::Config, opts: &TournamentOptions, json: bool) {
    let done = AtomicU64::new(0);
    let total = opts.games * (opts.bots.len() * (opts.bots.len() - 1) / 2) as u64;
    let progress = || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(50) || n == total {
            eprintln!("{n}/{total} games");
        }
    };
    let report = run::<G>(config, opts, &progress);
    println!("{report}");
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("json: {e}"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut players = None;
    let mut seed = 1;
    let mut json = false;
    let mut offers = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--players" => players = it.next().and_then(|v| v.parse().ok()),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(1),
            "--offers" => offers = it.next().and_then(|v| v.parse().ok()),
            "--json" => json = true,
            _ => positional.push(a.clone()),
        }
    }
    if positional.len() < 4 {
        eprintln!(
            "usage: arena GAME GAMES BOT BOT... [--players N] [--seed S] [--offers N] [--json]"
        );
        std::process::exit(2);
    }
    let games: u64 = positional[1].parse().unwrap_or(100);
    let bots: Result<Vec<BotSpec>, _> = positional[2..].iter().map(|s| s.parse()).collect();
    let bots = match bots {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let opts = TournamentOptions {
        bots,
        games,
        seed,
        ..TournamentOptions::default()
    };
    match positional[0].as_str() {
        "dropsite" => {
            let mut config = dropsite::Config::default();
            if let Some(p) = players {
                config.players = p;
            }
            play::<dropsite::DropSite>(&config, &opts, json);
        }
        "distopia" => play::<distopia::Distopia>(&distopia::Config::default(), &opts, json),
        "euphoria" => {
            let mut config = euphoria::Config::default();
            if let Some(n) = offers {
                config = config.with_offers(n);
            }
            if let Some(p) = players {
                config.players = p;
            }
            play::<euphoria::Euphoria>(&config, &opts, json);
        }
        other => {
            eprintln!("unknown game `{other}`: expected dropsite, distopia or euphoria");
            std::process::exit(2);
        }
    }
}
