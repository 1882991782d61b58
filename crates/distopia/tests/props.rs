//! Random games: the engine's conformance harness on every border set, with and without
//! advanced mode and with other card data, and a proptest of whole games from random
//! seeds and random card data.
use distopia::{
    Action, Border, Card, Collaborator, Config, Contraband, Distopia, Kind, Mission, Phase, CARDS,
};
use engine::conformance::{run, Options};
use engine::prelude::*;
use engine::{Names, Session, Viewer};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::Rng;

/// Games per configuration: about 10 s in all on a debug build.
const GAMES: u64 = 150;

fn options(games: u64) -> Options {
    Options {
        games,
        first_seed: 1,
        max_steps: 5_000,
        deep_every: 1,
    }
}

#[test]
fn conformance_basic_every_border() {
    for border in Border::all() {
        let summary = run::<Distopia>(&Config::with_border(border), &options(GAMES));
        assert!(summary.refusals_checked > 0);
    }
}

#[test]
fn conformance_advanced_every_border() {
    for border in Border::all() {
        run::<Distopia>(&Config::advanced(border), &options(GAMES));
    }
}

#[test]
fn conformance_each_collaborator_and_mission() {
    for (k, c) in Collaborator::all().into_iter().enumerate() {
        let config = Config {
            border: Border::all()[k],
            advanced: true,
            collaborator: Some(c.key().into()),
            mission: Some(Mission::all()[k].key().into()),
            limits: None,
            contraband: None,
        };
        run::<Distopia>(&config, &options(GAMES / 2));
    }
}

#[test]
fn conformance_with_other_card_data() {
    // Every card worth 10 - its printed points, sirens swapped: other scores, other sirens.
    let contraband = Contraband::printed()
        .into_iter()
        .map(|c| Contraband {
            points: 10 - c.points,
            siren: !c.siren,
            ..c
        })
        .collect();
    let config = Config {
        advanced: true,
        contraband: Some(contraband),
        ..Config::default()
    };
    run::<Distopia>(&config, &options(GAMES / 2));
}

/// Plays a game with actions chosen by `choices`, checking invariants at every step.
fn play_out(config: &Config, seed: u64, choices: &[usize]) -> Result<Distopia, TestCaseError> {
    let mut game = Distopia::new(config, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut legal = Vec::new();
    let mut k = 0usize;
    let mut steps = 0;
    while game.to_act().is_some() {
        prop_assert!(steps < 5_000, "the game did not end");
        if let Err(p) = game.validate() {
            return Err(TestCaseError::fail(p.join("; ")));
        }
        game.legal_actions(&mut legal);
        prop_assert!(!legal.is_empty());
        // Legality and the legal list agree on every action there is, and every refusal
        // leaves the state exactly as it was.
        let before = game.clone();
        for a in Action::universe() {
            prop_assert_eq!(game.is_legal(a), legal.contains(&a), "{}", a);
            if !legal.contains(&a) {
                let err = game.apply(a);
                prop_assert!(err.is_err(), "{} accepted", a);
                prop_assert!(game == before, "refusing {} changed the state", a);
            }
        }
        for seat in 0..2 {
            prop_assert_eq!(game.total(seat), game.score(seat).total);
            prop_assert!((0.0..=1.0).contains(&game.evaluate(seat)));
        }
        let pick = choices.get(k % choices.len().max(1)).copied().unwrap_or(0);
        k += 1;
        game.apply(legal[pick % legal.len()])
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        steps += 1;
    }
    Ok(game)
}

/// Card data: the printed types in another order, any points from 1 to 20, any sirens.
fn contraband_strategy() -> impl Strategy<Value = Vec<Contraband>> {
    let printed: Vec<Kind> = Contraband::printed().iter().map(|c| c.kind).collect();
    (
        Just(printed).prop_shuffle(),
        proptest::collection::vec((1u8..=20, any::<bool>()), 30),
    )
        .prop_map(|(kinds, values)| {
            kinds
                .into_iter()
                .zip(values)
                .map(|(kind, (points, siren))| Contraband {
                    kind,
                    points,
                    siren,
                })
                .collect()
        })
}

fn config_strategy() -> impl Strategy<Value = Config> {
    (
        0..4usize,
        any::<bool>(),
        proptest::option::of(contraband_strategy()),
    )
        .prop_map(|(b, advanced, contraband)| Config {
            border: Border::all()[b],
            advanced,
            contraband,
            ..Config::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_conserve_cards_and_end(
        config in config_strategy(),
        seed in any::<u64>(),
        choices in proptest::collection::vec(0usize..16, 1..64),
    ) {
        let game = play_out(&config, seed, &choices)?;
        prop_assert_eq!(game.phase(), Phase::Over);
        let outcome = game.outcome().ok_or_else(|| TestCaseError::fail("no outcome"))?;
        prop_assert!(outcome.check(2).is_ok());
        // All 35 cards: the two collections and the deck.
        let mut total = game.deck().len();
        for seat in 0..2 {
            let s = game.score(seat);
            total += s.collection.len();
            // Every card of the collection is a guard, discarded, removed or scored.
            prop_assert_eq!(
                s.collection.len(),
                s.guards + s.discarded.len() + s.removed.len() + s.scored.len()
            );
            prop_assert!(s.removed.len() <= s.guards);
            let points: i64 = s
                .scored
                .iter()
                .map(|&c| i64::from(game.contraband(c).points))
                .sum();
            prop_assert_eq!(points, s.card_points);
            prop_assert_eq!(s.total, s.card_points + s.mission_points);
            prop_assert_eq!(outcome.scores[seat], s.total);
        }
        prop_assert_eq!(total, CARDS);
        // The end explained: it adds up to the outcome, names the ending and each step
        // of the final scoring (a mission line in advanced mode only).
        let ending = game
            .ending(&Names::default())
            .ok_or_else(|| TestCaseError::fail("no ending"))?;
        prop_assert_eq!(ending.check(&outcome), Ok(()));
        prop_assert!(ending.why.starts_with("the game ended because "), "{}", ending.why);
        for seat in &ending.seats {
            prop_assert_eq!(seat.lines.len(), if config.advanced { 5 } else { 4 });
            prop_assert!(seat.lines[0].label.starts_with("won cards"));
            prop_assert!(seat.lines[3].label.contains("guard"));
        }
    }

    #[test]
    fn a_resignation_explains_itself(
        seed in any::<u64>(),
        choices in proptest::collection::vec(0usize..16, 0..40),
    ) {
        let game = Distopia::new(&Config::default(), seed)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut session = Session::new(Box::new(game));
        for pick in choices {
            let legal = session.state().legal();
            if legal.is_empty() {
                break;
            }
            let mv = session.parse(&legal[pick % legal.len()]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            session.play(&mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        prop_assume!(!session.is_over());
        prop_assert_eq!(session.ending(&Names::default()), None);
        let stays = session.to_act().ok_or_else(|| TestCaseError::fail("no seat to act"))?;
        session.resign(1 - stays).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let outcome = session.outcome().ok_or_else(|| TestCaseError::fail("no outcome"))?;
        let ending = session.ending(&Names::default()).ok_or_else(|| TestCaseError::fail("no ending"))?;
        prop_assert_eq!(ending.check(&outcome), Ok(()));
        // The board shows no score before the end (the won piles are face down).
        prop_assert_eq!(&outcome.scores, &vec![0, 0]);
        prop_assert_eq!(
            ending.why.clone(),
            format!("seat {} resigned, so seat {} won: the only one left in the game", 2 - stays, stays + 1)
        );
    }
}

#[test]
fn views_hide_won_cards_from_the_opponent_and_the_deck_from_everyone() {
    let mut game = Distopia::new(&Config::default(), 11).expect("standard config");
    let mut legal = Vec::new();
    let mut rng = engine::rng_from_seed(5);
    // Play at random until someone has won a card.
    while game.won(0).is_empty() && game.won(1).is_empty() {
        if game.to_act().is_none() {
            game = Distopia::new(&Config::default(), rng.random()).expect("standard config");
        }
        game.legal_actions(&mut legal);
        let action = *legal.choose(&mut rng).expect("a seat to act has actions");
        game.apply(action).expect("legal");
    }
    let winner = if game.won(0).is_empty() { 1 } else { 0 };
    let loser = 1 - winner;
    let won: Vec<Card> = game.won(winner).to_vec();
    let mine = game.view(Viewer::Seat(winner));
    let theirs = game.view(Viewer::Seat(loser));
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(mine.sides[winner].won_count, won.len());
    assert_eq!(
        mine.sides[winner].won.as_ref().map(Vec::len),
        Some(won.len())
    );
    for view in [&theirs, &spectator] {
        assert_eq!(view.sides[winner].won_count, won.len());
        assert_eq!(view.sides[winner].won, None);
    }
    // No view mentions a card that is in the deck, nor a won card the viewer cannot see.
    let deck_names: Vec<&str> = game
        .deck()
        .iter()
        .filter(|c| !c.is_guard())
        .map(|c| c.name())
        .collect();
    for view in [&mine, &theirs, &spectator] {
        let json = serde_json::to_string(view).expect("serializes");
        for name in &deck_names {
            assert!(!json.contains(&format!("\"{name}\"")), "{name} leaks");
        }
        assert!(!json.contains("rng"));
        let text = view.to_string();
        assert!(text.contains("deck"));
    }
    let json = serde_json::to_string(&theirs).expect("serializes");
    for card in &won {
        assert!(
            !json.contains(&format!("\"{}\"", card.name())),
            "{} leaks",
            card.name()
        );
    }
}
