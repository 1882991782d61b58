//! Every label and board place the game gives its legal moves, checked against what the
//! rules then do, in the positions of random games (base and advanced, every border).
use distopia::{letter_char, Action, Border, Config, Distopia, Phase};
use engine::prelude::*;
use engine::rng_from_seed;
use engine::testkit::walk_randomly;

/// The ring index a `d:<seat>:<letter>` key names.
fn ring(key: &str) -> usize {
    let mut parts = key.split(':');
    assert_eq!(parts.next(), Some("d"), "{key}");
    let seat: usize = parts.next().and_then(|s| s.parse().ok()).expect("a seat");
    let letter = parts
        .next()
        .and_then(|l| l.chars().next())
        .expect("a letter");
    seat * 4 + (letter as u8 - b'A') as usize
}

fn check_position(game: &Distopia, legal: &[Action]) {
    let me = game.current();
    for &action in legal {
        let text = game.describe(action);
        let mut after = game.clone();
        after.apply(action).expect("a legal move applies");
        match action {
            Action::Pick(l) => {
                let at = ring(text.to.as_deref().expect("a pick names its district"));
                assert_eq!(at, me * 4 + l as usize);
                let n = game.stack(at).len();
                assert!(
                    text.label.starts_with(&format!(
                        "Pick up your district {} ({n} card",
                        letter_char(l)
                    )),
                    "{}",
                    text.label
                );
                assert!(after.stack(at).is_empty() || after.phase() != Phase::Play || n == 0);
            }
            Action::Play(_) | Action::PlayGuard => {
                // The card goes where the rules send it: one click on the card, and the
                // label names the district.
                assert_eq!(text.to, None, "{action}");
                let at = game.next_district();
                let to = format!("d:{}:{}", at / 4, letter_char((at % 4) as u8));
                let from = text.from.as_deref().expect("a play names its card");
                match action {
                    Action::Play(card) => {
                        let n = card.number().expect("contraband has a number");
                        assert_eq!(from, format!("card:{n}"));
                        assert!(
                            text.label.starts_with(&format!("Play {n} {}", card.name())),
                            "{}",
                            text.label
                        );
                        let points = game.contraband(card).points;
                        assert!(
                            text.label.contains(&format!("({points} point")),
                            "{}",
                            text.label
                        );
                        // The card lands where the label says, unless the turn ended and
                        // the district was won or refilled.
                        if after.phase() == Phase::Play && after.current() == me {
                            assert_eq!(after.stack(at).last(), Some(&card), "{action} into {to}");
                        }
                    }
                    _ => {
                        assert_eq!(from, "card:guard");
                        if after.phase() == Phase::Play && after.current() == me {
                            assert!(after.stack(at).last().is_some_and(|c| c.is_guard()));
                        }
                    }
                }
                let yours = at / 4 == me;
                let whose = if yours {
                    "your district"
                } else {
                    "your opponent's district"
                };
                assert!(
                    text.label
                        .ends_with(&format!("{whose} {}", letter_char((at % 4) as u8))),
                    "{}",
                    text.label
                );
            }
            Action::Robot(l) => {
                assert_eq!(
                    ring(text.to.as_deref().expect("a district")),
                    me * 4 + l as usize
                );
            }
            Action::Raid(l) => {
                assert_eq!(
                    ring(text.to.as_deref().expect("a district")),
                    (1 - me) * 4 + l as usize
                );
                assert!(
                    after.won(me).len() > game.won(me).len(),
                    "a raid wins a card"
                );
            }
            Action::Skip | Action::Cross | Action::Grandma | Action::Pass => {
                assert_eq!(
                    (&text.from, &text.to),
                    (&None, &None),
                    "{action} is a button"
                );
            }
        }
    }
}

#[test]
fn every_label_says_what_the_rules_then_do() {
    let mut positions = 0;
    let mut plays = 0;
    for (k, border) in Border::all().into_iter().enumerate() {
        for advanced in [false, true] {
            let config = if advanced {
                Config::advanced(border)
            } else {
                Config::with_border(border)
            };
            for seed in 0..3 {
                let mut game = Distopia::new(&config, seed + 10 * k as u64).expect("valid");
                walk_randomly(
                    &mut game,
                    &mut rng_from_seed(seed),
                    400,
                    |game, legal, _, _| {
                        plays += legal
                            .iter()
                            .filter(|a| matches!(a, Action::Play(_)))
                            .count();
                        check_position(game, legal);
                        positions += 1;
                    },
                );
            }
        }
    }
    assert!(
        positions > 1000 && plays > 1000,
        "{positions} positions, {plays} plays"
    );
}
