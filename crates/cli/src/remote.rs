//! A server table over the network, as `tabletop join` sits at it: its link read, its
//! WebSocket opened (the one the table page uses, docs/http-api.md) on a runtime of its
//! own, the server's snapshots and answers heard on a channel, moves sent as the page
//! sends them; and the board drawn from a view's JSON. Shared by `join`'s line mode and
//! its full-screen board ([`crate::tui::join`]).
use crate::user;
use engine::{Ending, LegalMove};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::mpsc;
use tokio_tungstenite::tungstenite::{self, Message};

/// Where a link leads: the server, the table, and the seat's token (none to watch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// `http://host:port`.
    pub base: String,
    pub table: String,
    pub token: Option<String>,
}

impl Address {
    /// Reads a table's link: `http(s)://HOST/play/ID[?token=TOKEN]`.
    ///
    /// # Errors
    /// A link that is not a table's, in words.
    pub fn parse(link: &str) -> anyhow::Result<Address> {
        let wrong = |why: &str| {
            user(format!(
                "`{link}` is not a table's link ({why}): give the invite link of a seat, \
                 http://HOST/play/ID?token=TOKEN, or the table's link http://HOST/play/ID to watch"
            ))
        };
        let url = reqwest::Url::parse(link.trim()).map_err(|e| wrong(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(wrong("it does not start with http:// or https://"));
        }
        let segments: Vec<&str> = url
            .path_segments()
            .map(Iterator::collect)
            .unwrap_or_default();
        let table = match segments.as_slice() {
            ["play", id] | ["play", id, ""] if !id.is_empty() => (*id).to_string(),
            _ => return Err(wrong("its path is not /play/ID")),
        };
        if !table.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(wrong("a table's id is hexadecimal digits"));
        }
        let token = url
            .query_pairs()
            .find(|(k, _)| k == "token")
            .map(|(_, v)| v.into_owned())
            .filter(|t| !t.is_empty());
        let host = url.host_str().ok_or_else(|| wrong("it names no server"))?;
        let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
        Ok(Address {
            base: format!("{}://{host}{port}", url.scheme()),
            table,
            token,
        })
    }

    /// The table's WebSocket, as the page opens it.
    fn socket(&self) -> String {
        let scheme = if self.base.starts_with("https:") {
            "wss"
        } else {
            "ws"
        };
        let rest = self.base.split_once("://").map_or("", |(_, r)| r);
        self.with_token(format!("{scheme}://{rest}/api/tables/{}/ws", self.table))
    }

    /// `url` with the seat's token in its query, encoded as a query value.
    fn with_token(&self, url: String) -> String {
        match (&self.token, reqwest::Url::parse(&url)) {
            (Some(token), Ok(mut parsed)) => {
                parsed.query_pairs_mut().append_pair("token", token);
                parsed.to_string()
            }
            _ => url,
        }
    }
}

/// One entry of the log as the server tells it to this viewer.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub index: usize,
    #[serde(default)]
    pub events: Vec<Said>,
}

/// One event's words.
#[derive(Clone, Debug, Deserialize)]
pub struct Said {
    pub text: String,
}

/// A snapshot of the table for this viewer (the fields a terminal shows).
#[derive(Clone, Debug, Deserialize)]
pub struct Snapshot {
    pub game: String,
    pub version: u64,
    pub seat: Option<usize>,
    pub to_act: Option<usize>,
    #[serde(default)]
    pub moves: Vec<LegalMove>,
    #[serde(default)]
    pub view: Value,
    #[serde(default)]
    pub names: Vec<String>,
    #[serde(default)]
    pub events: Vec<Entry>,
    #[serde(default)]
    pub ending: Option<Ending>,
    #[serde(default)]
    pub open_seats: Vec<usize>,
    #[serde(default)]
    pub paused: Option<String>,
}

impl Snapshot {
    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.to_act.is_none()
    }

    /// Whether the viewer's seat is to act.
    pub fn my_turn(&self) -> bool {
        self.seat.is_some() && self.seat == self.to_act && !self.moves.is_empty()
    }

    /// A seat by its name at the table, counted from 1: "seat 2 (Bo)".
    pub fn seat_name(&self, seat: usize) -> String {
        match self.names.get(seat) {
            Some(name) if *name != format!("Seat {}", seat + 1) => {
                format!("seat {} ({name})", seat + 1)
            }
            _ => format!("seat {}", seat + 1),
        }
    }

    /// The board drawn from the viewer's view.
    pub fn board(&self) -> String {
        view_text(&self.view)
    }

    /// The end in words: why, each seat's score.
    pub fn ending_lines(&self) -> Vec<String> {
        let Some(ending) = &self.ending else {
            return Vec::new();
        };
        let mut lines = vec![format!(
            "The game is over: {}.",
            ending.why.trim_end_matches('.')
        )];
        for (seat, score) in ending.seats.iter().enumerate() {
            lines.push(format!("{}: {} points", self.seat_name(seat), score.total));
        }
        lines
    }
}

/// What the table (or standard input, in line mode) said.
#[derive(Debug)]
pub enum Heard {
    State(Box<Snapshot>),
    /// A move was taken; the table is at this version.
    Ack(u64),
    /// A move was refused, in words, with its code.
    Refused(String),
    /// A note from the server (its storage away and back).
    Note(String),
    /// The socket closed, and why.
    Closed(String),
    /// A line typed (line mode), `None` at the end of input.
    Line(Option<String>),
}

/// The words of an error the server sent: its message and its code.
fn refusal(value: &Value) -> String {
    let message = value["message"].as_str().unwrap_or("the move was refused");
    let code = value["refusal"]
        .as_str()
        .or(value["code"].as_str())
        .unwrap_or("error");
    format!("{} ({code})", message.trim_end_matches('.'))
}

/// An open table: the socket runs on its own runtime; what it hears comes on the channel
/// given to [`Link::open`].
pub struct Link {
    pub address: Address,
    out: tokio::sync::mpsc::UnboundedSender<String>,
    runtime: tokio::runtime::Runtime,
}

impl Link {
    /// Opens the table's socket; the log so far (each line an event in words) and the
    /// version it goes up to.
    ///
    /// # Errors
    /// The server cannot be reached, or refuses the link (a bad token, no such table).
    pub fn open(address: Address, heard: mpsc::Sender<Heard>) -> anyhow::Result<(Link, Told)> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let (log, socket) = runtime.block_on(async {
            let log = read_log(&address).await?;
            let socket = match tokio_tungstenite::connect_async(address.socket()).await {
                Ok((socket, _)) => socket,
                Err(tungstenite::Error::Http(answer)) => {
                    let body: Value = answer
                        .body()
                        .as_deref()
                        .and_then(|b| serde_json::from_slice(b).ok())
                        .unwrap_or_default();
                    return Err(user(format!(
                        "the server refused the link: {}",
                        refusal(&body)
                    )));
                }
                Err(e) => {
                    return Err(user(format!(
                        "cannot reach the table at {}: {}",
                        address.base,
                        causes(&e)
                    )))
                }
            };
            Ok::<_, anyhow::Error>((log, socket))
        })?;
        let (out, mut outgoing) = tokio::sync::mpsc::unbounded_channel::<String>();
        runtime.spawn(async move {
            let (mut send, mut receive) = socket.split();
            loop {
                tokio::select! {
                    message = outgoing.recv() => {
                        let Some(text) = message else { break };
                        if send.send(Message::text(text)).await.is_err() {
                            let _ = heard.send(Heard::Closed("the connection to the table was lost".into()));
                            break;
                        }
                    }
                    frame = receive.next() => {
                        let told = match frame {
                            Some(Ok(Message::Text(text))) => hear(&text),
                            Some(Ok(Message::Close(frame))) => Some(Heard::Closed(
                                frame
                                    .map(|f| f.reason.to_string())
                                    .filter(|r| !r.is_empty())
                                    .unwrap_or_else(|| "the server closed the table's connection".into()),
                            )),
                            Some(Ok(_)) => None,
                            Some(Err(e)) => Some(Heard::Closed(format!("the connection to the table was lost: {e}"))),
                            None => Some(Heard::Closed("the server closed the table's connection".into())),
                        };
                        if let Some(told) = told {
                            let closed = matches!(told, Heard::Closed(_));
                            if heard.send(told).is_err() || closed {
                                break;
                            }
                        }
                    }
                }
            }
        });
        Ok((
            Link {
                address,
                out,
                runtime,
            },
            log,
        ))
    }

    /// Sends a move (a game action, `undo` or `resign N`) chosen on `version`.
    pub fn send(&self, action: &str, version: u64) {
        let message = json!({"type": "action", "action": action, "version": version});
        // A closed socket is told on the channel.
        let _ = self.out.send(message.to_string());
    }

    /// Closes the socket and stops its runtime.
    pub fn close(self) {
        drop(self.out);
        self.runtime
            .shutdown_timeout(std::time::Duration::from_millis(200));
    }
}

/// An error and what caused it, in one line ("error sending request …: connection
/// refused").
fn causes(error: &dyn std::error::Error) -> String {
    let mut words = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        let said = e.to_string();
        if !words.contains(&said) {
            words.push_str(": ");
            words.push_str(&said);
        }
        cause = e.source();
    }
    words
}

/// One text frame from the server, as heard.
fn hear(text: &str) -> Option<Heard> {
    let value: Value = serde_json::from_str(text).ok()?;
    match value["type"].as_str()? {
        "state" => serde_json::from_value(value)
            .ok()
            .map(|s| Heard::State(Box::new(s))),
        "ack" => value["version"].as_u64().map(Heard::Ack),
        "error" => Some(Heard::Refused(refusal(&value))),
        "storage" => value["message"]
            .as_str()
            .map(|m| Heard::Note(m.to_string())),
        _ => None,
    }
}

/// The log so far as this viewer may know it, and the version it goes up to.
pub type Told = (Vec<String>, u64);

/// The log so far, as this viewer may know it (`GET …/log`).
async fn read_log(address: &Address) -> anyhow::Result<Told> {
    let url = address.with_token(format!("{}/api/tables/{}/log", address.base, address.table));
    let answer = reqwest::get(&url).await.map_err(|e| {
        user(format!(
            "cannot reach the table at {}: {}",
            address.base,
            causes(&e)
        ))
    })?;
    let status = answer.status();
    let body: Value = serde_json::from_str(&answer.text().await?).unwrap_or_default();
    if !status.is_success() {
        return Err(user(format!(
            "the server refused the link: {}",
            refusal(&body)
        )));
    }
    let entries: Vec<Entry> = serde_json::from_value(body["entries"].clone()).unwrap_or_default();
    let lines = entries
        .into_iter()
        .flat_map(|e| e.events.into_iter().map(|t| t.text))
        .collect();
    Ok((lines, body["version"].as_u64().unwrap_or(0)))
}

/// The board drawn from a view's JSON, the same for every game: a field a line ("deck
/// size: 36"), a list of numbers or words on one line, a list of records numbered, one
/// line each where it fits; nothing left out and nothing added to what the server sent.
pub fn view_text(view: &Value) -> String {
    let mut lines = Vec::new();
    write_value(&mut lines, 0, None, view);
    lines.join("\n")
}

fn words(key: &str) -> String {
    key.replace('_', " ")
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("none".to_string()),
        Value::Bool(true) => Some("yes".to_string()),
        Value::Bool(false) => Some("no".to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        Value::Array(items) if items.is_empty() => Some("none".to_string()),
        Value::Array(items) => {
            let all: Option<Vec<String>> = items
                .iter()
                .map(|v| match v {
                    Value::Array(_) | Value::Object(_) => None,
                    v => scalar(v),
                })
                .collect();
            all.map(|a| a.join(" "))
        }
        Value::Object(fields) => {
            let all: Option<Vec<String>> = fields
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| match v {
                    Value::Object(_) => None,
                    Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
                        None
                    }
                    Value::Number(n) if names_seat(k) => n
                        .as_u64()
                        .map(|seat| format!("{}: seat {}", words(k), seat + 1)),
                    v => scalar(v).map(|s| format!("{}: {s}", words(k))),
                })
                .collect();
            // A small record goes on one line.
            all.filter(|a| a.len() <= 6).map(|a| a.join(" · "))
        }
    }
}

/// Whether a field names a seat: JSON counts seats from 0, people from 1.
fn names_seat(key: &str) -> bool {
    matches!(
        key,
        "seat" | "to_act" | "winner" | "current" | "round_first"
    ) || key.ends_with("_seat")
        || key.ends_with("_player")
}

fn write_value(lines: &mut Vec<String>, depth: usize, key: Option<&str>, value: &Value) {
    let pad = "  ".repeat(depth);
    if let (Some(k), Some(seat)) = (key.filter(|k| names_seat(k)), value.as_u64()) {
        lines.push(format!("{pad}{}: seat {}", words(k), seat + 1));
        return;
    }
    let head = key.map(|k| format!("{pad}{}:", words(k)));
    if let Some(text) = scalar(value).filter(|t| t.len() <= 100 || !value.is_object()) {
        match head {
            Some(head) => lines.push(format!("{head} {text}")),
            None => lines.push(format!("{pad}{text}")),
        }
        return;
    }
    let deeper = if head.is_some() { depth + 1 } else { depth };
    if let Some(head) = head {
        lines.push(head);
    }
    match value {
        Value::Object(fields) => {
            for (k, v) in fields.iter().filter(|(_, v)| !v.is_null()) {
                write_value(lines, deeper, Some(k), v);
            }
        }
        Value::Array(items) => {
            let inner = "  ".repeat(deeper);
            for (i, item) in items.iter().enumerate() {
                match scalar(item) {
                    Some(text) => lines.push(format!("{inner}{}) {text}", i + 1)),
                    None => {
                        lines.push(format!("{inner}{})", i + 1));
                        write_value(lines, deeper + 1, None, item);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::Address;
    use serde_json::json;

    #[test]
    fn a_tables_link_is_read_and_anything_else_refused_in_words() {
        let seat = Address::parse("http://127.0.0.1:8080/play/6b17235ab26ba7fb?token=c400")
            .expect("an invite");
        assert_eq!(seat.base, "http://127.0.0.1:8080");
        assert_eq!(seat.table, "6b17235ab26ba7fb");
        assert_eq!(seat.token.as_deref(), Some("c400"));
        assert_eq!(
            seat.socket(),
            "ws://127.0.0.1:8080/api/tables/6b17235ab26ba7fb/ws?token=c400"
        );
        let watch =
            Address::parse("https://tables.example/play/6b17235ab26ba7fb/").expect("a link");
        assert_eq!(watch.token, None);
        assert_eq!(
            watch.socket(),
            "wss://tables.example/api/tables/6b17235ab26ba7fb/ws"
        );
        // A token is sent as the query value it is, whatever it holds.
        let odd = Address::parse("http://h/play/ab?token=a%26b").expect("a link");
        assert_eq!(odd.socket(), "ws://h/api/tables/ab/ws?token=a%26b");
        for (link, says) in [
            ("ftp://h/play/ab", "does not start with http"),
            ("http://h/lobby", "its path is not /play/ID"),
            ("http://h/play/zz", "hexadecimal"),
            ("not a link", "is not a table's link"),
        ] {
            let error = Address::parse(link).expect_err(link).to_string();
            assert!(error.contains(says), "{link}: {error}");
        }
    }

    #[test]
    fn a_view_is_drawn_field_by_field_with_seats_from_1() {
        let view = json!({
            "deck_size": 36,
            "hand": [2, 3, 6],
            "own_debt": null,
            "to_act": 0,
            "piles": [{"cards": [2], "closed": false}],
            "viewer": {"seat": 1}
        });
        let text = super::view_text(&view);
        assert!(text.contains("deck size: 36"), "{text}");
        assert!(text.contains("hand: 2 3 6"), "{text}");
        assert!(text.contains("to act: seat 1"), "{text}");
        assert!(text.contains("1) cards: 2 · closed: no"), "{text}");
        assert!(text.contains("viewer: seat: seat 2"), "{text}");
        assert!(!text.contains("own debt"), "nothing shown for null: {text}");
    }
}
