use bots::BotSpec;
use dropsite::{Config, DropSite};
use sim::{run, SimOptions};

/// `games` unsharded games of random bots at `seats` seats, on `threads` threads.
fn random_bots(games: u64, seed: u64, threads: usize, seats: usize) -> SimOptions {
    SimOptions {
        games,
        seed,
        threads: Some(threads),
        seats: vec![BotSpec::Random; seats],
        shard: None,
    }
}

#[test]
fn the_same_seed_gives_the_same_summary_whatever_the_thread_count() {
    let config = Config {
        players: 3,
        target: 50,
        ..Config::default()
    };
    let options = |threads| random_bots(60, 11, threads, 3);
    let one = run::<DropSite>(&config, &options(1), &|| {}).expect("runs");
    let two = run::<DropSite>(&config, &options(2), &|| {}).expect("runs");
    assert_eq!(one.summary, two.summary);
    assert_eq!(one.summary.games, 60);
    let wins: f64 = one.summary.seats.iter().map(|s| s.wins).sum();
    assert!(
        (wins - 60.0).abs() < 1e-9,
        "every game has one win to share: {wins}"
    );
}

#[test]
fn a_seat_list_of_the_wrong_length_is_refused() {
    let options = random_bots(1, 1, 1, 3);
    let err =
        run::<DropSite>(&Config::default(), &options, &|| {}).expect_err("2 players, 3 seats");
    assert!(
        err.to_string().contains("3 seats named for a table of 2"),
        "{err}"
    );
}

#[test]
fn the_wilson_interval_brackets_the_rate() {
    let (lo, hi) = sim::wilson(50.0, 100.0);
    assert!(
        (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
        "{lo} {hi}"
    );
    assert_eq!(sim::wilson(0.0, 0.0), (0.0, 1.0), "no games: anything goes");
}

#[test]
fn win_rates_by_holding_cover_every_seat_of_every_game() {
    let options = random_bots(40, 3, 2, 2);
    let report =
        run::<distopia::Distopia>(&distopia::Config::default(), &options, &|| {}).expect("runs");
    let characters: Vec<_> = report.summary.holdings_of("character").collect();
    let names: Vec<&str> = characters.iter().map(|h| h.value.as_str()).collect();
    assert_eq!(names, ["Collector", "Teacher"]);
    assert_eq!(characters.iter().map(|h| h.seats).sum::<u64>(), 80);
    let wins: f64 = characters.iter().map(|h| h.wins).sum();
    assert!((wins - 40.0).abs() < 1e-9, "{wins}");
    let config = Config {
        target: 30,
        ..Config::default()
    };
    let report = run::<DropSite>(&config, &options, &|| {}).expect("runs");
    let bins: Vec<_> = report.summary.holdings_of("first hand points").collect();
    assert!((3..=5).contains(&bins.len()), "{bins:?}");
    assert!(bins.iter().all(|h| h.value.starts_with('Q')), "{bins:?}");
    assert_eq!(bins.iter().map(|h| h.seats).sum::<u64>(), 80);
}
