//! ISMCTS option tuning against the heuristic bot:
//! `cargo run --release -p sim --example tune -- GAME GAMES [iters=1000] [depth=8|end] [c=0.7] [det=8] [players=4]`
use bots::{Bot, Budget, HeuristicBot, HeuristicOptions, IsmctsBot, IsmctsOptions};
use engine::Game;
use sim::tournament::{run_entrants, Entrant, TournamentOptions};

fn play<G: Game>(config: &G::Config, games: u64, ismcts: IsmctsOptions, heur: HeuristicOptions) {
    let name = format!(
        "ismcts:{}/d{:?}/t{:?}/c{}",
        ismcts.budget, ismcts.playout_depth, ismcts.playout_turns, ismcts.exploration
    );
    let entrants = [
        Entrant::<G>::new(name, |seed| {
            Ok(Box::new(IsmctsBot::<G>::with_options(ismcts.clone(), seed)) as Box<dyn Bot<G>>)
        }),
        Entrant::<G>::new("heuristic".into(), |seed| {
            Ok(Box::new(HeuristicBot::<G>::with_options(heur.clone(), seed)) as Box<dyn Bot<G>>)
        }),
    ];
    let opts = TournamentOptions::default().with_games(games).with_seed(1);
    match run_entrants(config, &entrants, &opts, &|| {}) {
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
    for kv in args.iter().skip(2) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        match k {
            "iters" => ismcts = ismcts.with_budget(Budget::Iterations(v.parse().unwrap_or(1000))),
            "depth" => ismcts = ismcts.with_playout_depth(v.parse().ok()),
            "turns" => ismcts = ismcts.with_playout_turns(v.parse().ok()),
            "c" => ismcts = ismcts.with_exploration(v.parse().unwrap_or(0.7)),
            "det" => heur = heur.with_determinizations(v.parse().unwrap_or(8)),
            "players" => players = v.parse().unwrap_or(0),
            _ => eprintln!("ignoring `{kv}`"),
        }
    }
    match game.as_str() {
        "dropsite" => {
            let mut config = dropsite::Config::default();
            if players > 0 {
                config.players = players;
            }
            play::<dropsite::DropSite>(&config, games, ismcts, heur);
        }
        "distopia" => play::<distopia::Distopia>(&distopia::Config::default(), games, ismcts, heur),
        "euphoria" => {
            let mut config = euphoria::Config::default().with_offers(1);
            if players > 0 {
                config.players = players;
            }
            play::<euphoria::Euphoria>(&config, games, ismcts, heur);
        }
        _ => eprintln!("usage: tune GAME GAMES [iters=N] [depth=N|end] [c=X] [det=N] [players=N]"),
    }
}
