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
pub(super) use axum::extract::{
    ConnectInfo, FromRequest, FromRequestParts, Path, RawPathParams, Request, State,
};
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
pub(crate) struct NoFields {}

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

/// A request's body, read as the JSON object `T`: every failure is a coded
/// `request/malformed` (or `request/too_large`), never axum's own text.
pub(crate) struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        parse_body(Bytes::from_request(request, state).await).map(Body)
    }
}

/// A body that may be left out: empty (or only white space) is `T::default()`; anything
/// else must be the JSON object `T` reads, as [`Body`].
pub(crate) struct MaybeBody<T>(pub T);

impl<T, S> FromRequest<S> for MaybeBody<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<MaybeBody<T>, ApiError> {
        parse_optional_body(Bytes::from_request(request, state).await).map(MaybeBody)
    }
}

/// No body read (a `GET`).
pub(crate) struct NoBody;

impl<S: Send + Sync> FromRequest<S> for NoBody {
    type Rejection = ApiError;

    async fn from_request(_: Request, _: &S) -> Result<NoBody, ApiError> {
        Ok(NoBody)
    }
}

/// Who a call speaks for at the table its path names (`{id}`): the seat whose token it
/// carries (`Authorization: Bearer TOKEN`, the scheme in any case as RFC 9110 has it, or
/// `?token=TOKEN`), else the seat owned by the account its session cookie signs in, else
/// a spectator; with its body `B`. The one place a token becomes a
/// viewer. A seat's call is its player heard from (the presence docs/http-api.md
/// describes: a bot playing for the seat hands it back, a paused table goes on), and
/// only once the body is read: a refused call changes nothing.
pub(crate) struct Caller<B = NoBody> {
    pub table: Arc<Table>,
    pub viewer: Viewer,
    pub body: B,
}

/// A call that a seat's token must make (`auth/required` without one), with its body `B`:
/// as [`Caller`].
pub(crate) struct Seated<B = NoBody> {
    pub table: Arc<Table>,
    pub seat: Seat,
    pub body: B,
}

impl<B> FromRequest<Arc<Hub>> for Caller<B>
where
    B: FromRequest<Arc<Hub>, Rejection = ApiError> + Send,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, hub: &Arc<Hub>) -> Result<Caller<B>, ApiError> {
        let (table, viewer, body) = call(request, hub, false).await?;
        Ok(Caller {
            table,
            viewer,
            body,
        })
    }
}

impl<B> FromRequest<Arc<Hub>> for Seated<B>
where
    B: FromRequest<Arc<Hub>, Rejection = ApiError> + Send,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, hub: &Arc<Hub>) -> Result<Seated<B>, ApiError> {
        match call(request, hub, true).await? {
            (table, Viewer::Seat(seat), body) => Ok(Seated { table, seat, body }),
            _ => Err(ApiError::token_required()),
        }
    }
}

/// The table a request's path names, who it speaks for (a seat's token is required when
/// `seated`) and its body; the seat's player is heard from once the body is read.
async fn call<B>(
    request: Request,
    hub: &Arc<Hub>,
    seated: bool,
) -> Result<(Arc<Table>, Viewer, B), ApiError>
where
    B: FromRequest<Arc<Hub>, Rejection = ApiError>,
{
    let (mut parts, body) = request.into_parts();
    let params = RawPathParams::from_request_parts(&mut parts, hub)
        .await
        .map_err(|e| ApiError::malformed(truncate(&e.body_text(), 300)))?;
    let id = (params.iter())
        .find(|(key, _)| *key == "id")
        .map(|(_, id)| id.to_string())
        .ok_or_else(|| ApiError::internal("a table's route without {id}"))?;
    let query = Params::from_request_parts(&mut parts, hub).await?;
    let table = hub.table(&id).await?;
    let viewer = match token(&parts.headers, &query) {
        Some(token) => Viewer::Seat(authenticate(hub, &table, &token).await?),
        None => match owned_seat(hub, &table, &parts.headers).await? {
            Some(seat) => Viewer::Seat(seat),
            None if seated => return Err(ApiError::token_required()),
            None => Viewer::Spectator,
        },
    };
    let body = B::from_request(Request::from_parts(parts, body), hub).await?;
    if let Some(seat) = viewer.seat() {
        hub.seen(&table, seat).await?;
    }
    Ok((table, viewer, body))
}

/// The session cookie's name.
pub(crate) const COOKIE: &str = "tabletop_session";

/// The session id a request's cookie carries, if it carries one.
pub(crate) fn session_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// The seat of `table` that the account signed in by the request's session cookie owns,
/// if any (docs/accounts.md): an owned seat opens wherever its owner is signed in.
async fn owned_seat(
    hub: &Arc<Hub>,
    table: &Arc<Table>,
    headers: &HeaderMap,
) -> Result<Option<Seat>, ApiError> {
    let Some(id) = session_id(headers) else {
        return Ok(None);
    };
    if table.seats().iter().all(|s| s.account.is_none()) {
        return Ok(None);
    }
    let Some(who) = hub.signed_in(&id).await? else {
        return Ok(None);
    };
    Ok((table.seats().iter()).position(|s| s.account.as_deref() == Some(who.account.id.as_str())))
}

/// The token of a request (see [`Caller`]).
fn token(headers: &HeaderMap, query: &Params) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim_start().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string())
        .or_else(|| query.get("token"))
}

/// The seat whose token this is; a table with open seats reads its seats again before
/// refusing (another server may have seated the player).
async fn authenticate(hub: &Arc<Hub>, table: &Arc<Table>, token: &str) -> Result<Seat, ApiError> {
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
