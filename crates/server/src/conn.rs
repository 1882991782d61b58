//! Connections: the accept loop and its limits (docs/http-api.md, "Limits").
//!
//! Every accepted TCP connection holds one of `max_connections` permits for as long as it
//! lives, a WebSocket's for the whole session; a connection over the limit is answered
//! `503 server/busy` and closed. Headers must arrive within `header_timeout` (a silent or
//! half-sent request is closed), and a request must be answered within `request_timeout`
//! (`408 request/timeout`, body reading included). Sockets are pinged every
//! `ping_interval` and closed after `ping_misses` pings in a row got nothing back.

use crate::api::ApiError;
use axum::extract::{ConnectInfo, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// The limits of connections; each is a `tabletop serve` flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once, HTTP and WebSocket together.
    pub max_connections: usize,
    /// Time for a request's headers to arrive, from the connection's start or the end of
    /// the previous response.
    pub header_timeout: Duration,
    /// Time to answer a request once its headers are in (reading its body included).
    pub request_timeout: Duration,
    /// The largest header block (request line and headers) answered; more is
    /// `431 request/headers_too_large`.
    pub max_header_bytes: usize,
    /// How often an open WebSocket is pinged.
    pub ping_interval: Duration,
    /// Pings in a row left without any answer before the socket is closed.
    pub ping_misses: u32,
    /// The longest a WebSocket may take to take a message: a client that reads nothing
    /// (its buffers full) is cut off then, so a slow client holds no more than its
    /// buffers.
    pub send_timeout: Duration,
    /// On SIGTERM or Ctrl-C: how long requests in flight and sockets have to finish
    /// before the process ends anyway.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_connections: 10_000,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_header_bytes: 16 * 1024,
            ping_interval: Duration::from_secs(30),
            ping_misses: 2,
            send_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// What hyper buffers of a header block at most; past it hyper itself would answer a bare
/// 431. [`HeadLimit`] answers long before (with a JSON body), and below that
/// [`limit_requests`] does.
const HYPER_MAX_BUF: usize = 64 * 1024;

/// Raw bytes of a request head (request line, headers and their line ends) past which
/// [`HeadLimit`] answers 431 itself: the header count of [`limit_requests`] plus room for
/// the line ends it does not count.
fn raw_head_limit(max_header_bytes: usize) -> usize {
    max_header_bytes + 1024
}

/// A connection's place under `max_connections`; a WebSocket session keeps a clone.
#[derive(Clone)]
pub struct ConnectionPermit(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

/// Serves `router` on `listener` under `limits` until `shutdown` completes; then accepts
/// no more, lets the requests in flight finish (idle connections are closed) and waits
/// for every connection and socket to end, `shutdown_grace` at most.
///
/// # Errors
/// None yet: accept errors (such as running out of file descriptors) are logged and
/// retried.
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let grace = limits.shutdown_grace;
    let max = limits.max_connections;
    // Set once `shutdown` completes: each connection then finishes its request and ends.
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HYPER_MAX_BUF.max(2 * raw_head_limit(limits.max_header_bytes)));
    let head_limit = raw_head_limit(limits.max_header_bytes);
    // The headers again outside: the timeout's and the header limit's answers get them.
    let router = router
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(limits),
            limit_requests,
        ))
        .layer(axum::middleware::from_fn(crate::headers::security_headers));
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => {
                stopping.send_replace(true);
                drain(&permits, max, grace).await;
                return Ok(());
            }
        };
        if let Err(e) = tcp.set_nodelay(true) {
            // A push is a small write that must not wait for the client's delayed ACK.
            tracing::warn!("TCP_NODELAY: {e}");
        }
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tokio::spawn(refuse(tcp));
            continue;
        };
        let permit = ConnectionPermit(Arc::new(permit));
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<_>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(permit.clone());
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = http
            .serve_connection(TokioIo::new(HeadLimit::new(tcp, head_limit)), service)
            .with_upgrades();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let done = tokio::select! {
                done = connection.as_mut() => done,
                () = async { let _ = stop.wait_for(|stop| *stop).await; } => {
                    // A request in flight is answered; an idle connection closes.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = done {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
}

/// Waits until every connection has given its permit back (requests answered, sockets
/// closed), `grace` at most, and says how it went.
async fn drain(permits: &Semaphore, max: usize, grace: Duration) {
    let open = max - permits.available_permits();
    tracing::info!(
        "shutting down: {open} connections to finish, {} s at most",
        grace.as_secs_f64()
    );
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    match tokio::time::timeout(grace, permits.acquire_many(all)).await {
        Ok(_) => tracing::info!("shut down: every request answered, every socket closed"),
        Err(_) => tracing::warn!(
            "shut down with {} connections still open after {} s",
            max - permits.available_permits(),
            grace.as_secs_f64()
        ),
    }
}

/// The request timeout and the header size limit, with JSON answers.
async fn limit_requests(
    axum::extract::State(limits): axum::extract::State<Arc<ConnectionLimits>>,
    request: Request,
    next: Next,
) -> Response {
    let header_bytes = request.uri().to_string().len()
        + request
            .headers()
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    if header_bytes > limits.max_header_bytes {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "request/headers_too_large",
            format!(
                "the request line and headers are {header_bytes} bytes; at most {} are read",
                limits.max_header_bytes
            ),
        )
        .into_response();
    }
    match tokio::time::timeout(limits.request_timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "request/timeout",
            format!(
                "the request was not complete within {} s",
                limits.request_timeout.as_secs_f64()
            ),
        )
        .into_response(),
    }
}

/// The socket under hyper, watching request heads: a head that grows past `limit` bytes
/// without ending is answered `431 request/headers_too_large` with the JSON body, and the
/// connection ends (hyper itself would answer such a head with an empty 431).
///
/// A head starts the connection and after each response; it ends at the blank line. Once
/// the server answers `101 Switching Protocols`, the bytes are a WebSocket's and pass.
struct HeadLimit {
    tcp: TcpStream,
    limit: usize,
    /// Bytes of the current head so far; `None` between a head's end and the response.
    head: Option<usize>,
    /// The last bytes of the head read so far, to find `\r\n\r\n` across reads.
    tail: u32,
    upgraded: bool,
    /// The 431 answer being written, and how much of it is out.
    refusing: Option<(Vec<u8>, usize)>,
}

impl HeadLimit {
    fn new(tcp: TcpStream, limit: usize) -> HeadLimit {
        HeadLimit {
            tcp,
            limit,
            head: Some(0),
            tail: 0,
            upgraded: false,
            refusing: None,
        }
    }

    /// Counts `bytes` of a head; `true` when the head is over the limit.
    fn over(&mut self, bytes: &[u8]) -> bool {
        let Some(mut len) = self.head else {
            return false;
        };
        for &b in bytes {
            len += 1;
            self.tail = (self.tail << 8) | u32::from(b);
            if self.tail == u32::from_be_bytes(*b"\r\n\r\n") {
                self.head = None;
                return false;
            }
        }
        self.head = Some(len);
        len > self.limit
    }

    fn refusal(&self) -> Vec<u8> {
        let body = serde_json::to_string(
            &ApiError::new(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "request/headers_too_large",
                format!(
                    "the request line and headers are over {} bytes; they were not read",
                    self.limit
                ),
            )
            .body(),
        )
        .unwrap_or_default();
        format!(
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n{}connection: close\r\n\r\n{body}",
            body.len(),
            crate::headers::raw_lines()
        )
        .into_bytes()
    }

    /// Writes the 431 answer; ready once all of it is out (or the peer is gone).
    fn poll_refuse(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        use std::task::Poll;
        let tcp = std::pin::Pin::new(&mut self.tcp);
        let Some((answer, sent)) = self.refusing.as_mut() else {
            return Poll::Ready(());
        };
        let mut tcp = tcp;
        while *sent < answer.len() {
            match tokio::io::AsyncWrite::poll_write(tcp.as_mut(), cx, &answer[*sent..]) {
                Poll::Ready(Ok(0)) | Poll::Ready(Err(_)) => return Poll::Ready(()),
                Poll::Ready(Ok(n)) => *sent += n,
                Poll::Pending => return Poll::Pending,
            }
        }
        let _ = tokio::io::AsyncWrite::poll_flush(tcp, cx);
        Poll::Ready(())
    }
}

impl tokio::io::AsyncRead for HeadLimit {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let this = self.get_mut();
        if this.refusing.is_some() {
            // Answered: hyper sees the end of the stream and closes without a word.
            return this.poll_refuse(cx).map(Ok);
        }
        let start = buf.filled().len();
        match std::pin::Pin::new(&mut this.tcp).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        if this.upgraded || !this.over(&buf.filled()[start..]) {
            return Poll::Ready(Ok(()));
        }
        buf.set_filled(start);
        this.refusing = Some((this.refusal(), 0));
        this.poll_refuse(cx).map(Ok)
    }
}

impl tokio::io::AsyncWrite for HeadLimit {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        data: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.head.is_none() && !this.upgraded {
            // A response starts: the next request's head follows it.
            this.upgraded = data.starts_with(b"HTTP/1.1 101");
            this.head = Some(0);
            this.tail = 0;
        }
        std::pin::Pin::new(&mut this.tcp).poll_write(cx, data)
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.head.is_none() && !this.upgraded {
            this.upgraded = bufs
                .iter()
                .find(|b| !b.is_empty())
                .is_some_and(|b| b.starts_with(b"HTTP/1.1 101"));
            this.head = Some(0);
            this.tail = 0;
        }
        std::pin::Pin::new(&mut this.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}

/// Answers a connection over the limit `503 server/busy` and closes it.
async fn refuse(mut tcp: TcpStream) {
    let body = serde_json::to_string(
        &ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "server/busy",
            "the server has as many connections as it serves; try again in a moment",
        )
        .body(),
    )
    .unwrap_or_default();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\n{}connection: close\r\n\r\n{body}",
        body.len(),
        crate::headers::raw_lines()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        // Read what the request sent so far, so that closing does not reset the answer.
        let mut scratch = [0u8; 1024];
        let _ = tokio::time::timeout(Duration::from_millis(100), tcp.read(&mut scratch)).await;
        let _ = tcp.write_all(answer.as_bytes()).await;
        let _ = tcp.shutdown().await;
    })
    .await;
}
