//! What every handler shares: bodies and tokens read from a request, and the answers
//! for a wrong path or method.

pub(super) use super::error::ApiError;
pub(super) use crate::conn::ConnectionPermit;
pub(super) use crate::domain::truncate;
pub(super) use crate::domain::{By, Hub, Table};
pub(super) use crate::domain::{ChatRow, GameRow, SeatRow, Status};
pub(super) use axum::body::Bytes;
pub(super) use axum::extract::rejection::BytesRejection;
pub(super) use axum::extract::ws::rejection::WebSocketUpgradeRejection;
pub(super) use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
pub(super) use axum::extract::{ConnectInfo, Path, State};
pub(super) use axum::http::{HeaderMap, StatusCode};
pub(super) use axum::response::{IntoResponse, Response};
pub(super) use axum::Extension;
pub(super) use axum::Json;
pub(super) use engine::{GameRecord, Seat, Viewer};
pub(super) use futures_util::SinkExt;
pub(super) use serde::{Deserialize, Serialize};
pub(super) use std::net::{IpAddr, SocketAddr};
pub(super) use std::sync::Arc;
pub(super) use tokio::sync::broadcast::error::{RecvError, TryRecvError};

/// The largest request body accepted (a bigger one gets `request/too_large`).
pub const MAX_BODY: usize = 64 * 1024;

pub(super) type Hubs = State<Arc<Hub>>;

pub(super) fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "request/too_large",
        format!("the request body is larger than {MAX_BODY} bytes"),
    )
}

/// Answers `413 request/too_large` at once, before reading a byte of the body, when the
/// request's `Content-Length` is over [`MAX_BODY`] (instead of waiting for a body that may
/// never come). The connection closes after the answer: the body is left unread.
pub(crate) async fn declared_too_large(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        let mut response = too_large().into_response();
        response.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return response;
    }
    next.run(request).await
}

/// Parses a JSON body, mapping every failure to a coded 4xx.
pub(super) fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::malformed(truncate(&rejection.body_text(), 300))
        }
    })?;
    // A struct would also be read from a JSON array of its fields.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::malformed(
            "bad JSON body: a body is a JSON object",
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::malformed(format!("bad JSON body: {}", truncate(&e.to_string(), 300)))
    })
}

/// Parses a body that may be left out: an empty one (or only white space) is
/// `T::default()`; anything else must be the JSON `T` reads, or the call is refused.
pub(super) fn parse_optional_body<T: serde::de::DeserializeOwned + Default>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    match &body {
        Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(T::default()),
        _ => parse_body(body),
    }
}

/// The body of calls that take nothing (`back`, `rematch`): none, or `{}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct NoFields {}

/// The query string's pairs, decoded by axum's `Query` (percent-escapes, `+` for a space);
/// a query that does not decode is `request/malformed`.
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    /// The value of the first `key=` pair.
    pub(crate) fn get(&self, key: &str) -> Option<String> {
        (self.0.iter())
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Params, ApiError> {
        axum::extract::Query::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(pairs)| Params(pairs))
            .map_err(|e| ApiError::malformed(truncate(&e.body_text(), 300)))
    }
}

/// A viewer's state as its JSON text ([`Table::state_json`]: the socket's serializer).
pub(crate) struct StateJson(pub(super) String);

impl IntoResponse for StateJson {
    fn into_response(self) -> Response {
        (
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            self.0,
        )
            .into_response()
    }
}

/// The token of a request: `Authorization: Bearer TOKEN` (the scheme in any case, as
/// RFC 9110 has it), or `?token=TOKEN`.
pub(crate) fn token(headers: &HeaderMap, query: &Params) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim_start().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string())
        .or_else(|| query.get("token"))
}

pub(super) async fn seat_of(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    query: &Params,
) -> Result<(Arc<Table>, Seat), ApiError> {
    let table = hub.table(id).await?;
    let token = token(headers, query).ok_or_else(ApiError::token_required)?;
    let seat = authenticate(hub, &table, &token).await?;
    // A player heard from takes back a seat a bot was playing for it.
    hub.seen(&table, seat).await?;
    Ok((table, seat))
}

/// The seat whose token this is; a table with open seats reads its seats again before
/// refusing (another server may have seated the player).
pub(super) async fn authenticate(
    hub: &Arc<Hub>,
    table: &Arc<Table>,
    token: &str,
) -> Result<Seat, ApiError> {
    match table.authenticate(token) {
        Err(e) if !table.open_seats().is_empty() => {
            hub.refresh(table).await?;
            Ok(table.authenticate(token).map_err(|_| e)?)
        }
        found => Ok(found?),
    }
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "request/not_found",
        "no such route; see docs/http-api.md",
    )
}

pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "request/method",
        "this route does not take this method; see docs/http-api.md",
    )
}

/// `?since=V`: the version the client last received.
pub(super) fn since(query: &Params) -> Result<Option<u64>, ApiError> {
    query
        .get("since")
        .map(|v| {
            v.trim().parse::<u64>().map_err(|_| {
                ApiError::malformed(format!(
                    "since must be a table version (a whole number from 0), not `{}`",
                    truncate(&v, 40)
                ))
            })
        })
        .transpose()
}

/// The client's address, as [`client_addr`] found it (`None` without a socket, as in
/// tests that call the router directly).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub Option<IpAddr>);

/// Finds the client's address: the socket's peer, or with `--trust-forwarded` the last
/// address of `X-Forwarded-For` (the one the proxy in front of this server added).
pub(crate) async fn client_addr(
    State(hub): Hubs,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let forwarded = hub
        .limits()
        .trust_forwarded
        .then(|| {
            request
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back()
        })
        .flatten();
    request
        .extensions_mut()
        .insert(ClientAddr(forwarded.or(peer)));
    next.run(request).await
}
