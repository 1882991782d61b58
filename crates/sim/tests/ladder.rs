//! Ladders: the anchor stays at 1500, bootstrap intervals hold their estimates, and a
//! stopped ladder resumes where it stopped, game for game as one that never stopped.
use bots::BotSpec;
use sim::ladder::{pair_seed, report, run, LadderError, LadderGame, LadderOptions};
use std::path::PathBuf;

/// A fresh file for one test, in cargo's scratch folder for integration tests.
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ladder-{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

fn spec(text: &str) -> BotSpec {
    text.parse().expect("a bot spec")
}

/// Cheap levels for debug builds: `ismcts:20` stands in as the anchor.
fn cheap() -> LadderOptions {
    LadderOptions {
        levels: vec![BotSpec::Random, BotSpec::Heuristic, spec("ismcts:20")],
        anchor: spec("ismcts:20"),
        games_per_pair: 4,
        seed: 7,
        bootstrap: 200,
        threads: Some(1),
        ..LadderOptions::default()
    }
}

/// Synthetic finished games: pair (a, b) plays `n` games, `a` winning the first `wins`.
fn games(a: &str, b: &str, n: u64, wins: u64) -> Vec<LadderGame> {
    (0..n)
        .map(|k| LadderGame {
            a: a.into(),
            b: b.into(),
            k,
            seed: k,
            a_seats: vec![(k % 2) as usize],
            scores: vec![0, 0],
            places: vec![0, 1],
            a_score: if k < wins { 1.0 } else { 0.0 },
            moves: 10,
            seconds: 0.0,
        })
        .collect()
}

fn levels(names: &[&str]) -> LadderOptions {
    LadderOptions {
        levels: names.iter().map(|n| spec(n)).collect(),
        games_per_pair: 40,
        bootstrap: 500,
        ..LadderOptions::default()
    }
}

#[test]
fn anchoring_keeps_medium_at_1500() {
    let mut played = games("heuristic", "random", 40, 36);
    played.extend(games("heuristic", "medium", 40, 12));
    played.extend(games("medium", "random", 40, 39));
    let three = report(
        "distopia",
        2,
        &levels(&["random", "heuristic", "medium"]),
        &played,
    );
    let elo = |r: &sim::ladder::LadderReport, name: &str| {
        r.ratings
            .iter()
            .find(|x| x.name == name)
            .map(|x| (x.elo, x.low, x.high))
            .expect("rated")
    };
    assert_eq!(elo(&three, "medium"), (1500.0, 1500.0, 1500.0), "{three}");
    let mean = three.ratings.iter().map(|r| r.elo).sum::<f64>() / 3.0;
    assert!(
        mean < 1400.0,
        "the mean is not what is held: {mean}\n{three}"
    );
    assert!(elo(&three, "random").0 < elo(&three, "heuristic").0);
    // A much stronger level joins: medium stays at 1500 exactly, and the others keep
    // their order below it.
    played.extend(games("hard", "medium", 40, 34));
    played.extend(games("hard", "random", 40, 40));
    played.extend(games("hard", "heuristic", 40, 39));
    let four = report(
        "distopia",
        2,
        &levels(&["random", "heuristic", "medium", "hard"]),
        &played,
    );
    assert_eq!(elo(&four, "medium"), (1500.0, 1500.0, 1500.0), "{four}");
    assert!(elo(&four, "hard").0 > 1700.0, "{four}");
    assert_eq!(four.ratings[0].name, "hard");
    let moved = (elo(&four, "heuristic").0 - elo(&three, "heuristic").0).abs();
    assert!(
        moved < 30.0,
        "heuristic moved {moved} with hard's games\n{three}\n{four}"
    );
}

#[test]
fn bootstrap_intervals_contain_the_point_estimate() {
    let mut cases = 0;
    for (ab, ac, bc) in [
        (20, 35, 30),
        (39, 40, 25),
        (21, 19, 20),
        (0, 10, 40),
        (28, 33, 12),
    ] {
        let mut played = games("heuristic", "random", 40, ab);
        played.extend(games("heuristic", "medium", 40, ac));
        played.extend(games("medium", "random", 40, bc));
        let r = report(
            "dropsite",
            4,
            &levels(&["random", "heuristic", "medium"]),
            &played,
        );
        assert_eq!(r.games, 120);
        for rating in &r.ratings {
            assert!(
                rating.low <= rating.elo && rating.elo <= rating.high,
                "{}: {} outside [{}, {}]\n{r}",
                rating.name,
                rating.elo,
                rating.low,
                rating.high
            );
            if rating.name != "medium" {
                assert!(rating.low < rating.high, "{r}");
            }
        }
        // Seeded: the same games give the same intervals.
        let again = report(
            "dropsite",
            4,
            &levels(&["random", "heuristic", "medium"]),
            &played,
        );
        assert_eq!(r, again);
        cases += 1;
    }
    assert_eq!(cases, 5);
}

#[test]
fn a_played_ladder_holds_its_estimates_in_its_intervals() {
    let path = scratch("played");
    let r = run::<distopia::Distopia>(&distopia::Config::default(), &cheap(), &path, &|| {})
        .expect("runs");
    assert_eq!(r.games, 12, "{r}");
    assert_eq!(r.pairs.iter().map(|p| p.games).sum::<u64>(), 12);
    for rating in &r.ratings {
        assert!(rating.low <= rating.elo && rating.elo <= rating.high, "{r}");
        assert_eq!(rating.games, 8);
    }
    let anchor = r
        .ratings
        .iter()
        .find(|x| x.name == "ismcts:20")
        .expect("rated");
    assert_eq!(anchor.elo, 1500.0);
    assert!(r.to_string().contains("ismcts:20 = 1500"), "{r}");
}

/// The file's games, without the time each took (the rest depends only on the seeds).
fn finished(path: &PathBuf) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a ladder file");
    let mut lines: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| {
            let mut game: LadderGame = serde_json::from_str(l).expect("a game");
            game.seconds = 0.0;
            serde_json::to_string(&game).expect("serializes")
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn resume_skips_finished_games() {
    let config = dropsite::Config {
        target: 20,
        ..dropsite::Config::default()
    };
    let whole = scratch("whole");
    let played = std::sync::atomic::AtomicU64::new(0);
    let count = || {
        played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let all = run::<dropsite::DropSite>(&config, &cheap(), &whole, &count).expect("runs");
    assert_eq!(played.swap(0, std::sync::atomic::Ordering::Relaxed), 12);

    // Stopped after 5 games, then run again: only the 7 others are played.
    let stopped = scratch("stopped");
    let first = run::<dropsite::DropSite>(
        &config,
        &LadderOptions {
            stop_after: Some(5),
            ..cheap()
        },
        &stopped,
        &count,
    )
    .expect("runs");
    assert_eq!(first.games, 5);
    assert_eq!(played.swap(0, std::sync::atomic::Ordering::Relaxed), 5);
    // Round by round: after 5 games every pair has played at least one.
    assert!(first.pairs.iter().all(|p| p.games >= 1), "{first}");
    assert_eq!(
        sim::ladder::remaining(&cheap(), &stopped).expect("reads"),
        7
    );
    let rest = run::<dropsite::DropSite>(&config, &cheap(), &stopped, &count).expect("runs");
    assert_eq!(played.swap(0, std::sync::atomic::Ordering::Relaxed), 7);
    assert_eq!(finished(&stopped), finished(&whole));
    assert_eq!(rest.ratings.len(), all.ratings.len());
    for (x, y) in rest.ratings.iter().zip(&all.ratings) {
        assert_eq!(
            (&x.name, x.elo, x.low, x.high),
            (&y.name, y.elo, y.low, y.high)
        );
    }

    // Finished: a third run plays nothing. A line cut short by a stop is played again.
    run::<dropsite::DropSite>(&config, &cheap(), &stopped, &count).expect("runs");
    assert_eq!(played.swap(0, std::sync::atomic::Ordering::Relaxed), 0);
    let text = std::fs::read_to_string(&stopped).expect("reads");
    let cut = text.trim_end().rfind('\n').expect("several lines") + 1;
    let half = cut + (text.len() - cut) / 2;
    std::fs::write(&stopped, &text[..half]).expect("writes");
    run::<dropsite::DropSite>(&config, &cheap(), &stopped, &count).expect("runs");
    assert_eq!(played.swap(0, std::sync::atomic::Ordering::Relaxed), 1);
    assert_eq!(finished(&stopped), finished(&whole));
}

#[test]
fn another_ladders_file_is_refused() {
    let path = scratch("other");
    let config = distopia::Config::default();
    let opts = LadderOptions {
        games_per_pair: 1,
        ..cheap()
    };
    run::<distopia::Distopia>(&config, &opts, &path, &|| {}).expect("runs");
    let err = run::<distopia::Distopia>(
        &config,
        &LadderOptions {
            seed: 8,
            ..opts.clone()
        },
        &path,
        &|| {},
    )
    .expect_err("another seed");
    assert!(matches!(err, LadderError::OtherLadder { .. }), "{err}");
    let err = run::<dropsite::DropSite>(&dropsite::Config::default(), &opts, &path, &|| {})
        .expect_err("another game");
    assert!(err.to_string().contains("distopia"), "{err}");
    // A level that is no bot, a repeated level and a missing anchor are refused.
    let bad = LadderOptions {
        levels: vec![BotSpec::Random, BotSpec::Random],
        ..opts.clone()
    };
    assert!(matches!(
        run::<distopia::Distopia>(&config, &bad, &path, &|| {}),
        Err(LadderError::Repeated(_))
    ));
    let bad = LadderOptions {
        anchor: BotSpec::Pimc,
        ..opts.clone()
    };
    assert!(matches!(
        run::<distopia::Distopia>(&config, &bad, &path, &|| {}),
        Err(LadderError::NoAnchor(_))
    ));
    let bad = LadderOptions {
        levels: vec![BotSpec::Human, spec("ismcts:20")],
        ..opts
    };
    assert!(matches!(
        run::<distopia::Distopia>(&config, &bad, &path, &|| {}),
        Err(LadderError::Sim(_))
    ));
}

#[test]
fn a_pairs_seed_depends_only_on_its_two_names() {
    assert_eq!(
        pair_seed(1, "medium", "pimc"),
        pair_seed(1, "pimc", "medium")
    );
    assert_ne!(
        pair_seed(1, "medium", "pimc"),
        pair_seed(2, "medium", "pimc")
    );
    assert_ne!(
        pair_seed(1, "medium", "pimc"),
        pair_seed(1, "medium", "hard")
    );
    assert_ne!(pair_seed(1, "ab", "c"), pair_seed(1, "a", "bc"));
}
