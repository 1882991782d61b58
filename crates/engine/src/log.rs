//! What each move did, told to each viewer: the game log.
//!
//! A game's [`Present::events`] describes one applied action as a list of typed events, the
//! way one viewer may know it. Games work them out from that viewer's views before and
//! after the move plus the public part of the action, so an event tells nothing the views
//! do not; the conformance harness checks it. Events are worked out only when someone
//! reads them (a front end, `tabletop log`), never inside [`GameRules::apply`].
//!
//! Events carry seats as data (counted from 0); their text names them through [`Names`],
//! so each front end writes "seat 2", a player's name, or "you".
pub use crate::event::{Event, LogEntry, LogEvent};
use crate::game::Game;
use crate::seat::Viewer;
pub use crate::text::{table_names, unnamed_seat, Names};
use serde::Serialize;

/// The events of `action` taking `before` to `after`, as `viewer` may know them.
pub fn step_events<G: Game>(
    before: &G,
    action: G::Action,
    after: &G,
    viewer: Viewer,
    names: &Names,
) -> Vec<LogEvent> {
    G::events(before, action, after, viewer)
        .iter()
        .map(|e| LogEvent::new(e, names))
        .collect()
}

/// An event as [`LogEvent`] serializes it (its text, then its own fields), written
/// without building a `Value` tree.
#[derive(Serialize)]
struct Texted<'a, E> {
    text: String,
    #[serde(flatten)]
    event: &'a E,
}

/// [`step_events`] written straight to JSON text: an array of [`LogEvent`] objects.
///
/// # Errors
/// An event does not serialize.
pub fn write_step_events<G: Game>(
    before: &G,
    action: G::Action,
    after: &G,
    viewer: Viewer,
    names: &Names,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, event) in G::events(before, action, after, viewer).iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let start = out.len();
        let text = event.text(names);
        if serde_json::to_writer(&mut *out, &Texted { text, event }).is_err() {
            // An event that is no JSON object goes the way of `LogEvent::new`.
            out.truncate(start);
            serde_json::to_writer(&mut *out, &LogEvent::new(event, names))?;
        }
    }
    out.push(b']');
    Ok(())
}
