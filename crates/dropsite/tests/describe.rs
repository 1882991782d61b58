//! Every label and board place the game gives its legal moves, checked against what the
//! rules then do, in the positions of random games.
use dropsite::{Action, Config, DropSite, Target};
use engine::prelude::*;
use engine::testkit::walk_randomly;
use rand::SeedableRng;

fn check_position(game: &DropSite, legal: &[Action]) {
    let seat = game.to_act().expect("a seat acts");
    for &action in legal {
        let text = game.describe(action);
        let card = action.card;
        assert_eq!(text.from.as_deref(), Some(format!("card:{card}").as_str()));
        let mut after = game.clone();
        after.apply(action).expect("a legal move applies");
        let ended = after.round() != game.round() || after.to_act().is_none();
        assert_eq!(
            text.label.ends_with(": this ends the round"),
            ended,
            "{action}: `{}`",
            text.label
        );
        match action.target {
            Target::Debt => {
                assert_eq!(text.to.as_deref(), Some("debt"));
                let points = game.points(card);
                let shown = if points > 0 {
                    format!("+{points}")
                } else {
                    points.to_string()
                };
                assert!(
                    text.label.starts_with(&format!(
                        "Play {card} on your debt: {shown} for each drop site showing {card}"
                    )),
                    "{}",
                    text.label
                );
                if !ended {
                    assert_eq!(after.debt(seat).len(), game.debt(seat).len() + 1);
                }
            }
            Target::New => {
                assert_eq!(text.to.as_deref(), Some("new"));
                let n = game.piles().len() + 1;
                assert!(text
                    .label
                    .starts_with(&format!("Play {card} to start drop site {n}")));
                assert_eq!(text.label.contains("sideways"), card == 0, "{}", text.label);
                if !ended {
                    assert_eq!(after.piles().len(), n);
                    assert_eq!(after.piles()[n - 1].top(), card);
                }
            }
            Target::Site(i) => {
                let site = i as usize;
                assert_eq!(text.to, Some(format!("site:{}", site + 1)));
                let pile = &game.piles()[site];
                let on = if pile.sideways && !pile.restarted {
                    "(starting a new drop site on its sideways zero)".to_string()
                } else {
                    format!("(on the {})", pile.top())
                };
                assert!(
                    text.label
                        .starts_with(&format!("Play {card} on drop site {} {on}", site + 1)),
                    "{}",
                    text.label
                );
                if !ended {
                    assert_eq!(after.piles()[site].top(), card);
                }
            }
        }
    }
}

#[test]
fn every_label_says_what_the_rules_then_do() {
    let mut positions = 0;
    for (players, seed) in [(2, 1), (3, 2), (4, 3), (2, 4)] {
        let config = Config {
            players,
            ..Config::default()
        };
        let mut game = DropSite::new(&config, seed).expect("valid");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        walk_randomly(&mut game, &mut rng, usize::MAX, |game, legal, _, _| {
            check_position(game, legal);
            positions += 1;
        });
    }
    assert!(positions > 500, "{positions} positions");
}
