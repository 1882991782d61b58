//! Connection limits on real sockets of 127.0.0.1: header and request timeouts, the
//! connection limit, the header size limit and WebSocket pings, each answered (where there
//! is an answer) with the JSON `{code, message}` body.

mod common;

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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(server::run(listener, state.clone()));
    (addr, state)
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

fn assert_coded(body: &Value, code: &str) {
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
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
    let mut partial = TcpStream::connect(addr).await.expect("connect");
    partial
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    for tcp in [&mut silent, &mut partial] {
        let got = read_until_closed(tcp, Duration::from_secs(5)).await;
        assert!(got.is_some(), "still open after 5 s");
    }
    assert!(started.elapsed() >= Duration::from_millis(250));
    // A complete request on a fresh connection is still answered.
    let mut ok = TcpStream::connect(addr).await.expect("connect");
    ok.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let raw = read_until_closed(&mut ok, Duration::from_secs(5))
        .await
        .expect("answered and closed");
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
}

#[tokio::test]
async fn a_body_that_does_not_come_meets_408_with_a_json_body() {
    let (addr, _) = start(ConnectionLimits {
        request_timeout: Duration::from_millis(300),
        ..ConnectionLimits::default()
    })
    .await;
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\nConnection: close\r\n\r\n{\"game\":",
    )
    .await
    .expect("write");
    let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
        .await
        .expect("answered within 5 s");
    let (status, body) = answer(&raw);
    assert_eq!(status, 408);
    assert_coded(&body, "request/timeout");
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
async fn the_timeouts_answer_carries_the_security_headers() {
    let (addr, _) = start(ConnectionLimits {
        request_timeout: Duration::from_millis(300),
        ..ConnectionLimits::default()
    })
    .await;
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\nConnection: close\r\n\r\n{",
    )
    .await
    .expect("write");
    let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
        .await
        .expect("answered within 5 s");
    assert_eq!(answer(&raw).0, 408);
    assert_secured(&raw);
}

#[tokio::test]
async fn a_body_declared_over_the_limit_meets_413_at_once_unread() {
    // The request timeout is the default 30 s: the answer must not wait for it.
    let (addr, state) = start(ConnectionLimits::default()).await;
    let started = Instant::now();
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 10000000\r\n\r\n",
    )
    .await
    .expect("write");
    let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
        .await
        .expect("answered and closed within 5 s");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let (status, body) = answer(&raw);
    assert_eq!(status, 413);
    assert_coded(&body, "request/too_large");
    assert_secured(&raw);
    // Nothing was created.
    let tables = state
        .hub
        .store()
        .page(&server::store::Page {
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
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    let big = "a".repeat(6000);
    tcp.write_all(
        format!("GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .await
    .expect("write");
    let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
        .await
        .expect("answered");
    let (status, body) = answer(&raw);
    assert_eq!(status, 431);
    assert_coded(&body, "request/headers_too_large");
    assert_secured(&raw);
}

#[tokio::test]
async fn a_head_far_over_the_limit_meets_431_with_a_json_body_before_it_is_read() {
    // Hyper would answer a head over its buffer with an empty 431; the server answers it
    // first, with the JSON body, even when the head arrives in pieces.
    let (addr, _) = start(ConnectionLimits::default()).await;
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let line = format!("X-Big: {}\r\n", "b".repeat(1000));
    for _ in 0..500 {
        if tcp.write_all(line.as_bytes()).await.is_err() {
            break; // answered and closed while still sending
        }
    }
    let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
        .await
        .expect("answered");
    let (status, body) = answer(&raw);
    assert_eq!(status, 431);
    assert_coded(&body, "request/headers_too_large");
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
            let n = timeout(Duration::from_secs(5), tcp.read(&mut buf))
                .await
                .expect("answered")
                .expect("read");
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
            let n = timeout(Duration::from_secs(5), tcp.read(&mut buf))
                .await
                .expect("body")
                .expect("read");
            assert!(n > 0, "closed");
            have += n;
        }
    }
    // A socket's frames after the upgrade pass, however many bytes they carry.
    let (table, _) = state
        .hub
        .create("dropsite", None, None, None, None)
        .await
        .expect("a table");
    let url = format!("ws://{addr}/api/tables/{}/ws", table.row.id);
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
        let n = timeout(Duration::from_secs(5), tcp.read(&mut buf))
            .await
            .expect("answered")
            .expect("read");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(tcp);
    }
    let mut over = TcpStream::connect(addr).await.expect("connect");
    over.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let raw = read_until_closed(&mut over, Duration::from_secs(5))
        .await
        .expect("answered and closed");
    let (status, body) = answer(&raw);
    assert_eq!(status, 503);
    assert_coded(&body, "server/busy");
    // Once one closes, a new connection is served again.
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut tcp = TcpStream::connect(addr).await.expect("connect");
        tcp.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let raw = read_until_closed(&mut tcp, Duration::from_secs(5))
            .await
            .expect("answered");
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
    let (table, _) = state
        .hub
        .create("dropsite", None, None, None, None)
        .await
        .expect("a table");
    let url = format!("ws://{addr}/api/tables/{}/ws", table.row.id);
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
