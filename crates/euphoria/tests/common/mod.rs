//! Helpers shared by the rule tests: actions by notation, dice, market tiles.
#![allow(dead_code)]
use engine::Game;
use euphoria::cards::{Penalty, Space, MARKET_TILES};
use euphoria::{Action, Config, DieLoc, Euphoria, Refusal};

/// Applies an action in notation, which must be legal; the state must still validate.
pub fn act(g: &mut Euphoria, text: &str) {
    let a: Action = text.parse().expect("notation");
    if let Err(e) = g.apply(a) {
        panic!("{text} refused: {e}; legal: {:?}", legal(g));
    }
    assert_eq!(g.validate(), Ok(()));
}

/// Tries an action that must be refused, leaving the state as it was; returns the rule
/// it breaks.
pub fn refuse(g: &mut Euphoria, text: &str) -> Refusal {
    let a: Action = text.parse().expect("notation");
    let before = g.clone();
    let e = g.apply(a).expect_err(text);
    assert_eq!(*g, before, "a refusal changed the state");
    assert!(!g.is_legal(a));
    e.reason
}

/// Asserts that the action in notation is refused, with the state unchanged, for the rule
/// `pattern` names.
#[allow(unused_macros)]
macro_rules! assert_refused {
    ($g:expr, $text:expr, $pattern:pat) => {{
        let why = common::refuse($g, $text);
        assert!(
            matches!(why, $pattern),
            "`{}` is refused for another rule: {why:?} ({why})",
            $text
        );
    }};
}

/// The legal actions in notation.
pub fn legal(g: &Euphoria) -> Vec<String> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out.iter().map(|a| a.to_string()).collect()
}

/// Whether `text` is among the legal actions.
pub fn offered(g: &Euphoria, text: &str) -> bool {
    legal(g).iter().any(|a| a == text)
}

/// A die ready to place, showing `v`.
pub fn ready(v: u8) -> DieLoc {
    DieLoc::Ready(v)
}

/// A die showing `v` on `space`.
pub fn on(space: Space, v: u8) -> DieLoc {
    DieLoc::Board(space, v)
}

/// The index of the market tile with penalty `p`.
pub fn tile(p: Penalty) -> u8 {
    MARKET_TILES
        .iter()
        .position(|t| t.penalty == p)
        .expect("a tile") as u8
}

/// A game past setup from `seed`: nobody holds recruits, each seat one die showing 1
/// ready, seat 1 (index 0) to start a turn.
pub fn bare(config: &Config, seed: u64) -> Euphoria {
    let mut g = Euphoria::started(config, seed).expect("config");
    for s in 0..g.players().len() {
        g = g
            .edit()
            .recruits(s, &[])
            .dice(s, &[DieLoc::Ready(1)])
            .build()
            .expect("a possible position");
    }
    g.edit().turn(0).build().expect("a possible position")
}
