//! What each move did, told to each viewer: the game log.
//!
//! A game's [`Game::events`] describes one applied action as a list of typed events, the
//! way one viewer may know it. Games work them out from that viewer's views before and
//! after the move plus the public part of the action, so an event tells nothing the views
//! do not; the conformance harness checks it. Events are worked out only when someone
//! reads them (a front end, `tabletop log`), never inside [`Game::apply`].
//!
//! Events carry seats as data (counted from 0); their text names them through [`Names`],
//! so each front end writes "seat 2", a player's name, or "you".
pub use crate::text::{table_names, unnamed_seat, Names};
use crate::{Game, GameRecord, ReplayError, Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// One thing that happened, as one viewer may know it.
pub trait Event: Clone + Debug + PartialEq + Serialize + Send + Sync {
    /// A one-line English text for people, naming seats with `names`.
    fn text(&self, names: &Names) -> String;
}

/// An event as front ends receive it: its own fields (with its `kind`) and its text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEvent {
    pub text: String,
    #[serde(flatten)]
    pub data: serde_json::Map<String, serde_json::Value>,
}

impl LogEvent {
    /// The event's JSON fields and its text under `names`.
    pub fn new<E: Event>(event: &E, names: &Names) -> LogEvent {
        let data = match serde_json::to_value(event) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(other) => {
                let mut map = serde_json::Map::new();
                map.insert("kind".into(), other);
                map
            }
            Err(_) => serde_json::Map::new(),
        };
        LogEvent {
            text: event.text(names),
            data,
        }
    }
}

/// One action of a game and what one viewer may know it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// The action's place in the record, from 0 (the table version it made is one more).
    pub index: usize,
    /// The seat that acted.
    pub seat: Seat,
    pub events: Vec<LogEvent>,
}

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

/// Replays `record` and tells every action from index `since` on as `viewer` may know it.
/// Table moves (`undo`, `resign N`) are told by a [`crate::TableEvent`], to every viewer
/// alike.
///
/// # Errors
/// The first step of the record that does not replay.
pub fn replay_log<G: Game>(
    record: &GameRecord,
    viewer: Viewer,
    names: &Names,
    since: usize,
) -> Result<Vec<LogEntry>, ReplayError> {
    let record = &*crate::record::upgraded::<G>(record)?;
    if record.has_table_moves() {
        let start = crate::record::start::<G>(record)?;
        return crate::session::session_log(Box::new(start), &record.actions, viewer, names, since);
    }
    let mut log = Vec::new();
    crate::record::replay_each::<G>(record, &mut |index, before, action, after| {
        if index >= since {
            log.push(LogEntry {
                index,
                seat: before.to_act().unwrap_or_default(),
                events: step_events(before, action, after, viewer, names),
            });
        }
    })?;
    Ok(log)
}
