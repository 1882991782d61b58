//! The null server: the least any server can do for the shared load model, to measure
//! what the protocol alone costs on a machine (docs/http-api.md, "The floor").
//!
//! It speaks just the part of the HTTP and WebSocket API that the load clients use
//! (`../shared/bench/tabletop-load/load.js` and `tabletop load`): `GET /api/games`,
//! `POST /api/tables` (two seats, a token each), and a socket per seat that pushes a
//! `state` message of a real one's size at once and after every move, with an `ack` to
//! the mover in the same write. Its "game" checks nothing but the seat and the version,
//! and ends after 14 moves (a one-round, two-seat Drop Site game has 13-15). Every move is
//! appended to a file and synced before its answer, in group commits that wait for more
//! moves as `tabletop serve`'s SQLite writer does; `--database none` keeps nothing.
//!
//! It takes the flags `server-side-by-side.sh` gives a `tabletop` binary, so that script
//! measures it in `tabletop`'s place:
//!
//! ```sh
//! cargo build --release -p server --example null_server
//! ../shared/bench/server-side-by-side.sh target/release/examples/null_server 200 20
//! ```

use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// Moves in a game.
const MOVES: u64 = 14;
/// A group commit that comes this soon after the last one waits [`LINGER`] for more
/// moves (the values of `tabletop serve`'s writer).
const BUSY: Duration = Duration::from_millis(2);
const LINGER: Duration = Duration::from_millis(4);
const USAGE: &str = "usage: null_server serve --addr HOST:PORT [--database sqlite://PATH | none] \
                     [--no-rate-limits]\n\
                     The null server: the shared load model's part of the API with no game, to \
                     measure the protocol's floor. --no-rate-limits is taken and changes nothing \
                     (there are no limits).";

/// A real `state` message from its `view` on (a Drop Site seat's; the whole message is
/// about 700 bytes, as tabletop's are).
const VIEW: &str = r#"{"viewer":{"seat":0},"players":2,"target":1,"round":1,"round_first":0,"to_act":0,"hand":[3,6,7,11,12],"hand_sizes":[5,5],"debt_sizes":[0,0],"own_debt":null,"piles":[{"cards":[5],"sideways":false,"restarted":false,"closed":false,"shows":[5]}],"pile_limit":5,"deck_size":41,"totals":[0,0],"history":[],"winner":null},"outcome":null,"names":["Seat 1","Seat 2"],"open_seats":[],"rematch":null,"series":null,"clock":null,"away":[],"resigned":[],"can_undo":false,"events":[{"index":0,"seat":0,"events":[{"text":"you banked a card face down","kind":"banked","seat":0,"card":null}]}]"#;
const LEGAL: &str = r#"["3 debt","3 new","3 on 1","6 debt","6 new","7 debt","7 new"]"#;

struct Options {
    addr: SocketAddr,
    /// The file moves are appended to, or none.
    log: Option<std::path::PathBuf>,
}

fn options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    if args.next().as_deref() != Some("serve") {
        return Err(USAGE.into());
    }
    let mut addr = None;
    let mut log = None;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--addr" => {
                let value = args.next().ok_or("--addr needs HOST:PORT")?;
                addr = Some(
                    (value.parse::<SocketAddr>()).map_err(|e| format!("--addr {value}: {e}"))?,
                );
            }
            "--database" => {
                let value = args.next().ok_or("--database needs a value")?;
                log = match value.as_str() {
                    "none" => None,
                    url => Some(
                        (url.strip_prefix("sqlite://").map(std::path::PathBuf::from)).ok_or(
                            format!("--database {url}: sqlite://PATH (a plain file) or none"),
                        )?,
                    ),
                };
            }
            "--no-rate-limits" => {}
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown flag {other}\n{USAGE}")),
        }
    }
    Ok(Options {
        addr: addr.ok_or(format!("--addr is needed\n{USAGE}"))?,
        log,
    })
}

/// One table: the version, who is to act, and a queue to each seat's socket.
struct Table {
    version: u64,
    to_act: usize,
    seats: [Option<mpsc::UnboundedSender<String>>; 2],
}

impl Table {
    fn state(&self, seat: usize) -> String {
        let over = self.version >= MOVES;
        let (to_act, status) = if over {
            ("null".to_string(), "finished")
        } else {
            (self.to_act.to_string(), "running")
        };
        let legal = if !over && self.to_act == seat {
            LEGAL
        } else {
            "[]"
        };
        format!(
            r#"{{"type":"state","table":"0","game":"dropsite","version":{},"seat":{seat},"to_act":{to_act},"status":"{status}","legal":{legal},"view":{VIEW}}}"#,
            self.version
        )
    }
}

type Tables = Arc<Mutex<HashMap<String, Arc<Mutex<Table>>>>>;
/// A move for the log, and where its commit is told.
type Durable = mpsc::UnboundedSender<(String, oneshot::Sender<()>)>;

struct Shared {
    tables: Tables,
    durable: Option<Durable>,
    next: AtomicU64,
}

fn main() {
    let opts = match options(std::env::args().skip(1)) {
        Ok(opts) => opts,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let result = runtime
        .map_err(|e| e.to_string())
        .and_then(|rt| rt.block_on(serve(opts)));
    if let Err(message) = result {
        eprintln!("null_server: {message}");
        std::process::exit(1);
    }
}

async fn serve(opts: Options) -> Result<(), String> {
    let durable = match &opts.log {
        Some(path) => Some(spawn_writer(path)?),
        None => None,
    };
    let shared = Arc::new(Shared {
        tables: Tables::default(),
        durable,
        next: AtomicU64::new(1),
    });
    let listener =
        (TcpListener::bind(opts.addr).await).map_err(|e| format!("{}: {e}", opts.addr))?;
    println!("listening on http://{}", opts.addr);
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let shared = shared.clone();
        tokio::spawn(async move {
            let _ = connection(tcp, shared).await;
        });
    }
}

/// The writer: appends each batch of moves to the file and syncs it, then answers them.
fn spawn_writer(path: &std::path::Path) -> Result<Durable, String> {
    let mut file = (std::fs::OpenOptions::new().create(true).append(true))
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (sender, mut queue) = mpsc::unbounded_channel::<(String, oneshot::Sender<()>)>();
    std::thread::spawn(move || {
        let mut batch = Vec::new();
        let mut bytes = Vec::new();
        let mut last = Instant::now();
        while let Some(first) = queue.blocking_recv() {
            batch.push(first);
            if last.elapsed() < BUSY {
                std::thread::sleep(LINGER);
            }
            while let Ok(next) = queue.try_recv() {
                batch.push(next);
            }
            bytes.clear();
            for (line, _) in &batch {
                bytes.extend_from_slice(line.as_bytes());
                bytes.push(b'\n');
            }
            if let Err(e) = file.write_all(&bytes).and_then(|()| file.sync_data()) {
                eprintln!("null_server: the log: {e}");
                std::process::exit(1);
            }
            for (_, done) in batch.drain(..) {
                let _ = done.send(());
            }
            last = Instant::now();
        }
    });
    Ok(sender)
}

/// A connection: a socket when its request line asks for one, plain HTTP otherwise.
async fn connection(tcp: TcpStream, shared: Arc<Shared>) -> std::io::Result<()> {
    let mut head = [0u8; 256];
    // A peek finds the bytes already there at once, so a request line that came in
    // parts is waited for a millisecond at a time (not spun on, which would count as
    // the server's CPU), for a second at most.
    let mut line = None;
    for _ in 0..1000 {
        let n = tcp.peek(&mut head).await?;
        if let Some(end) = head[..n].iter().position(|&b| b == b'\n') {
            line = Some(String::from_utf8_lossy(&head[..end]).into_owned());
            break;
        }
        // Nothing (closed), or a request line longer than the buffer: not one of ours.
        // (A whole request already in, longer than the buffer, is looked at above first:
        // closing on a full buffer before that dropped requests that came in at once,
        // which the load clients saw as connection resets.)
        if n == 0 || n == head.len() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let Some(line) = line else {
        return Ok(());
    };
    if line.starts_with("GET ") && line.contains("/ws?") {
        socket(tcp, shared).await
    } else {
        http(tcp, shared).await
    }
}

/// Plain HTTP/1.1 with keep-alive: the game list (empty) and new tables.
async fn http(mut tcp: TcpStream, shared: Arc<Shared>) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    loop {
        let n = tcp.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length = (head.lines())
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buf.len() < end + 4 + length {
                break;
            }
            buf.drain(..end + 4 + length);
            let (status, body) = if head.starts_with("post /api/tables ") {
                let id = shared.next.fetch_add(1, Ordering::Relaxed).to_string();
                let table = Table {
                    version: 0,
                    to_act: 0,
                    seats: [None, None],
                };
                let tables = shared.tables.lock();
                tables
                    .map_err(|_| std::io::Error::other("poisoned"))?
                    .insert(id.clone(), Arc::new(Mutex::new(table)));
                let body = format!(
                    r#"{{"id":"{id}","game":"dropsite","status":"open","seats":[{{"seat":0,"player":"human","token":"{id}-0"}},{{"seat":1,"player":"human","token":"{id}-1"}}]}}"#
                );
                ("201 Created", body)
            } else if head.starts_with("get /api/games ") {
                ("200 OK", "[]".to_string())
            } else {
                (
                    "404 Not Found",
                    r#"{"code":"request/not_found"}"#.to_string(),
                )
            };
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            tcp.write_all(answer.as_bytes()).await?;
        }
    }
}

/// A seat's socket: its state at once and after every move, its moves played.
async fn socket(tcp: TcpStream, shared: Arc<Shared>) -> std::io::Result<()> {
    let mut path = String::new();
    let config = WebSocketConfig::default()
        .read_buffer_size(2 * 1024)
        .write_buffer_size(0);
    // The callback's result type is tungstenite's (its refusal is a whole HTTP response).
    #[allow(clippy::result_large_err)]
    let keep_path = |request: &Request, response: Response| {
        path = request.uri().to_string();
        Ok(response)
    };
    let ws = tokio_tungstenite::accept_hdr_async_with_config(tcp, keep_path, Some(config))
        .await
        .map_err(std::io::Error::other)?;
    // /api/tables/{id}/ws?token={id}-{seat}
    let id = path.split('/').nth(3).unwrap_or_default().to_string();
    let seat = usize::from(path.ends_with("-1"));
    let table = shared.tables.lock().ok().and_then(|t| t.get(&id).cloned());
    let Some(table) = table else {
        return Ok(());
    };
    let (to_me, mut mine) = mpsc::unbounded_channel();
    let (mut sink, mut stream) = ws.split();
    let first = {
        let mut t = table
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?;
        t.seats[seat] = Some(to_me);
        t.state(seat)
    };
    let fail = std::io::Error::other;
    sink.send(Message::Text(first.into())).await.map_err(fail)?;
    loop {
        tokio::select! {
            pushed = mine.recv() => match pushed {
                Some(text) => sink.send(Message::Text(text.into())).await.map_err(fail)?,
                None => return Ok(()),
            },
            message = stream.next() => {
                let Some(Ok(Message::Text(text))) = message else {
                    if let Ok(mut tables) = shared.tables.lock() {
                        tables.remove(&id);
                    }
                    return Ok(());
                };
                let (version, to_act) = {
                    let t = table.lock().map_err(|_| std::io::Error::other("poisoned"))?;
                    (t.version, t.to_act)
                };
                // Only the seat to act, on the version it last saw, before the end.
                let on_version = text.as_str().contains(&format!("\"version\":{version}"));
                if to_act != seat || version >= MOVES || !on_version {
                    continue;
                }
                if let Some(durable) = &shared.durable {
                    let (done, committed) = oneshot::channel();
                    let _ = durable.send((format!("{id} {seat} {}", text.as_str()), done));
                    let _ = committed.await;
                }
                let (me, other, to_other) = {
                    let mut t = table.lock().map_err(|_| std::io::Error::other("poisoned"))?;
                    t.version += 1;
                    t.to_act = 1 - t.to_act;
                    (t.state(seat), t.state(1 - seat), t.seats[1 - seat].clone())
                };
                if let Some(to_other) = to_other {
                    let _ = to_other.send(other);
                }
                let ack = format!(r#"{{"type":"ack","version":{version}}}"#);
                sink.feed(Message::Text(ack.into())).await.map_err(fail)?;
                sink.send(Message::Text(me.into())).await.map_err(fail)?;
            }
        }
    }
}
