//! `join`'s full-screen board at a real server on 127.0.0.1 (served in this process, on
//! SQLite): a seat plays a move by keys alone, a refused move is told in words, the seat
//! resigns, and a spectator's board shows the public view and log with no moves.
use super::draw::draw;
use super::join::RemoteApp;
use crate::remote::{Address, Heard, Link};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A server on a free port of 127.0.0.1, on SQLite in `dir`, on its own thread and runtime.
fn serve(dir: &std::path::Path) -> SocketAddr {
    let database = format!("sqlite://{}", dir.join("tui-join.sqlite").display());
    let (tell, told) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        runtime.block_on(async move {
            let state = server::AppState::open(&database).await.expect("the store");
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a port");
            tell.send(listener.local_addr().expect("an address"))
                .expect("told");
            let _ = server::run(listener, state).await;
        });
    });
    told.recv_timeout(Duration::from_secs(30))
        .expect("the server listens")
}

/// Creates a table: its answer.
fn create(addr: SocketAddr, body: &Value) -> Value {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let answer = reqwest::Client::new()
            .post(format!("http://{addr}/api/tables"))
            .json(body)
            .send()
            .await
            .expect("created");
        assert_eq!(answer.status(), 201);
        answer.json().await.expect("JSON")
    })
}

/// A table's screen at `link`, connected.
fn open(link: &str) -> (RemoteApp, Link, mpsc::Receiver<Heard>) {
    let address = Address::parse(link).expect("a table's link");
    let (tell, heard) = mpsc::channel();
    let (socket, told) = Link::open(address.clone(), tell).expect("connected");
    (RemoteApp::new(address.table, told), socket, heard)
}

/// Hands what `app` sent to the socket and what came back to `app`, until `done`.
fn until(
    app: &mut RemoteApp,
    link: &Link,
    heard: &mpsc::Receiver<Heard>,
    done: impl Fn(&RemoteApp) -> bool,
) {
    let start = Instant::now();
    while !done(app) {
        for (action, version) in app.sent.drain(..) {
            link.send(&action, version);
        }
        if let Ok(message) = heard.recv_timeout(Duration::from_millis(100)) {
            app.hear(message);
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "waited too long: {}",
            app.nav.status
        );
    }
}

fn screen(app: &RemoteApp) -> String {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("a test terminal");
    terminal.draw(|frame| draw(frame, app)).expect("drawn");
    let buffer = terminal.backend().buffer();
    (0..40)
        .map(|y| {
            (0..120)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn press(app: &mut RemoteApp, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn a_seat_plays_by_keys_and_a_spectator_watches_a_server_table() {
    let dir = tempfile::tempdir().expect("a directory");
    let addr = serve(dir.path());
    let table = create(
        addr,
        &json!({"game": "distopia", "seats": ["human", "random"], "seed": 9}),
    );
    let id = table["id"].as_str().expect("an id");
    let invite = table["seats"][0]["invite"].as_str().expect("an invite");
    let (mut app, link, heard) = open(&format!("http://{addr}{invite}"));
    until(&mut app, &link, &heard, |a| {
        a.snapshot.as_ref().is_some_and(|s| s.my_turn())
    });
    let text = screen(&app);
    assert!(
        text.contains(&format!("table {id} · you are seat 1 · your turn")),
        "{text}"
    );
    assert!(text.contains("Pick up your district"), "{text}");
    assert!(text.contains("Board for seat 1 (you)"), "{text}");
    // A typed move the server cannot read: refused in words, nothing changes.
    let version = app.snapshot.as_ref().map(|s| s.version);
    press(&mut app, KeyCode::Char('/'));
    for c in "fly".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    until(&mut app, &link, &heard, |a| a.nav.refused);
    assert!(
        app.nav.status.starts_with("Refused: "),
        "{}",
        app.nav.status
    );
    assert!(
        app.nav.status.contains("(action/malformed)"),
        "{}",
        app.nav.status
    );
    assert_eq!(app.snapshot.as_ref().map(|s| s.version), version);
    // Down, Enter: the second move, sent as the page sends it and told in the log.
    let chosen = app.snapshot.as_ref().map(|s| s.moves[1].text.label.clone());
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    let version = version.unwrap_or_default();
    until(&mut app, &link, &heard, |a| {
        !a.waiting && a.snapshot.as_ref().is_some_and(|s| s.version > version)
    });
    assert!(!app.nav.refused, "{}", app.nav.status);
    let chosen = chosen.expect("a move");
    assert!(
        app.log
            .iter()
            .any(|l| l.contains("you picked up your district")),
        "{chosen} not told in {:?}",
        app.log
    );
    // r asks; y sends `resign 1`: at two seats the game ends, told in the log.
    until(&mut app, &link, &heard, |a| {
        a.snapshot.as_ref().is_some_and(|s| s.my_turn())
    });
    press(&mut app, KeyCode::Char('r'));
    assert!(screen(&app).contains("Resign seat 1 at this table?"));
    press(&mut app, KeyCode::Char('y'));
    until(&mut app, &link, &heard, |a| {
        a.snapshot.as_ref().is_some_and(|s| s.over())
    });
    assert!(
        app.log.iter().any(|l| l.contains("you resigned")),
        "{:?}",
        app.log
    );
    assert!(screen(&app).contains("the game is over"));
    link.close();

    // The spectator: the public view, no moves, the same log as spectators read it.
    let (mut app, link, heard) = open(&format!("http://{addr}/play/{id}"));
    until(&mut app, &link, &heard, |a| a.snapshot.is_some());
    let text = screen(&app);
    assert!(text.contains("watching"), "{text}");
    assert!(text.contains("Board (as spectators see it)"), "{text}");
    assert!(text.contains("Your moves (0)"), "{text}");
    assert!(
        app.log.iter().any(|l| l.contains("resigned")),
        "{:?}",
        app.log
    );
    assert!(
        app.log.iter().any(|l| l.contains("seat 1 picked up")),
        "{:?}",
        app.log
    );
    press(&mut app, KeyCode::Enter);
    assert!(app.nav.refused);
    assert!(app.sent.is_empty(), "a spectator sends nothing");
    link.close();
}
