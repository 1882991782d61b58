//! Taking back decisions (docs/rulings.md, "Taking back a move"): a plain placement may be
//! taken back and the session restores the state exactly; a placement that bumps (the
//! bumped die is re-rolled), finishing a retrieval (a roll), drawing an artifact card and
//! every part of a trade may not, and the session refuses to undo them.
use crate::common;

use common::*;
use engine::prelude::*;
use engine::Session;
use euphoria::cards::Good;
use euphoria::{Action, Config, DieLoc, Euphoria};

fn fresh() -> Euphoria {
    let mut g = Euphoria::started(&Config::players(3), 21).expect("config");
    for s in 0..g.players().len() {
        edit(&mut g, |e| {
            e.recruits(s, &[])
                .dice(s, &[DieLoc::Ready(1)])
                .knowledge(s, 1)
        });
    }
    g.edit()
        .turn(0)
        .good(0, Good::Energy, 4)
        .good(0, Good::Food, 2)
        .good(1, Good::Water, 3)
        .build()
        .expect("a possible position")
}

fn may(g: &Euphoria, text: &str) -> bool {
    g.may_take_back(text.parse::<Action>().expect("notation"))
}

/// Applies `text` in a session over `g` and tries to take it back; returns the session's
/// answer and checks the state came back exactly when it was taken back.
fn take_back(g: &Euphoria, text: &str) -> Result<(), Option<&'static str>> {
    let mut session = Session::new(Box::new(g.clone()));
    let seat = g.to_act().expect("a seat to act");
    let mv = session.parse(text).expect("notation");
    session.play(&mv).expect("legal");
    match session.undo(seat) {
        Ok(()) => {
            assert_eq!(
                session.state().state_json(),
                engine::DynState::state_json(g)
            );
            Ok(())
        }
        Err(e) => Err(e.refusal()),
    }
}

#[test]
fn a_plain_placement_may_be_taken_back() {
    let g = fresh()
        .edit()
        .dice(0, &[ready(3)])
        .build()
        .expect("position");
    assert!(may(&g, "3@gen"));
    take_back(&g, "3@gen").expect("taken back, the state exactly as before");
}

#[test]
fn a_placement_that_bumps_may_not() {
    let tunnel = euphoria::Space::from_code("tun-e").expect("a space");
    let g = fresh()
        .edit()
        .dice(0, &[ready(3)])
        .dice(1, &[on(tunnel, 4)])
        .build()
        .expect("position");
    assert!(offered(&g, "3@tun-e"), "{:?}", legal(&g));
    assert!(!may(&g, "3@tun-e"));
    let why = take_back(&g, "3@tun-e").expect_err("refused");
    assert_eq!(why, Some("table/irreversible"));
}

#[test]
fn drawing_an_artifact_card_may_not_be_taken_back() {
    let mut g = fresh()
        .edit()
        .dice(0, &[ready(3)])
        .build()
        .expect("position");
    act(&mut g, "3@tun-e");
    while !offered(&g, "draw") {
        let first = legal(&g)[0].clone();
        assert!(first.starts_with("pay"), "{:?}", legal(&g));
        act(&mut g, &first);
    }
    assert!(!may(&g, "draw"));
    assert_eq!(take_back(&g, "draw"), Err(Some("table/irreversible")));
}

#[test]
fn finishing_a_retrieval_may_not_be_taken_back() {
    let mut g = fresh()
        .edit()
        .dice(
            0,
            &[on(euphoria::Space::from_code("gen").expect("a space"), 3)],
        )
        .build()
        .expect("position");
    act(&mut g, "ret 3@gen");
    let fin = legal(&g)
        .into_iter()
        .find(|a| a.starts_with("fin"))
        .expect("a way to finish");
    assert!(!may(&g, &fin));
    assert_eq!(take_back(&g, &fin), Err(Some("table/irreversible")));
}

#[test]
fn no_part_of_a_trade_may_be_taken_back() {
    let mut g = fresh();
    for step in ["trade", "offer p2", "give energy", "ask water", "propose"] {
        assert!(!may(&g, step), "{step}");
        act(&mut g, step);
    }
    assert_eq!(g.to_act(), Some(1));
    assert!(!may(&g, "accept"));
    assert_eq!(take_back(&g, "accept"), Err(Some("table/irreversible")));
    assert!(!may(&g, "decline"));
}

#[test]
fn illegal_actions_and_other_text_may_not_be_taken_back() {
    let g = fresh();
    assert!(!may(&g, "6@gen"));
    assert!(engine::DynState::parse_action(&g, "nonsense").is_err());
    let illegal = engine::DynState::parse_action(&g, "2@gen").expect("notation");
    assert!(!engine::DynState::may_take_back_any(&g, &illegal));
}
