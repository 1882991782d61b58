//! ISMCTS option tuning against the heuristic bot (or `vs=SPEC`), and the PIMC bot's
//! determinizations (`pimc=N`: N determinizations sharing the iterations):
//! `cargo run --release -p sim --example tune -- GAME GAMES [iters=1000] [depth=8|end] [c=0.7] [det=8] [players=4] [pimc=10] [vs=medium] [threads=1]`
use bots::{Bot, BotSpec, Budget, HeuristicBot, HeuristicOptions, IsmctsBot, IsmctsOptions};
use bots::{PimcBot, PimcOptions};
use engine::prelude::*;
use sim::tournament::{run_entrants, Entrant, TournamentOptions};

/// What plays against the tuned bot.
struct Rival {
    heuristic: HeuristicOptions,
    spec: Option<BotSpec>,
}

fn play<G: Game>(
    config: &G::Config,
    games: u64,
    ismcts: IsmctsOptions,
    pimc: Option<u32>,
    rival: &Rival,
    threads: Option<usize>,
) {
    let name = format!(
        "{}:{}/d{:?}/t{:?}/c{}",
        pimc.map_or("ismcts".to_string(), |n| format!("pimc{n}x")),
        ismcts.budget,
        ismcts.playout_depth,
        ismcts.playout_turns,
        ismcts.exploration
    );
    let tuned = Entrant::<G>::new(name, |seed| {
        Ok(match pimc {
            Some(n) => {
                let options = PimcOptions::default()
                    .with_determinizations(n)
                    .with_search(ismcts.clone());
                Box::new(PimcBot::<G>::named("pimc".into(), options, seed)) as Box<dyn Bot<G>>
            }
            None => Box::new(IsmctsBot::<G>::with_options(ismcts.clone(), seed)) as Box<dyn Bot<G>>,
        })
    });
    let other = match &rival.spec {
        Some(spec) => Entrant::<G>::new(spec.to_string(), |seed| bots::make_bot::<G>(spec, seed)),
        None => Entrant::<G>::new("heuristic".into(), |seed| {
            Ok(Box::new(HeuristicBot::<G>::with_options(
                rival.heuristic.clone(),
                seed,
            )) as Box<dyn Bot<G>>)
        }),
    };
    let opts = TournamentOptions {
        games,
        seed: 1,
        threads,
        ..TournamentOptions::default()
    };
    match run_entrants(config, &[tuned, other], &opts, &|| {}) {
        Ok(report) => println!("{report}"),
        Err(e) => eprintln!("{e}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().cloned().unwrap_or_default();
    let games = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(100);
    let mut ismcts = IsmctsOptions::default();
    let mut heur = HeuristicOptions::default();
    let mut players = 0usize;
    let mut pimc: Option<u32> = None;
    let mut spec: Option<BotSpec> = None;
    let mut threads = None;
    for kv in args.iter().skip(2) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        match k {
            "iters" => ismcts = ismcts.with_budget(Budget::Iterations(v.parse().unwrap_or(1000))),
            "depth" => ismcts = ismcts.with_playout_depth(v.parse().ok()),
            "turns" => ismcts = ismcts.with_playout_turns(v.parse().ok()),
            "c" => ismcts = ismcts.with_exploration(v.parse().unwrap_or(0.7)),
            "det" => heur = heur.with_determinizations(v.parse().unwrap_or(8)),
            "players" => players = v.parse().unwrap_or(0),
            "pimc" => pimc = v.parse().ok(),
            "vs" => spec = v.parse().ok(),
            "threads" => threads = v.parse().ok(),
            _ => eprintln!("ignoring `{kv}`"),
        }
    }
    // PIMC shares the iterations among its determinizations.
    if let (Some(n), Budget::Iterations(total)) = (pimc, ismcts.budget) {
        ismcts = ismcts.with_budget(Budget::Iterations((total / n.max(1)).max(1)));
    }
    let rival = Rival {
        heuristic: heur,
        spec,
    };
    match game.as_str() {
        "dropsite" => {
            let mut config = dropsite::Config::default();
            if players > 0 {
                config.players = players;
            }
            play::<dropsite::DropSite>(&config, games, ismcts, pimc, &rival, threads);
        }
        "distopia" => {
            let config = distopia::Config::default();
            play::<distopia::Distopia>(&config, games, ismcts, pimc, &rival, threads);
        }
        "euphoria" => {
            let mut config = euphoria::Config::default().with_offers(1);
            if players > 0 {
                config.players = players;
            }
            play::<euphoria::Euphoria>(&config, games, ismcts, pimc, &rival, threads);
        }
        _ => eprintln!(
            "usage: tune GAME GAMES [iters=N] [depth=N|end] [c=X] [det=N] [players=N] [pimc=N] [vs=SPEC] [threads=N]"
        ),
    }
}
