//! Every label and board place the game gives its legal moves, checked against what the
//! rules then do: in the positions of random games, and in the positions where a
//! retrieval's morale depends on a penalty or an edition.
use crate::common;

use common::{bare, on, tile};
use engine::prelude::*;
use engine::rng_from_seed;
use engine::testkit::walk_randomly;
use euphoria::cards::{Penalty, Space, SpaceKind};
use euphoria::state::Step;
use euphoria::Builder;
use euphoria::{Action, Config, DieLoc, Edition, Euphoria, RetrievePay};

/// The signed morale a label states (`morale +2`, `morale −1`, `morale unchanged`).
fn stated_morale(label: &str) -> i32 {
    if label.contains("morale unchanged") {
        return 0;
    }
    let at = label
        .find("morale ")
        .expect("a retrieval label states its morale")
        + 7;
    let rest = &label[at..];
    let sign = if rest.starts_with('+') { 1 } else { -1 };
    let digits: String = rest
        .chars()
        .skip(1)
        .take_while(char::is_ascii_digit)
        .collect();
    sign * digits.parse::<i32>().expect("a number")
}

/// Checks every legal move of `game`; returns how many retrievals it compared.
fn check_position(game: &Euphoria, legal: &[Action]) -> usize {
    let seat = game.current();
    let mut retrievals = 0;
    for &action in legal {
        let text = game.describe(action);
        assert!(
            !text.label.is_empty() && !text.label.contains('`'),
            "{action}: {}",
            text.label
        );
        match action {
            Action::Place { value, space } => {
                assert_eq!(text.from, Some(format!("die:{value}")));
                assert_eq!(text.to, Some(format!("sp:{}", space.code())));
                assert!(
                    text.label
                        .starts_with(&format!("Place your {value} on the ")),
                    "{}",
                    text.label
                );
                // What the space gives, with the amounts of this table's config; a
                // commodity area's worked out from the dice already there.
                if matches!(space.kind(), SpaceKind::Area(_)) {
                    let total = game.occupants(space).map(|o| u32::from(o.2)).sum::<u32>()
                        + u32::from(value);
                    assert!(
                        text.label
                            .ends_with(&format!("(the dice there would total {total})")),
                        "{}",
                        text.label
                    );
                } else {
                    assert!(
                        text.label
                            .ends_with(&format!(", for {}", space.gives(&game.config().rewards))),
                        "{}",
                        text.label
                    );
                }
                if let SpaceKind::ArtifactMarket(_) = space.kind() {
                    assert_eq!(
                        text.label.contains("forbids a pair"),
                        game.penalized(seat, Penalty::NoPair),
                        "{}",
                        text.label
                    );
                }
            }
            Action::Retrieve { value, space } => {
                assert_eq!(text.from, None);
                assert_eq!(text.to, Some(format!("ret:{}:{value}", space.code())));
                let mut after = game.clone();
                after.apply(action).expect("legal");
                let Some(Step::Retrieve { dice }) = after.stack().last() else {
                    panic!("picking a die starts a retrieval");
                };
                let picked = (0..5)
                    .filter(|i| dice & (1 << i) != 0)
                    .any(|i| after.player(seat).dice[i] == DieLoc::Board(space, value));
                assert!(picked, "{action}: the die named is the one picked");
            }
            Action::FinishRetrieve(pay) => {
                retrievals += 1;
                let before = i32::from(game.player(seat).morale);
                let change = stated_morale(&text.label);
                let mut after = game.clone();
                after.apply(action).expect("legal");
                // Gidget's offer (a bliss retrieval paid in knowledge) waits for an answer:
                // declined, the retrieval gives its morale.
                if matches!(after.stack().last(), Some(Step::Ask { .. }))
                    && after.is_legal(Action::Decline)
                    && pay == RetrievePay::Bliss
                {
                    after.apply(Action::Decline).expect("declining is legal");
                }
                let moved = i32::from(after.player(seat).morale) - before;
                assert_eq!(
                    moved,
                    (before + change).clamp(1, 6) - before,
                    "{action}: `{}`",
                    text.label
                );
            }
            _ => assert_eq!(
                (&text.from, &text.to),
                (&None, &None),
                "{action} is a button"
            ),
        }
    }
    retrievals
}

/// A random game of `config` (seed `seed`, at most `most` moves), each move shown to `step`
/// ([`walk_randomly`]).
fn random_game(
    config: &Config,
    seed: u64,
    most: usize,
    step: impl FnMut(&Euphoria, &[Action], Action, &Euphoria),
) {
    let mut game = Euphoria::new(config, seed).expect("valid");
    walk_randomly(&mut game, &mut rng_from_seed(seed), most, step);
}

#[test]
fn every_label_says_what_the_rules_then_do_in_random_games() {
    let (mut positions, mut retrievals) = (0, 0);
    for (players, edition, seed) in [
        (2, Edition::V2, 1),
        (3, Edition::V1, 2),
        (4, Edition::V2, 3),
        (2, Edition::V1, 4),
    ] {
        let config = Config {
            edition,
            ..Config::players(players).with_offers(1)
        };
        random_game(&config, seed, 1500, |game, legal, _, _| {
            retrievals += check_position(game, legal);
            positions += 1;
        });
    }
    assert!(positions > 3000, "{positions} positions");
    assert!(retrievals > 50, "{retrievals} retrievals");
}

fn sp(code: &str) -> Space {
    Space::from_code(code).expect("a space code")
}

/// A 3-player game, seat 1 to act at the start of a turn without recruits, with two
/// workers on the Generator and the Farm and the goods to pay any retrieval; under
/// `penalty`, a built market carrying it without seat 1's star.
fn retrieving(edition: Edition, penalty: Option<Penalty>) -> Euphoria {
    let config = Config {
        edition,
        trading: euphoria::Trading::OneOfferBeforePlacing,
        ..Config::players(3)
    };
    let mut s: Builder = bare(&config, 21)
        .edit()
        .turn(0)
        .dice(0, &[on(sp("gen"), 3), on(sp("farm"), 4)])
        .morale(0, 3)
        .good(0, euphoria::Good::Food, 1)
        .good(0, euphoria::Good::Bliss, 1);
    if let Some(p) = penalty {
        s = s.built(5, tile(p), &[1]);
    }
    s.build().expect("a possible position")
}

fn free_retrieval(game: &mut Euphoria) -> (String, i32) {
    let before = i32::from(game.player(0).morale);
    game.apply("ret 3@gen".parse().expect("notation"))
        .expect("legal");
    let fin = Action::FinishRetrieve(RetrievePay::Free);
    let label = game.describe(fin).label;
    game.apply(fin).expect("legal");
    (label, i32::from(game.player(0).morale) - before)
}

#[test]
fn a_free_retrieval_costs_one_morale_and_two_under_the_cafeteria_penalty() {
    let mut plain = retrieving(Edition::V2, None);
    let (label, moved) = free_retrieval(&mut plain);
    assert_eq!(label, "Retrieve for free: morale −1");
    assert_eq!(moved, -1);

    let mut penalized = retrieving(Edition::V2, Some(Penalty::CostlyRetrieval));
    let (label, moved) = free_retrieval(&mut penalized);
    assert!(
        label.starts_with("Retrieve for free: morale −2 (the "),
        "{label}"
    );
    assert!(label.ends_with("makes a free retrieval cost 2)"), "{label}");
    assert_eq!(moved, -2);
}

#[test]
fn food_and_bliss_give_two_morale() {
    for pay in [RetrievePay::Food, RetrievePay::Bliss] {
        let mut game = retrieving(Edition::V2, None);
        game.apply("ret 4@farm".parse().expect("notation"))
            .expect("legal");
        let label = game.describe(Action::FinishRetrieve(pay)).label;
        assert!(label.ends_with("morale +2"), "{label}");
        game.apply(Action::FinishRetrieve(pay)).expect("legal");
        assert_eq!(game.player(0).morale, 5);
    }
}

/// The words a person reads name places in words: no faction code (`EUP`) and no space
/// code (`gen`, `tun-e`, `ea1`) in a move's label, a log line, the prompt, a refusal,
/// or the terminal board outside the brackets that show what to type.
#[test]
fn texts_name_places_in_words_not_codes() {
    use engine::log::{Event as _, Names};
    use engine::Viewer;
    let codes: Vec<String> = Space::all()
        .map(|s| s.code().to_string())
        .chain(["EUP", "SUB", "WAS", "ICA"].map(String::from))
        .chain(["EA", "EB", "SA", "SB", "WA", "WB"].map(String::from))
        .collect();
    let coded = |text: &str| -> Option<String> {
        let mut plain = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        plain
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .find(|w| codes.iter().any(|c| c == w))
            .map(|w| format!("{w:?} in {text:?}"))
    };
    let mut checked = 0;
    for (players, seed) in [(2, 11), (4, 12), (6, 13)] {
        let config = Config::players(players).with_offers(1);
        random_game(&config, seed, 1200, |game, legal, played, after| {
            for &a in legal {
                assert_eq!(coded(&game.describe(a).label), None);
            }
            let view = game.view(Viewer::Seat(game.current()));
            assert_eq!(coded(&view.prompt), None);
            assert_eq!(coded(&view.to_string()), None);
            // A space the seat cannot take now is refused in words (every tenth position).
            if checked % 10 == 0 {
                for space in Space::all() {
                    for value in 1..=6 {
                        if let Err(e) = game.clone().apply(Action::Place { value, space }) {
                            assert_eq!(coded(&e.reason.to_string()), None);
                        }
                    }
                }
            }
            for viewer in [Viewer::Spectator, Viewer::Seat(game.current())] {
                let names = Names::for_viewer(viewer);
                for event in Euphoria::events(game, played, after, viewer) {
                    assert_eq!(coded(&event.text(&names)), None);
                }
            }
            checked += 1;
        });
    }
    assert!(checked > 2000, "{checked} positions");
}
