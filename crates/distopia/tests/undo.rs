//! Taking back moves (ruling X14): mid-turn moves may be taken back, the move that ends
//! the turn (refill from the deck, the other player's turn) may not.
use distopia::{Config, Distopia};
use engine::prelude::*;
use engine::{Move, Session};

fn check_a_game(config: &Config, seed: u64) -> (u32, u32) {
    let mut game = Distopia::new(config, seed).expect("a valid config");
    let mut session = Session::new(Box::new(game.clone()));
    let mut legal = Vec::new();
    let (mut taken, mut refused) = (0, 0);
    let mut steps = 0;
    while let Some(seat) = game.to_act() {
        steps += 1;
        // This fixed way of choosing can go round in circles; enough moves were seen.
        if steps > 1500 {
            break;
        }
        game.legal_actions(&mut legal);
        // Alternate between the first and the last choice to vary the turns.
        let action = if taken % 2 == 0 {
            legal[0]
        } else {
            legal[legal.len() - 1]
        };
        let may = game.may_take_back(action);
        let before = game.clone();
        game.apply(action).expect("legal");
        let turn_over = game.to_act() != Some(seat) || game.deck().len() != before.deck().len();
        assert_eq!(may, !turn_over, "`{action}` (seed {seed})");
        let mv = Move::game(action);
        session.play(&mv).expect("legal in the session");
        if may {
            assert_eq!(session.undoer(), Some(seat));
            session.undo(seat).expect("may be taken back");
            assert_eq!(
                session.state().state_json(),
                engine::DynState::state_json(&before),
                "undoing `{action}` restores the state"
            );
            session.play(&mv).expect("again");
            taken += 1;
        } else {
            let error = session.undo(seat).expect_err("the turn is over");
            let over = game.to_act().is_none();
            assert!(
                error.refusal() == Some("table/irreversible")
                    || (over && error.refusal() == Some("table/game_over")),
                "{error}"
            );
            refused += 1;
        }
        assert_eq!(
            session.state().state_json(),
            engine::DynState::state_json(&game)
        );
    }
    (taken, refused)
}

#[test]
fn mid_turn_moves_are_taken_back_and_the_end_of_a_turn_is_not() {
    let (mut taken, mut refused) = (0, 0);
    for seed in 0..6 {
        let (t, r) = check_a_game(&Config::default(), seed);
        taken += t;
        refused += r;
    }
    assert!(taken > 50 && refused > 20, "{taken} {refused}");
}

#[test]
fn advanced_games_take_back_collaborators_used_mid_turn() {
    let config = Config {
        advanced: true,
        ..Config::default()
    };
    for seed in 0..6 {
        check_a_game(&config, seed);
    }
}

#[test]
fn nothing_is_taken_back_once_the_game_is_over() {
    let mut game = Distopia::new(&Config::default(), 11).expect("standard");
    let mut legal = Vec::new();
    while game.to_act().is_some() {
        game.legal_actions(&mut legal);
        game.apply(legal[0]).expect("legal");
    }
    for action in distopia::Action::universe() {
        assert!(!game.may_take_back(action));
    }
}
