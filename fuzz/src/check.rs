//! What must hold at any position of any game, checked by the targets (each check panics
//! with the game, the position's JSON and the broken rule, which libFuzzer reports as a
//! crash).
use engine::prelude::*;
use engine::{Event, Names, Viewer};

/// Panics with the position when `ok` is false.
#[track_caller]
pub fn ensure<G: Game>(ok: bool, game: &G, what: impl FnOnce() -> String) {
    if !ok {
        let json = serde_json::to_string(game).unwrap_or_else(|e| format!("<unserializable: {e}>"));
        panic!("{}: {}\nposition: {json}", G::NAME, what());
    }
}

/// Every viewer of a table: each seat, then the spectator.
pub fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
}

/// The state validates, copies and serde round trips are identical, whose turn it is
/// agrees with the outcome, the legal actions are well formed (non-empty exactly while
/// someone is to act, unique, parse back, `is_legal`), every view serializes and renders,
/// and every legal action is described in words. With `apply_all`, every legal action is
/// also applied to a copy: accepted, and the position after it validates.
///
/// Returns the legal actions.
pub fn position<G: Game>(game: &G, apply_all: bool) -> Vec<G::Action> {
    if let Err(problems) = game.validate() {
        ensure(false, game, || {
            format!("the state does not validate: {}", problems.join("; "))
        });
    }
    ensure(game.clone() == *game, game, || {
        "a clone differs from the original".into()
    });
    let json = serde_json::to_string(game).unwrap_or_default();
    let back: Result<G, _> = serde_json::from_str(&json);
    ensure(back.as_ref().is_ok_and(|b| b == game), game, || {
        format!(
            "the serde round trip does not give the same state back: {:?}",
            back.as_ref().err()
        )
    });
    let seats = game.seats();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    match game.to_act() {
        Some(seat) => {
            ensure(seat < seats, game, || {
                format!("seat {seat} to act at a table of {seats}")
            });
            ensure(game.outcome().is_none(), game, || {
                "an outcome while a seat is to act".into()
            });
            ensure(!legal.is_empty(), game, || {
                format!("seat {seat} is to act but has no legal action")
            });
        }
        None => {
            let outcome = game.outcome();
            ensure(outcome.is_some(), game, || {
                "nobody to act and no outcome".into()
            });
            if let Some(Err(e)) = outcome.map(|o| o.check(seats)) {
                ensure(false, game, || format!("a malformed outcome: {e}"));
            }
            ensure(legal.is_empty(), game, || {
                "the game is over but actions are offered".into()
            });
        }
    }
    let mut texts = std::collections::HashSet::new();
    for &action in &legal {
        let text = action.to_string();
        let parsed: Result<G::Action, _> = text.parse();
        ensure(parsed.as_ref() == Ok(&action), game, || {
            format!("the legal `{text}` does not parse back to itself: {parsed:?}")
        });
        ensure(texts.insert(text.clone()), game, || {
            format!("`{text}` is offered twice")
        });
        ensure(game.is_legal(action), game, || {
            format!("is_legal disagrees with the legal list on `{text}`")
        });
        let label = game.describe(action).label;
        ensure(!label.trim().is_empty(), game, || {
            format!("`{text}` is described with no words")
        });
    }
    for viewer in viewers(seats) {
        let view = game.view(viewer);
        ensure(serde_json::to_string(&view).is_ok(), game, || {
            format!("{viewer:?}'s view does not serialize")
        });
        let _ = view.to_string();
    }
    if apply_all {
        for &action in &legal {
            let mut copy = game.clone();
            let applied = copy.apply(action);
            ensure(applied.is_ok(), game, || {
                format!(
                    "the legal `{action}` is refused: {}",
                    applied
                        .as_ref()
                        .err()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                )
            });
            if let Err(problems) = copy.validate() {
                ensure(false, game, || {
                    format!(
                        "the legal `{action}` leads to a state that does not validate: {}",
                        problems.join("; ")
                    )
                });
            }
        }
    }
    legal
}

/// The events of one accepted move, for every viewer: each serializes, each text is one
/// line of words, and a viewer is told something of every move.
pub fn events<G: Game>(before: &G, action: G::Action, after: &G) {
    for viewer in viewers(before.seats()) {
        let events = G::events(before, action, after, viewer);
        let names = Names::for_viewer(viewer);
        ensure(!events.is_empty(), before, || {
            format!("{viewer:?} is told nothing of `{action}`")
        });
        for event in &events {
            ensure(serde_json::to_value(event).is_ok(), before, || {
                format!("an event of `{action}` does not serialize")
            });
            let text = event.text(&names);
            ensure(
                !text.trim().is_empty() && !text.contains('\n'),
                before,
                || format!("{viewer:?} is told `{action}` as {text:?}, not one line of words"),
            );
        }
    }
}
