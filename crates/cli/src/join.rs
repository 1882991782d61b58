//! `tabletop join URL`: a seat at a server table (its invite link, `…/play/ID?token=T`) or
//! a spectator's place (the table's link without a token), through the WebSocket the table
//! page uses (docs/http-api.md): the server's snapshot for this viewer drawn, moves sent
//! as `{"type": "action", "action", "version"}`, refusals told in words. Full-screen in a
//! terminal ([`crate::tui::join`]); line mode for scripts and pipes, or with `--plain`.
use crate::user;
use engine::{Ending, LegalMove};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::{BufRead, IsTerminal};
use std::sync::mpsc;
use tokio_tungstenite::tungstenite::{self, Message};

#[derive(clap::Args)]
pub struct JoinArgs {
    /// The table's link: a seat's invite link (`http://HOST/play/ID?token=TOKEN`) to play
    /// that seat, or the link without a token to watch.
    url: String,
    /// Line mode (the board printed, moves typed) even in a terminal, where the
    /// full-screen board would open.
    #[arg(long)]
    plain: bool,
}

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
        let mut url = format!("{scheme}://{rest}/api/tables/{}/ws", self.table);
        if let Some(token) = &self.token {
            url.push_str(&format!("?token={token}"));
        }
        url
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
        crate::tui::join::view_text(&self.view)
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
                        "cannot reach the table at {}: {e}",
                        address.base
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
    let mut url = format!("{}/api/tables/{}/log", address.base, address.table);
    if let Some(token) = &address.token {
        url.push_str(&format!("?token={token}"));
    }
    let answer = reqwest::get(&url)
        .await
        .map_err(|e| user(format!("cannot reach the table at {}: {e}", address.base)))?;
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

pub fn run(args: JoinArgs) -> anyhow::Result<()> {
    let address = Address::parse(&args.url)?;
    if !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return crate::tui::join::run(address);
    }
    let (tell, heard) = mpsc::channel();
    let (link, log) = Link::open(address, tell.clone())?;
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tell.send(Heard::Line(Some(line))).is_err() {
                return;
            }
        }
        let _ = tell.send(Heard::Line(None));
    });
    let result = line_mode(&link, &log, &heard);
    link.close();
    result
}

/// Line mode: each event printed as it comes, the board and the moves when it is the
/// seat's turn, typed moves sent (a line waits for the seat's turn).
fn line_mode(
    link: &Link,
    (log, version): &Told,
    heard: &mpsc::Receiver<Heard>,
) -> anyhow::Result<()> {
    let watching = link.address.token.is_none();
    let mut typed: std::collections::VecDeque<String> = Default::default();
    let mut input_over = false;
    let mut last: Option<Snapshot> = None;
    // The next log entry to print, and whether a move of ours waits for its answer.
    let mut told = *version as usize;
    let mut waiting = false;
    // The version our last taken move made: its events are printed before leaving.
    let mut shown_after = 0u64;
    for line in log {
        outln!("  * {line}")?;
    }
    loop {
        let Ok(message) = heard.recv() else {
            return Ok(());
        };
        match message {
            Heard::State(snapshot) => {
                if last.is_none() {
                    let who = match snapshot.seat {
                        Some(seat) => format!("you are {}", snapshot.seat_name(seat)),
                        None => "watching".to_string(),
                    };
                    outln!("{} · table {} · {who}", snapshot.game, link.address.table)?;
                    if !snapshot.my_turn() {
                        outln!("{}", snapshot.board())?;
                    }
                }
                for entry in snapshot.events.iter().filter(|e| e.index >= told) {
                    for event in &entry.events {
                        outln!("  * {}", event.text)?;
                    }
                }
                told = told.max(snapshot.version as usize);
                if let Some(note) = &snapshot.paused {
                    outln!("({note})")?;
                }
                if snapshot.over() {
                    for line in snapshot.ending_lines() {
                        outln!("{line}")?;
                    }
                    return Ok(());
                }
                let fresh = last.as_ref().is_none_or(|l| l.version != snapshot.version);
                if snapshot.my_turn() && fresh {
                    outln!("\n{}", snapshot.board())?;
                    crate::play::list_moves(&snapshot.moves)?;
                    out!(
                        "{}> ",
                        snapshot.seat_name(snapshot.seat.unwrap_or_default())
                    )?;
                    std::io::Write::flush(&mut std::io::stdout())?;
                }
                last = Some(*snapshot);
            }
            Heard::Ack(version) => {
                waiting = false;
                shown_after = version;
            }
            Heard::Refused(why) => {
                waiting = false;
                outln!("Refused: {why}. Try again (a number from the list, or a move).")?;
            }
            Heard::Note(note) => outln!("({note})")?,
            Heard::Closed(why) => anyhow::bail!("{why}"),
            Heard::Line(Some(line)) => {
                let line = line.trim().to_string();
                if !line.is_empty() {
                    typed.push_back(line);
                }
            }
            Heard::Line(None) => input_over = true,
        }
        // Typed lines are read once the table is shown; a move is sent once it is the
        // seat's turn and no move of ours waits for its answer.
        let Some(now) = &last else { continue };
        while let Some(line) = typed.front() {
            if matches!(line.as_str(), "quit" | "exit") {
                outln!("leaving the table; the same link brings you back")?;
                return Ok(());
            }
            if watching {
                outln!("A spectator makes no moves: `quit` leaves.")?;
                typed.pop_front();
                continue;
            }
            if !now.my_turn() || waiting {
                break;
            }
            let action = match line.parse::<usize>() {
                Ok(n) if (1..=now.moves.len()).contains(&n) => now.moves[n - 1].action.clone(),
                _ => line.clone(),
            };
            typed.pop_front();
            link.send(&action, now.version);
            waiting = true;
        }
        let caught_up = now.version >= shown_after;
        if input_over && typed.is_empty() && !waiting && caught_up && !watching {
            outln!("\nleaving the table (the input ended); the same link brings you back")?;
            return Ok(());
        }
    }
}
