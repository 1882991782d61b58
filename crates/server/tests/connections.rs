//! Connection limits on real sockets of 127.0.0.1: header and request timeouts, the
//! connection limit, the header size limit and WebSocket pings, each answered (where there
//! is an answer) with the JSON `{code, message}` body.

use crate::common;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use server::{AppState, ConnectionLimits};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{timeout, Instant};
use tokio_tungstenite::tungstenite::Message;

async fn start(limits: ConnectionLimits) -> (SocketAddr, AppState) {
    let mut state = common::memory_state().await;
    state.limits = limits;
    (common::spawn(state.clone()).await, state)
}

/// Everything the server sends until it closes the connection (at most `within`).
async fn read_until_closed(tcp: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 4096];
    loop {
        match timeout(deadline - Instant::now(), tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(out),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return None,
        }
    }
}

/// The status and JSON body of a raw HTTP answer.
fn answer(raw: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, serde_json::from_str(body).expect("a JSON body"))
}

/// A connection to `addr` on which `sent` is written.
async fn sending(addr: SocketAddr, sent: &[u8]) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(sent).await.expect("write");
    tcp
}

/// What one read on `tcp` gets within 5 s.
async fn read_some(tcp: &mut TcpStream, buf: &mut [u8]) -> usize {
    timeout(Duration::from_secs(5), tcp.read(buf))
        .await
        .expect("answered in time")
        .expect("read")
}

/// The spectators' socket of a new Drop Site table.
async fn spectator_url(state: &AppState, addr: SocketAddr) -> String {
    let (table, _) = (state.hub)
        .create("dropsite", None, None, None, None, Default::default())
        .await
        .expect("a table");
    format!("ws://{addr}/api/tables/{}/ws", table.row.id)
}

/// Everything the server sends before it closes the connection, which it must within 5 s.
async fn answered(tcp: &mut TcpStream) -> Vec<u8> {
    read_until_closed(tcp, Duration::from_secs(5))
        .await
        .expect("answered and closed within 5 s")
}

/// Checks that a raw answer is `status` with the JSON error `code`.
fn assert_error(raw: &[u8], status: u16, code: &str) {
    let (got, body) = answer(raw);
    assert_eq!(got, status, "{body}");
    common::assert_coded(&body, code);
}

#[tokio::test]
async fn a_silent_or_half_sent_request_is_closed_by_the_header_timeout() {
    let (addr, _) = start(ConnectionLimits {
        header_timeout: Duration::from_millis(300),
        ..ConnectionLimits::default()
    })
    .await;
    let started = Instant::now();
    let mut silent = TcpStream::connect(addr).await.expect("connect");
    let mut partial = sending(addr, b"GET /api/games HTTP/1.1\r\nHost: x\r\n").await;
    for tcp in [&mut silent, &mut partial] {
        let got = read_until_closed(tcp, Duration::from_secs(5)).await;
        assert!(got.is_some(), "still open after 5 s");
    }
    assert!(started.elapsed() >= Duration::from_millis(250));
    // A complete request on a fresh connection is still answered.
    let mut ok = sending(
        addr,
        b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    let raw = answered(&mut ok).await;
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
}

/// The security headers every answer carries (see `server::headers`), in a raw answer.
fn assert_secured(raw: &[u8]) {
    let text = String::from_utf8_lossy(raw).to_ascii_lowercase();
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    for (name, value) in server::headers::SECURITY_HEADERS {
        let line = format!("\r\n{name}: {}\r\n", value.to_ascii_lowercase());
        assert!(head.contains(&line), "no `{name}` in {head}");
    }
}

#[tokio::test]
async fn a_body_that_does_not_come_meets_408_with_a_json_body_and_the_security_headers() {
    let (addr, _) = start(ConnectionLimits {
        request_timeout: Duration::from_millis(300),
        ..ConnectionLimits::default()
    })
    .await;
    // A body cut off inside a field, and one cut off after its first byte.
    for sent in [&b"{\"game\":"[..], b"{"] {
        let head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\nConnection: close\r\n\r\n";
        let raw = answered(&mut sending(addr, &[&head[..], sent].concat()).await).await;
        assert_error(&raw, 408, "request/timeout");
        assert_secured(&raw);
    }
}

#[tokio::test]
async fn a_body_declared_over_the_limit_meets_413_at_once_unread() {
    // The request timeout is the default 30 s: the answer must not wait for it.
    let (addr, state) = start(ConnectionLimits::default()).await;
    let started = Instant::now();
    let mut tcp = sending(
        addr,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 10000000\r\n\r\n",
    )
    .await;
    let raw = answered(&mut tcp).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_error(&raw, 413, "request/too_large");
    assert_secured(&raw);
    // Nothing was created.
    let tables = state
        .hub
        .store()
        .page(&server::domain::Page {
            statuses: vec![server::Status::Open, server::Status::Running],
            game: None,
            before: None,
            limit: 10,
        })
        .await
        .expect("page");
    assert!(tables.is_empty());
}

#[tokio::test]
async fn headers_over_the_limit_meet_431_with_a_json_body() {
    let (addr, _) = start(ConnectionLimits {
        max_header_bytes: 4096,
        ..ConnectionLimits::default()
    })
    .await;
    let big = "a".repeat(6000);
    let head =
        format!("GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\nConnection: close\r\n\r\n");
    let raw = answered(&mut sending(addr, head.as_bytes()).await).await;
    assert_error(&raw, 431, "request/headers_too_large");
    assert_secured(&raw);
}

#[tokio::test]
async fn a_head_far_over_the_limit_meets_431_with_a_json_body_before_it_is_read() {
    // Hyper would answer a head over its buffer with an empty 431; the server answers it
    // first, with the JSON body, even when the head arrives in pieces.
    let (addr, _) = start(ConnectionLimits::default()).await;
    let mut tcp = sending(addr, b"GET /api/games HTTP/1.1\r\nHost: x\r\n").await;
    let line = format!("X-Big: {}\r\n", "b".repeat(1000));
    for _ in 0..500 {
        if tcp.write_all(line.as_bytes()).await.is_err() {
            break; // answered and closed while still sending
        }
    }
    let raw = answered(&mut tcp).await;
    assert_error(&raw, 431, "request/headers_too_large");
    assert_secured(&raw);
}

#[tokio::test]
async fn keep_alive_requests_and_websocket_frames_are_not_taken_for_heads() {
    let (addr, state) = start(ConnectionLimits {
        max_header_bytes: 1024,
        ..ConnectionLimits::default()
    })
    .await;
    // Ten requests on one connection, together far over one head's limit.
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    for _ in 0..10 {
        tcp.write_all(
            format!(
                "GET /api/games HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
                "p".repeat(600)
            )
            .as_bytes(),
        )
        .await
        .expect("write");
        let mut got = Vec::new();
        let mut buf = [0u8; 8192];
        while !String::from_utf8_lossy(&got).contains("\r\n\r\n") {
            let n = read_some(&mut tcp, &mut buf).await;
            assert!(n > 0, "closed");
            got.extend_from_slice(&buf[..n]);
        }
        assert!(
            got.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&got)
        );
        // Read the rest of the body before the next request.
        let text = String::from_utf8_lossy(&got).to_string();
        let (head, body) = text.split_once("\r\n\r\n").expect("head");
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length: ")
                    .map(|v| v.trim().parse().expect("length"))
            })
            .expect("content-length");
        let mut have = body.len();
        while have < length {
            let n = read_some(&mut tcp, &mut buf).await;
            assert!(n > 0, "closed");
            have += n;
        }
    }
    // A socket's frames after the upgrade pass, however many bytes they carry.
    let url = spectator_url(&state, addr).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("ws");
    for _ in 0..200 {
        ws.send(Message::text(r#"{"type":"sync"}"#))
            .await
            .expect("still open");
    }
    let mut states = 0;
    while states < 200 {
        match timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => states += 1,
            Ok(Some(Ok(_))) => {}
            other => panic!("the socket ended after {states} answers: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_connection_over_the_limit_meets_503_with_a_json_body() {
    let (addr, _) = start(ConnectionLimits {
        max_connections: 3,
        ..ConnectionLimits::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut tcp = TcpStream::connect(addr).await.expect("connect");
        // A served connection: it answers and stays open (keep-alive).
        tcp.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let mut buf = [0u8; 64];
        let n = read_some(&mut tcp, &mut buf).await;
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(tcp);
    }
    let mut over = sending(addr, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let raw = answered(&mut over).await;
    assert_error(&raw, 503, "server/busy");
    // Once one closes, a new connection is served again.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut tcp = sending(
            addr,
            b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await;
        let raw = answered(&mut tcp).await;
        if raw.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "no connection served again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_socket_that_stops_answering_pings_is_closed() {
    let (addr, state) = start(ConnectionLimits {
        ping_interval: Duration::from_millis(200),
        ping_misses: 2,
        ..ConnectionLimits::default()
    })
    .await;
    let url = spectator_url(&state, addr).await;
    // A client that reads (and so answers pings) stays connected past several pings.
    let (mut live, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("ws");
    // A client that reads nothing answers no ping.
    let (mut mute, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("ws");
    let deadline = Instant::now() + Duration::from_millis(1500);
    let mut pings = 0;
    while let Ok(message) = timeout(deadline - Instant::now(), live.next()).await {
        match message {
            Some(Ok(Message::Ping(_))) => pings += 1,
            Some(Ok(_)) => {}
            other => panic!("the answering socket ended: {other:?}"),
        }
    }
    assert!(pings >= 3, "{pings} pings");
    live.send(Message::text(r#"{"type":"sync"}"#))
        .await
        .expect("still open");
    // The mute client now finds its queued frames, then the end.
    let mut ended = false;
    while let Ok(message) = timeout(Duration::from_secs(2), mute.next()).await {
        match message {
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                ended = true;
                break;
            }
            Some(Ok(_)) => {}
        }
    }
    assert!(ended, "the socket that answered no ping is still open");
}
