//! Actions by notation in the rule tests, for any game: its legal actions, and an action
//! that must be refused. Euphoria's tests/common has it, and Distop-IA's includes this
//! file by its path.
use engine::prelude::*;

/// The legal actions in notation.
pub fn legal<G: Game>(g: &G) -> Vec<String> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out.iter().map(ToString::to_string).collect()
}

/// Tries an action in notation that must be refused, leaving the state as it was; returns
/// the rule it breaks.
pub fn refuse<G: Game>(g: &mut G, text: &str) -> G::Refusal {
    let action: G::Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let before = g.clone();
    let e = g.apply(action).expect_err(text);
    assert_eq!(*g, before, "refusing {text} changed the state");
    assert!(!g.is_legal(action));
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
