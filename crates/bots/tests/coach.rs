//! The coach's review of a finished game: every decision reviewed from its seat's
//! information, the series and the ending consistent, whatever the number of threads.
use bots::{CoachError, CoachOptions, Review};
use engine::prelude::*;
use engine::GameRecord;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

/// A finished game of random moves, as a record.
fn recorded<G: Game>(config: &G::Config, seed: u64) -> (GameRecord, G) {
    let mut game = G::new(config, seed).expect("valid config");
    let mut record = GameRecord::start::<G>(config, seed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        game.legal_actions(&mut legal);
        let a = *legal.choose(&mut rng).expect("a legal action");
        game.apply(a).expect("legal");
        record.actions.push(a.to_string());
    }
    (record, game)
}

fn reviewed<G: Game>(record: &GameRecord, threads: usize) -> Review {
    let options = CoachOptions {
        iterations: 24,
        seed: 3,
    };
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let progress = |done: usize, total: usize| {
        assert!(done <= total);
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let review = pool
        .install(|| bots::review::<G>(record, &options, &progress))
        .expect("a finished game reviews");
    assert!(calls.into_inner() > 0, "progress is told");
    review
}

fn check<G: Game>(config: &G::Config, seed: u64) {
    let (record, end) = recorded::<G>(config, seed);
    let review = reviewed::<G>(&record, 2);
    assert_eq!(
        review,
        reviewed::<G>(&record, 1),
        "the same review on 1 thread"
    );
    assert_eq!(review.game, G::NAME);
    assert_eq!(review.seats, end.seats());
    assert_eq!(
        review.moves.len(),
        record.actions.len(),
        "every move reviewed"
    );
    for (i, m) in review.moves.iter().enumerate() {
        assert_eq!(m.ply, i);
        assert_eq!(m.played.action, record.actions[i]);
        assert!((0.0..=1.0).contains(&m.played.chance), "{m:?}");
        assert!((0.0..=1.0).contains(&m.best.chance), "{m:?}");
        assert!(m.loss >= 0.0, "{m:?}");
        assert!(
            (m.loss - (m.best.chance - m.played.chance)).abs() < 1e-12,
            "{m:?}"
        );
        if m.loss == 0.0 {
            assert_eq!(m.played, m.best, "no loss: the move played was the best");
        }
        if m.marked {
            assert!(m.loss >= bots::MARK_LOSS, "{m:?}");
        }
        for a in [&m.played, &m.best] {
            assert_eq!(a.place.is_some(), end.seats() > 2, "{a:?}");
            if let Some(place) = a.place {
                assert!((1.0..=end.seats() as f64).contains(&place), "{a:?}");
            }
            assert!(!a.label.trim().is_empty());
        }
    }
    for seat in 0..end.seats() {
        let decisions: Vec<(usize, f64)> = review
            .moves
            .iter()
            .filter(|m| m.seat == seat)
            .map(|m| (m.ply, m.played.chance))
            .collect();
        assert_eq!(review.series[seat], decisions, "seat {seat}'s series");
        let marked = review
            .moves
            .iter()
            .filter(|m| m.seat == seat && m.marked)
            .count();
        assert!(marked <= bots::MARK_MOST);
    }
    let ending = review
        .ending
        .as_ref()
        .expect("a finished game explains its end");
    let outcome = end.outcome().expect("over");
    assert_eq!(
        ending.check(&outcome),
        Ok(()),
        "the lines add up to the scores"
    );

    // An unfinished game is not reviewed, nor a record of another game.
    let mut running = record.clone();
    running.actions.truncate(record.actions.len() / 2);
    let nothing = |_: usize, _: usize| {};
    let options = CoachOptions {
        iterations: 8,
        seed: 0,
    };
    assert_eq!(
        bots::review::<G>(&running, &options, &nothing),
        Err(CoachError::NotOver)
    );
    let mut other = record.clone();
    other.game = "chess".into();
    assert!(matches!(
        bots::review::<G>(&other, &options, &nothing),
        Err(CoachError::WrongGame { .. })
    ));
}

#[test]
fn a_dropsite_game_reviews() {
    let config = dropsite::Config {
        players: 3,
        target: 50,
        max_rounds: 3,
        ..dropsite::Config::default()
    };
    check::<dropsite::DropSite>(&config, 4);
}

#[test]
fn a_distopia_game_reviews() {
    check::<distopia::Distopia>(&distopia::Config::default(), 5);
}

#[test]
fn a_euphoria_game_reviews() {
    let config = euphoria::Config {
        players: 2,
        ..euphoria::Config::default().with_offers(1)
    };
    check::<euphoria::Euphoria>(&config, 6);
}
