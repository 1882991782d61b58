//! One thing a move did, as one viewer may know it, and what front ends receive of it.
use crate::seat::Seat;
use crate::text::Names;
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
