//! Nothing can be taken back in Drop Site (ruling S23): every action draws a card.
use dropsite::{Config, DropSite};
use engine::prelude::*;
use engine::{Move, Session};
use rand::seq::IndexedRandom;

#[test]
fn no_action_may_be_taken_back_and_undo_is_always_refused() {
    let mut rng = engine::rng_from_seed(4);
    for seed in 0..5 {
        let mut game = DropSite::new(&Config::default(), seed).expect("standard");
        let mut session = Session::new(Box::new(game.clone()));
        let mut legal = Vec::new();
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut legal);
            assert!(legal.iter().all(|&a| !game.may_take_back(a)));
            let action = *legal.choose(&mut rng).expect("an action");
            game.apply(action).expect("legal");
            session.play(&Move::game(action)).expect("legal");
            assert_eq!(session.undoer(), None);
            let error = session.undo(seat).expect_err("nothing to take back");
            assert!(
                matches!(
                    error.refusal(),
                    Some("table/irreversible" | "table/game_over")
                ),
                "{error}"
            );
        }
    }
}
