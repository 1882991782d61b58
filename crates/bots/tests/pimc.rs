//! The `pimc` level: legal, reproducible whole games of every game, medium's iterations,
//! and stronger than random.
use crate::common;

use bots::{make_bot, pimc_options, Bot, BotSpec, Budget, IsmctsOptions, Observer, PimcBot};
use bots::{PimcOptions, RandomBot};
use engine::prelude::*;

/// A PIMC bot small enough for debug builds: 4 determinizations of 25 iterations.
fn small<G: Game>(seed: u64) -> Box<dyn Bot<G>> {
    let search = IsmctsOptions::default().with_budget(Budget::Iterations(25));
    let options = PimcOptions::default()
        .with_determinizations(4)
        .with_search(search);
    Box::new(PimcBot::<G>::named("pimc:4x25".into(), options, seed))
}

/// Plays one game, `pimc` (from `make`) at the even seats and random at the odd ones;
/// checks every choice is legal and returns the actions and pimc's reward.
fn play<G: Game>(
    config: &G::Config,
    seed: u64,
    make: &dyn Fn(u64) -> Box<dyn Bot<G>>,
    pimc_at: usize,
) -> (Vec<String>, f64) {
    let mut game = G::new(config, seed).expect("valid config");
    let seats = game.seats();
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats)
        .map(|s| {
            let bot_seed = engine::derive_seed(seed, s as u64);
            if s % 2 == pimc_at % 2 {
                make(bot_seed)
            } else {
                Box::new(RandomBot::<G::Action>::new(bot_seed)) as Box<dyn Bot<G>>
            }
        })
        .collect();
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while let Some(observer) = Observer::new(&game) {
        let seat = observer.seat();
        let action = bots[seat].choose(&observer).expect("an action");
        game.legal_actions(&mut legal);
        assert!(
            legal.contains(&action),
            "{} chose illegal {action}",
            bots[seat].name()
        );
        game.apply(action).expect("legal");
        actions.push(action.to_string());
        assert!(actions.len() < 20_000, "seed {seed}: no end in sight");
    }
    let outcome = game.outcome().expect("finished");
    let reward = (0..seats)
        .filter(|s| s % 2 == pimc_at % 2)
        .map(|s| outcome.reward(s))
        .sum();
    (actions, reward)
}

fn whole_games_replay<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let (first, _) = play::<G>(config, seed, &small::<G>, seed as usize);
        let (again, _) = play::<G>(config, seed, &small::<G>, seed as usize);
        assert!(!first.is_empty());
        assert_eq!(first, again, "seed {seed} did not replay identically");
    }
}

#[test]
fn pimc_plays_whole_seeded_games_of_dropsite() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    whole_games_replay::<dropsite::DropSite>(&config, 0..2);
    let four = dropsite::Config {
        players: 4,
        ..config
    };
    whole_games_replay::<dropsite::DropSite>(&four, 0..1);
}

#[test]
fn pimc_plays_whole_seeded_games_of_distopia() {
    whole_games_replay::<distopia::Distopia>(&distopia::Config::default(), 0..3);
    let advanced = distopia::Config::advanced(distopia::Border::Coast);
    whole_games_replay::<distopia::Distopia>(&advanced, 0..1);
}

#[test]
fn pimc_plays_whole_seeded_games_of_euphoria() {
    let config = euphoria::Config::default().with_offers(1);
    whole_games_replay::<euphoria::Euphoria>(&config, 0..1);
}

#[test]
fn pimc_searches_as_many_iterations_as_medium() {
    let medium = bots::level_options(bots::Level::Medium);
    let pimc = pimc_options();
    assert_eq!(
        pimc.iterations(),
        match medium.budget {
            Budget::Iterations(n) => Some(u64::from(n)),
            Budget::Millis(_) => None,
        }
    );
    assert_eq!(pimc.search.time_cap, medium.time_cap);
    // Every iteration of every determinization ends up under one root action.
    let config = distopia::Config::default();
    for game in common::positions::<distopia::Distopia>(&config, 3, 7, 5) {
        let observer = Observer::new(&game).expect("running");
        let mut legal = Vec::new();
        observer.legal_actions(&mut legal);
        if legal.len() < 2 {
            continue;
        }
        let options = pimc.clone().with_search(
            pimc.search
                .clone()
                .with_time_cap(std::time::Duration::from_secs(3600)),
        );
        let mut bot = PimcBot::<distopia::Distopia>::named("pimc".into(), options, 5);
        let votes = bot.analyse(&observer);
        assert_eq!(votes.iter().map(|v| u64::from(v.1)).sum::<u64>(), 1000);
        assert!(votes.iter().all(|v| legal.contains(&v.0)));
    }
}

#[test]
fn pimc_is_a_bot_by_name() {
    let spec: BotSpec = "pimc".parse().expect("a spec");
    assert_eq!(spec, BotSpec::Pimc);
    let bot = make_bot::<dropsite::DropSite>(&spec, 1).expect("a bot");
    assert_eq!(bot.name(), "pimc");
}

#[test]
fn pimc_beats_random_in_most_games() {
    // The level itself (1,000 iterations a decision), seats alternated.
    let config = distopia::Config::default();
    let make = |seed: u64| make_bot::<distopia::Distopia>(&BotSpec::Pimc, seed).expect("bot");
    let games = 10;
    let score: f64 = (0..games)
        .map(|g| play::<distopia::Distopia>(&config, 100 + g, &make, g as usize).1)
        .sum();
    assert!(
        score >= 8.0,
        "pimc scored {score} of {games} against random"
    );
}
