//! Connections: the accept loop and its limits (docs/http-api.md, "Limits").
//!
//! Every accepted TCP connection holds one of `max_connections` permits for as long as it
//! lives, a WebSocket's for the whole session; a connection over the limit is answered
//! `503 server/busy` and closed. Headers must arrive within `header_timeout` (a silent or
//! half-sent request is closed), and a request must be answered within `request_timeout`
//! (`408 request/timeout`, body reading included). Sockets are pinged every
//! `ping_interval` and closed after `ping_misses` pings in a row got nothing back.

use crate::error::ApiError;
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
        }
    }
}

/// What hyper buffers of a header block at most; past it hyper itself answers a bare
/// 431. Below it, [`limit_requests`] answers 431 with a JSON body.
const HYPER_MAX_BUF: usize = 64 * 1024;

/// A connection's place under `max_connections`; a WebSocket session keeps a clone.
#[derive(Clone)]
pub struct ConnectionPermit(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

/// Serves `router` on `listener` under `limits` until `shutdown` completes.
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
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HYPER_MAX_BUF.max(limits.max_header_bytes + 1024));
    let router = router.layer(axum::middleware::from_fn_with_state(
        Arc::new(limits),
        limit_requests,
    ));
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
            () = &mut shutdown => return Ok(()),
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
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
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
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
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
