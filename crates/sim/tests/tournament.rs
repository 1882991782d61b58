//! Tournaments: fair seating, thread-independent results, the heuristic beats random, and a
//! game that breaks down is reported, not scored.
use bots::{Bot, BotSpec, Observer, RandomBot};
use engine::prelude::*;
use sim::tournament::{
    run, run_entrants, seating, try_run, Entrant, TournamentError, TournamentOptions,
};
use sim::SimError;

#[test]
fn heuristic_beats_random_at_dropsite() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    let opts = TournamentOptions {
        bots: vec![BotSpec::Heuristic, BotSpec::Random],
        games: 8,
        seed: 3,
        ..TournamentOptions::default()
    };
    let report = run::<dropsite::DropSite>(&config, &opts, &|| {});
    assert!(report.pairs[0].win_rate >= 0.75, "{report}");
}

#[test]
fn tournament_results_do_not_depend_on_threads() {
    let opts = TournamentOptions {
        bots: vec![
            BotSpec::Random,
            "ismcts:30".parse().expect("spec"),
            BotSpec::Heuristic,
        ],
        games: 6,
        seed: 11,
        ..TournamentOptions::default()
    };
    let config = distopia::Config::default();
    let one = run::<distopia::Distopia>(
        &config,
        &TournamentOptions {
            threads: Some(1),
            ..opts.clone()
        },
        &|| {},
    );
    let two = run::<distopia::Distopia>(
        &config,
        &TournamentOptions {
            threads: Some(2),
            ..opts
        },
        &|| {},
    );
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
fn heuristic_beats_random_at_distopia() {
    let opts = TournamentOptions {
        bots: vec![BotSpec::Heuristic, BotSpec::Random],
        games: 40,
        seed: 3,
        threads: Some(2),
    };
    let report = run::<distopia::Distopia>(&distopia::Config::default(), &opts, &|| {});
    let pair = &report.pairs[0];
    assert!(
        pair.win_rate > 0.6,
        "heuristic won only {:.0}%\n{report}",
        100.0 * pair.win_rate
    );
    assert!(report.elo["heuristic"] > report.elo["random"]);
}

/// A bot that plays randomly until the game's `give_up`th decision of its own, then finds
/// nothing to play (a bug a tournament must report).
struct GivesUp {
    inner: RandomBot<<distopia::Distopia as GameRules>::Action>,
    left: u32,
}

impl Bot<distopia::Distopia> for GivesUp {
    fn name(&self) -> String {
        "gives-up".into()
    }
    fn choose(
        &mut self,
        observer: &Observer<'_, distopia::Distopia>,
    ) -> Option<<distopia::Distopia as GameRules>::Action> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.inner.choose(observer)
    }
}

#[test]
fn a_broken_game_is_reported_not_scored() {
    let entrants = [
        Entrant::<distopia::Distopia>::new("random".into(), |seed| {
            Ok(Box::new(RandomBot::new(seed)) as Box<dyn Bot<distopia::Distopia>>)
        }),
        Entrant::<distopia::Distopia>::new("gives-up".into(), |seed| {
            Ok(Box::new(GivesUp {
                inner: RandomBot::new(seed),
                left: 3,
            }) as Box<dyn Bot<distopia::Distopia>>)
        }),
    ];
    let opts = TournamentOptions {
        games: 4,
        seed: 5,
        threads: Some(1),
        ..TournamentOptions::default()
    };
    let err = run_entrants(&distopia::Config::default(), &entrants, &opts, &|| {})
        .expect_err("a bot with no action breaks its game");
    match &err {
        TournamentError::Sim(SimError::Broken { index, message, .. }) => {
            assert_eq!(*index, 0, "the first game breaks first: {err}");
            assert!(message.contains("found no action"), "{err}");
        }
        other => panic!("expected a broken game, got {other}"),
    }
    assert!(err.to_string().contains("seed"), "{err}");
}

#[test]
fn a_human_seat_or_one_bot_is_refused() {
    let config = distopia::Config::default();
    let one = TournamentOptions {
        bots: vec![BotSpec::Random],
        ..TournamentOptions::default()
    };
    assert!(matches!(
        try_run::<distopia::Distopia>(&config, &one, &|| {}),
        Err(TournamentError::TooFewBots)
    ));
    let human = TournamentOptions {
        bots: vec![BotSpec::Random, BotSpec::Human],
        ..TournamentOptions::default()
    };
    let err = try_run::<distopia::Distopia>(&config, &human, &|| {}).expect_err("human");
    assert!(err.to_string().contains("human"), "{err}");
}
