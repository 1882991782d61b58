//! Random games: the shared conformance harness, and proptest-driven invariants.
use crate::common::config;
use dropsite::{Config, DropSite};
use engine::conformance::{self, Options};
use engine::prelude::*;
use engine::{Names, Session, Viewer};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

#[test]
fn conformance_two_players() {
    let s = conformance::run::<DropSite>(
        &config(2),
        &Options {
            games: 12,
            first_seed: 0,
            max_steps: 20_000,
            deep_every: 1,
        },
    );
    assert!(
        s.refusals_checked > 100,
        "refusals were exercised: {}",
        s.refusals_checked
    );
}

#[test]
fn conformance_three_players() {
    conformance::run::<DropSite>(
        &config(3),
        &Options {
            games: 10,
            first_seed: 100,
            max_steps: 20_000,
            deep_every: 1,
        },
    );
}

#[test]
fn conformance_four_players() {
    conformance::run::<DropSite>(
        &config(4),
        &Options {
            games: 10,
            first_seed: 200,
            max_steps: 20_000,
            deep_every: 1,
        },
    );
}

#[test]
fn conformance_open_debt_short_game() {
    let c = Config {
        players: 3,
        target: 50,
        open_debt: true,
        random_first: true,
        ..Config::default()
    };
    conformance::run::<DropSite>(
        &c,
        &Options {
            games: 10,
            first_seed: 300,
            max_steps: 20_000,
            deep_every: 1,
        },
    );
}

/// Plays one random game to its end, checking the Drop Site invariants at every step.
fn play_checked(players: usize, seed: u64, open_debt: bool) -> Result<(), TestCaseError> {
    let c = Config {
        players,
        open_debt,
        ..Config::default()
    };
    let mut game = DropSite::new(&c, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut steps = 0;
    while game.to_act().is_some() {
        prop_assert!(steps < 20_000, "the game did not end");
        let census: usize = game.deck_len()
            + (0..players)
                .map(|s| game.hand(s).len() + game.debt(s).len())
                .sum::<usize>()
            + game.piles().iter().map(|p| p.cards.len()).sum::<usize>();
        prop_assert_eq!(census, 52, "52 cards conserved");
        for viewer in 0..players {
            let view = game.view(Viewer::Seat(viewer));
            let json =
                serde_json::to_value(&view).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // A seat's view holds its own hand, and nothing it cannot see: dealing again
            // everything hidden from it leaves its view as it was.
            prop_assert_eq!(view.hand.as_deref(), Some(game.hand(viewer)));
            let resampled = game.determinize(viewer, &mut rng);
            prop_assert_eq!(&resampled.view(Viewer::Seat(viewer)), &view);
            prop_assert!(json.get("deck").is_none() && json.get("rng").is_none());
            prop_assert_eq!(view.own_debt.is_some(), open_debt);
        }
        game.legal_actions(&mut legal);
        let a = *legal
            .choose(&mut rng)
            .ok_or_else(|| TestCaseError::fail("no legal action"))?;
        game.apply(a)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        steps += 1;
    }
    let outcome = game
        .outcome()
        .ok_or_else(|| TestCaseError::fail("no outcome"))?;
    // Scores add up: each total is the sum of its round scores, and the winner reached
    // the target alone.
    for s in 0..players {
        let sum: i64 = game.history().iter().map(|r| r.scores[s]).sum();
        prop_assert_eq!(outcome.scores[s], sum);
    }
    let winners = outcome.winners();
    prop_assert_eq!(winners.len(), 1);
    prop_assert!(outcome.scores[winners[0]] >= 100 || game.history().len() as u32 >= c.max_rounds);
    for r in game.history() {
        prop_assert_eq!(
            &r.scores,
            &dropsite::score_shown(&dropsite::cards::DECK, &r.shown, &r.debts)
        );
    }
    // The end explained: a line a round for each seat, adding up to the outcome's score.
    let ending = game
        .ending(&Names::default())
        .ok_or_else(|| TestCaseError::fail("no ending"))?;
    prop_assert_eq!(ending.check(&outcome), Ok(()));
    for (s, seat) in ending.seats.iter().enumerate() {
        prop_assert_eq!(seat.lines.len(), game.history().len());
        for (line, round) in seat.lines.iter().zip(game.history()) {
            prop_assert_eq!(line.points, round.scores[s]);
            let label = format!("round {} (", round.round);
            prop_assert!(line.label.starts_with(&label), "{}", line.label);
        }
    }
    prop_assert!(ending.why.contains("target"), "{}", ending.why);
    Ok(())
}

/// Plays `steps` random actions, then seat 1 resigns: the end screen's scores are the
/// board's totals, explained round by round.
fn resign_checked(players: usize, seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let c = config(players);
    let game = DropSite::new(&c, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut session = Session::new(Box::new(game));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..steps {
        let legal = session.state().legal();
        let Some(a) = legal.choose(&mut rng) else {
            break;
        };
        let mv = session
            .parse(a)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        session
            .play(&mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    if session.is_over() {
        return Ok(());
    }
    for seat in 0..players - 1 {
        session
            .resign(seat)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    let outcome = session
        .outcome()
        .ok_or_else(|| TestCaseError::fail("no outcome"))?;
    let board = session
        .state()
        .as_any()
        .downcast_ref::<DropSite>()
        .ok_or_else(|| TestCaseError::fail("not a Drop Site state"))?;
    prop_assert_eq!(&outcome.scores, &board.totals().to_vec());
    prop_assert_eq!(outcome.scores.clone(), board.view(Viewer::Spectator).totals);
    let ending = session
        .ending(&Names::default())
        .ok_or_else(|| TestCaseError::fail("no ending"))?;
    prop_assert_eq!(ending.check(&outcome), Ok(()));
    prop_assert!(ending.why.starts_with("seat 1"), "{}", ending.why);
    prop_assert!(
        ending.why.contains(&format!("so seat {players} won")),
        "{}",
        ending.why
    );
    Ok(())
}

#[test]
fn a_game_explains_its_end_only_at_the_end() {
    let mut game = DropSite::new(&config(2), 5).expect("config");
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        assert_eq!(game.ending(&Names::default()), None);
        game.legal_actions(&mut legal);
        game.apply(legal[legal.len() / 2]).expect("legal");
    }
    let ending = game.ending(&Names::default()).expect("over");
    let outcome = game.outcome().expect("over");
    assert_eq!(ending.check(&outcome), Ok(()));
    assert_eq!(ending.totals(), game.totals());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_games_keep_the_invariants(players in 2usize..=4, seed in any::<u64>(), open_debt in any::<bool>()) {
        play_checked(players, seed, open_debt)?;
    }

    #[test]
    fn a_resignation_keeps_the_board_scores(players in 2usize..=4, seed in any::<u64>(), steps in 0usize..400) {
        resign_checked(players, seed, steps)?;
    }
}
