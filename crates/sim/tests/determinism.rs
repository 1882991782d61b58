use bots::BotSpec;
use dropsite::{Config, DropSite};
use sim::{run, SimOptions};

#[test]
fn the_same_seed_gives_the_same_summary_whatever_the_thread_count() {
    let config = Config {
        players: 3,
        target: 50,
        ..Config::default()
    };
    let options = |threads| SimOptions {
        games: 60,
        seed: 11,
        threads: Some(threads),
        seats: vec![BotSpec::Random; 3],
    };
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
    let options = SimOptions {
        games: 1,
        seed: 1,
        threads: Some(1),
        seats: vec![BotSpec::Random; 3],
    };
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
}
