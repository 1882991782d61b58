//! Same seeds, same games: a hash of fixed-seed random games (every legal list in order,
//! every move's notation, the views, the events, a resampled world now and then, the
//! evaluations and the outcomes), to compare before and after a change that must not
//! change the rules.
//!
//! `cargo run --release -p euphoria --example replay_hash -- [games] [players...]`

use engine::prelude::*;
use engine::{rng_from_seed, Viewer};
use euphoria::{Config, Euphoria};
use rand::Rng;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut players: Vec<usize> = args.filter_map(|a| a.parse().ok()).collect();
    if players.is_empty() {
        players = vec![2, 4, 6];
    }
    let mut total = DefaultHasher::new();
    for &n in &players {
        for (name, config) in [
            ("default", Config::players(n)),
            ("offers 1", Config::players(n).with_offers(1)),
        ] {
            let (hash, moves) = hash_games(&config, games);
            println!("{n}p {name}: {games} games, {moves} moves, hash {hash:016x}");
            hash.hash(&mut total);
        }
    }
    println!("total {:016x}", total.finish());
}

/// The hash of `games` random games from seeds 0.., and their moves.
fn hash_games(config: &Config, games: u64) -> (u64, u64) {
    let mut h = DefaultHasher::new();
    let mut legal = Vec::new();
    let mut moves = 0u64;
    for seed in 0..games {
        let Ok(mut game) = Euphoria::new(config, seed) else {
            eprintln!("bad config");
            std::process::exit(1);
        };
        let mut rng = rng_from_seed(seed ^ 0x5EED);
        let mut n = 0u64;
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            for a in &legal {
                a.to_string().hash(&mut h);
            }
            if legal.is_empty() {
                "no legal action".hash(&mut h);
                break;
            }
            let a = legal[rng.random_range(0..legal.len())];
            game.public_action(a, Viewer::Spectator).hash(&mut h);
            let before = n.is_multiple_of(7).then(|| game.clone());
            if let Err(e) = game.apply(a) {
                eprintln!("seed {seed}: {e}");
                std::process::exit(1);
            }
            if let Some(before) = before {
                serde_json::to_string(&game)
                    .unwrap_or_default()
                    .hash(&mut h);
                for viewer in [Viewer::Spectator, Viewer::Seat(seat)] {
                    let events = Euphoria::events(&before, a, &game, viewer);
                    format!("{events:?}").hash(&mut h);
                    serde_json::to_string(&game.view(viewer))
                        .unwrap_or_default()
                        .hash(&mut h);
                }
                // An illegal action is refused with the state unchanged.
                let mut probe = before.clone();
                for wrong in [euphoria::Action::Pass, euphoria::Action::Accept] {
                    if probe.apply(wrong).is_err() {
                        assert_eq!(probe, before, "a refused action changed the state");
                    }
                    probe = before.clone();
                }
            }
            if n.is_multiple_of(31) {
                let mut r = rng_from_seed(seed.wrapping_mul(31) ^ n);
                let world = game.determinize(seat, &mut r);
                format!("{world:?}").hash(&mut h);
                for s in 0..game.seats() {
                    game.evaluate(s).to_bits().hash(&mut h);
                }
                let mut all = Vec::new();
                game.evaluate_all(&mut all);
                let each: Vec<f64> = (0..game.seats()).map(|s| game.evaluate(s)).collect();
                assert_eq!(all, each, "evaluate_all gives what evaluate gives");
            }
            n += 1;
        }
        format!("{game:?}").hash(&mut h);
        format!("{:?}", game.outcome()).hash(&mut h);
        n.hash(&mut h);
        moves += n;
    }
    (h.finish(), moves)
}
