//! What the games' rule tests share (behind the `testkit` feature, for dev-dependencies):
//! actions by notation, a legal one applied, one that must be refused, random play.
use crate::{Game, Viewer};

/// The legal actions in notation.
pub fn legal<G: Game>(g: &G) -> Vec<String> {
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    out.iter().map(ToString::to_string).collect()
}

/// Applies an action in notation, which must be legal; the state must still validate.
///
/// # Panics
/// When the text is no action, the rules refuse it (saying why, with the legal actions
/// and the board), or the state no longer validates.
pub fn act<G: Game>(g: &mut G, text: &str) {
    let action: G::Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    if let Err(e) = g.apply(action) {
        panic!(
            "{text} refused: {e}; legal: {:?}\n{}",
            legal(g),
            g.view(Viewer::Spectator)
        );
    }
    assert_eq!(g.validate(), Ok(()), "after {text}");
}

/// Tries an action in notation that must be refused, leaving the state as it was; returns
/// the rule it breaks.
///
/// # Panics
/// When the text is no action, the action is accepted or listed as legal, or refusing it
/// changed the state.
pub fn refuse<G: Game>(g: &mut G, text: &str) -> G::Refusal {
    let action: G::Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let before = g.clone();
    let e = g.apply(action).expect_err(text);
    assert_eq!(*g, before, "refusing {text} changed the state");
    assert!(!g.is_legal(action), "{text} is refused but listed as legal");
    e.reason
}

/// Asserts that the action in notation is refused, with the state unchanged, for the rule
/// `pattern` names.
#[macro_export]
macro_rules! assert_refused {
    ($g:expr, $text:expr, $pattern:pat) => {{
        let why = $crate::testkit::refuse($g, $text);
        assert!(
            matches!(why, $pattern),
            "`{}` is refused for another rule: {why:?} ({why})",
            $text
        );
    }};
}

/// Plays up to `most` actions drawn at random by `rng` from the legal ones, fewer when the
/// game ends first; returns how many it played.
///
/// # Panics
/// When the rules refuse an action they listed as legal.
pub fn play_randomly<G: Game>(g: &mut G, rng: &mut impl rand::Rng, most: usize) -> usize {
    use rand::seq::IndexedRandom;
    let mut legal = Vec::new();
    for played in 0..most {
        if g.to_act().is_none() {
            return played;
        }
        g.legal_actions(&mut legal);
        let Some(&a) = legal.choose(rng) else {
            return played;
        };
        if let Err(e) = g.apply(a) {
            panic!("the legal action {a} was refused: {e}");
        }
    }
    most
}

/// The score lines of `seat` (from 0) in an ending, as (label, points).
///
/// # Panics
/// When the ending has no such seat.
pub fn score_lines(ending: &crate::Ending, seat: usize) -> Vec<(&str, i64)> {
    ending.seats[seat]
        .lines
        .iter()
        .map(|l| (l.label.as_str(), l.points))
        .collect()
}

/// Plays up to `most` actions drawn at random by `rng` from the legal ones, fewer when the
/// game ends first, and shows each move to `step`: the position before it, the legal
/// actions there, the action drawn and the position after it. Returns how many it played.
///
/// # Panics
/// When a seat to act has no legal action, or the rules refuse one they listed.
pub fn walk_randomly<G: Game>(
    g: &mut G,
    rng: &mut impl rand::Rng,
    most: usize,
    mut step: impl FnMut(&G, &[G::Action], G::Action, &G),
) -> usize {
    use rand::seq::IndexedRandom;
    let mut legal = Vec::new();
    for played in 0..most {
        if g.to_act().is_none() {
            return played;
        }
        g.legal_actions(&mut legal);
        let &a = legal.choose(rng).expect("a seat to act has a legal action");
        let before = g.clone();
        if let Err(e) = g.apply(a) {
            panic!("the legal action {a} was refused: {e}");
        }
        step(&before, &legal, a, g);
    }
    most
}
