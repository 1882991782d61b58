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
use crate::{Game, GameRecord, ReplayError, Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// One thing that happened, as one viewer may know it.
pub trait Event: Clone + Debug + PartialEq + Serialize + Send + Sync {
    /// A one-line English text for people, naming seats with `names`.
    fn text(&self, names: &Names) -> String;
}

/// How event texts name seats: "you" for the viewer, a player's name where one was
/// given, otherwise "seat N" counted from 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    names: std::sync::Arc<[String]>,
    you: Option<Seat>,
}

impl Names {
    /// Seats by number, the viewer's as "you".
    pub fn for_viewer(viewer: Viewer) -> Names {
        Names {
            names: std::sync::Arc::new([]),
            you: viewer.seat(),
        }
    }

    /// Players' names by seat (an empty name falls back to the seat number).
    pub fn with_names(self, names: Vec<String>) -> Names {
        self.with_shared_names(names.into())
    }

    /// The same, from a list shared with other viewers' names (no copy).
    pub fn with_shared_names(mut self, names: std::sync::Arc<[String]>) -> Names {
        self.names = names;
        self
    }

    /// Names from who sits where (`human`, or a bot such as `random`): people are "seat N",
    /// bots "seat N (random)".
    pub fn with_players(self, players: &[String]) -> Names {
        let names = players
            .iter()
            .enumerate()
            .map(|(s, p)| match p.trim() {
                "" | "human" => format!("seat {}", s + 1),
                bot => format!("seat {} ({bot})", s + 1),
            })
            .collect();
        self.with_names(names)
    }

    /// Names as a table gives them ([`table_names`]), the viewer's seat as "you".
    pub fn for_table(viewer: Viewer, players: &[String], shown: &[String]) -> Names {
        Names::for_viewer(viewer).with_shared_names(table_names(players, shown))
    }

    /// The seat as the subject or object of a sentence: "you", "Ann", "seat 2".
    pub fn seat(&self, seat: Seat) -> String {
        if Some(seat) == self.you {
            return "you".into();
        }
        match self.names.get(seat).map(|n| n.trim()) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("seat {}", seat + 1),
        }
    }

    /// The seat's possessive: "your", "Ann's", "seat 2's".
    pub fn of(&self, seat: Seat) -> String {
        if Some(seat) == self.you {
            "your".into()
        } else {
            format!("{}'s", self.seat(seat))
        }
    }

    /// Several seats: "seat 1", "seat 1 and you", "seat 1, seat 2 and seat 3".
    pub fn list(&self, seats: &[Seat]) -> String {
        let named: Vec<String> = seats.iter().map(|&s| self.seat(s)).collect();
        match named.split_last() {
            None => "nobody".into(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The name a table shows for a seat nobody named: "Seat N", counted from 1.
pub fn unnamed_seat(seat: Seat) -> String {
    format!("Seat {}", seat + 1)
}

/// How a table's log names its seats, by seat, from who sits there (`players`: `human`
/// or a bot spec, as [`Names::with_players`]) and the name each seat shows (`shown`: the
/// name given, or [`unnamed_seat`]'s "Seat N"): a given name as it is, else "seat N" for a
/// person and "seat N (random)" for a bot.
///
/// The server names the seats of its log with this, from its seats and their display
/// names, and `tabletop log` names those of the server's published record (its `seats`
/// and `names`) with it too, so both tell a game in the same words.
pub fn table_names(players: &[String], shown: &[String]) -> std::sync::Arc<[String]> {
    let by_player = Names::default().with_players(players);
    (0..players.len().max(shown.len()))
        .map(|seat| match shown.get(seat).map(|n| n.trim()) {
            Some(name) if !name.is_empty() && name != unnamed_seat(seat) => name.to_string(),
            _ => by_player.seat(seat),
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_you_use_given_names_and_count_seats_from_one() {
        let names = Names::for_viewer(Viewer::Seat(1)).with_names(vec!["Ann".into(), "".into()]);
        assert_eq!(names.seat(0), "Ann");
        assert_eq!(names.of(0), "Ann's");
        assert_eq!(names.seat(1), "you");
        assert_eq!(names.of(1), "your");
        assert_eq!(names.seat(2), "seat 3");
        assert_eq!(names.list(&[0, 1, 2]), "Ann, you and seat 3");
        let players = Names::for_viewer(Viewer::Seat(0)).with_players(&[
            "human".into(),
            "random".into(),
            "human".into(),
        ]);
        assert_eq!(players.list(&[0, 1, 2]), "you, seat 2 (random) and seat 3");
        let spectator = Names::for_viewer(Viewer::Spectator);
        assert_eq!(spectator.seat(1), "seat 2");
        assert_eq!(spectator.list(&[]), "nobody");
    }

    #[test]
    fn a_table_names_given_names_as_shown_and_unnamed_seats_by_who_sits_there() {
        let players: Vec<String> = ["human", "random", "human", "heuristic"]
            .map(String::from)
            .to_vec();
        let shown: Vec<String> = ["Ada", "Robo", "Seat 3", "Seat 4"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            &*table_names(&players, &shown),
            ["Ada", "Robo", "seat 3", "seat 4 (heuristic)"]
        );
        // Without the shown names (a bare record), seats are named by who sits there.
        assert_eq!(
            &*table_names(&players, &[]),
            ["seat 1", "seat 2 (random)", "seat 3", "seat 4 (heuristic)"]
        );
        assert!(table_names(&[], &[]).is_empty());
        let names = Names::for_table(Viewer::Seat(2), &players, &shown);
        assert_eq!(
            names.list(&[0, 1, 2, 3]),
            "Ada, Robo, you and seat 4 (heuristic)"
        );
    }
}
