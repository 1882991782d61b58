//! Bots play whole seeded games legally and reproducibly, and the heuristic beats random.
mod common;

use bots::tournament::{run, seating, wilson, TournamentOptions};
use bots::{make_bot, Bot, BotSpec, Observer};
use engine::Game;

/// Plays a game with one bot per seat, checking every choice is legal; returns the actions.
fn play<G: Game>(config: &G::Config, seed: u64, bots: &mut [Box<dyn Bot<G>>]) -> Vec<String> {
    let mut game = G::new(config, seed).expect("valid config");
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while let Some(observer) = Observer::new(&game) {
        let seat = observer.seat();
        let bot = &mut bots[seat % bots.len()];
        let action = bot
            .choose(&observer)
            .expect("a running game has a legal action");
        game.legal_actions(&mut legal);
        assert!(
            legal.contains(&action),
            "{} chose illegal {action} (seed {seed})",
            bot.name()
        );
        game.apply(action).expect("legal");
        actions.push(action.to_string());
    }
    assert!(game.outcome().is_some());
    actions
}

/// Seat `s` gets bot kind `s + offset` of [`common::all_bots`], so every kind plays.
fn table<G: Game>(seats: usize, seed: u64, offset: usize) -> Vec<Box<dyn Bot<G>>> {
    (0..seats)
        .map(|s| {
            let mut kinds = common::all_bots::<G>(seed + s as u64);
            let k = (s + offset) % kinds.len();
            kinds.swap_remove(k)
        })
        .collect()
}

fn legal_and_deterministic<G: Game>(config: &G::Config, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let seats = G::new(config, seed).expect("valid").seats();
        let offset = seed as usize;
        let first = play::<G>(config, seed, &mut table::<G>(seats, seed, offset));
        let again = play::<G>(config, seed, &mut table::<G>(seats, seed, offset));
        assert_eq!(first, again, "seed {seed} did not replay identically");
    }
}

#[test]
fn dropsite_bots_play_legal_reproducible_games() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    legal_and_deterministic::<dropsite::DropSite>(&config, 0..2);
}

#[test]
fn distopia_bots_play_legal_reproducible_games() {
    legal_and_deterministic::<distopia::Distopia>(&distopia::Config::default(), 0..4);
}

#[test]
fn euphoria_bots_play_legal_reproducible_games() {
    // Whole games with searching bots are long in debug: one, with the cheap bots.
    let config = euphoria::Config::default();
    let mut bots: Vec<Box<dyn Bot<euphoria::Euphoria>>> = vec![
        make_bot(&BotSpec::Random, 1).expect("bot"),
        Box::new(bots::HeuristicBot::with_options(
            bots::HeuristicOptions::default()
                .with_determinizations(1)
                .with_own_lookahead(2),
            2,
        )),
    ];
    let first = play(&config, 3, &mut bots);
    assert!(!first.is_empty());
}

#[test]
fn euphoria_search_chooses_legal_actions_midgame() {
    let config = euphoria::Config::default();
    let mut legal = Vec::new();
    for game in common::positions::<euphoria::Euphoria>(&config, 5, 61, 12) {
        game.legal_actions(&mut legal);
        for mut bot in common::all_bots::<euphoria::Euphoria>(9) {
            let observer = Observer::new(&game).expect("running");
            let action = bot.choose(&observer).expect("an action");
            assert!(
                legal.contains(&action),
                "{} chose illegal {action}",
                bot.name()
            );
        }
    }
}

#[test]
fn heuristic_beats_random_at_distopia() {
    let opts = TournamentOptions::default()
        .with_bots(vec![BotSpec::Heuristic, BotSpec::Random])
        .with_games(40)
        .with_seed(3)
        .with_threads(Some(2));
    let report = run::<distopia::Distopia>(&distopia::Config::default(), &opts, &|| {});
    let pair = &report.pairs[0];
    assert!(
        pair.win_rate > 0.6,
        "heuristic won only {:.0}%\n{report}",
        100.0 * pair.win_rate
    );
    assert!(report.elo["heuristic"] > report.elo["random"]);
}

#[test]
fn heuristic_beats_random_at_dropsite() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    let opts = TournamentOptions::default()
        .with_bots(vec![BotSpec::Heuristic, BotSpec::Random])
        .with_games(8)
        .with_seed(3);
    let report = run::<dropsite::DropSite>(&config, &opts, &|| {});
    assert!(report.pairs[0].win_rate >= 0.75, "{report}");
}

#[test]
fn tournament_results_do_not_depend_on_threads() {
    let opts = TournamentOptions::default()
        .with_bots(vec![
            BotSpec::Random,
            "ismcts:30".parse().expect("spec"),
            BotSpec::Heuristic,
        ])
        .with_games(6)
        .with_seed(11);
    let config = distopia::Config::default();
    let one = run::<distopia::Distopia>(&config, &opts.clone().with_threads(Some(1)), &|| {});
    let two = run::<distopia::Distopia>(&config, &opts.with_threads(Some(2)), &|| {});
    assert_eq!(one.pairs, two.pairs);
    assert_eq!(one.elo, two.elo);
    assert_eq!(one.pairs.len(), 3);
    let mean = one.elo.values().sum::<f64>() / 3.0;
    assert!((mean - 1500.0).abs() < 1e-6);
    let json = serde_json::to_string(&one).expect("serializes");
    assert!(json.contains("\"elo\""));
    assert!(one.to_string().contains("95%"));
}

#[test]
fn seating_is_fair() {
    for seats in 2..=6usize {
        let mut at = vec![0u32; seats];
        for k in 0..(2 * seats) as u64 {
            let s = seating(seats, k);
            assert!(s.contains(&true) && s.contains(&false));
            for (i, &a) in s.iter().enumerate() {
                at[i] += u32::from(a);
            }
        }
        assert!(
            at.iter().all(|&n| n as usize == seats),
            "{seats} seats: {at:?}"
        );
    }
}

#[test]
fn wilson_interval_brackets_the_rate() {
    let (lo, hi) = wilson(0.8, 100);
    assert!(lo < 0.8 && 0.8 < hi);
    assert!((lo - 0.711).abs() < 0.01 && (hi - 0.867).abs() < 0.01);
    assert_eq!(wilson(0.5, 0), (0.0, 1.0));
}
