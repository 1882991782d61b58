//! The HTTP handlers and the WebSocket sessions (see docs/http-api.md).

use crate::conn::ConnectionPermit;
use crate::error::{truncate, ApiError};
use crate::hub::{By, Hub, Snapshot, Table};
use crate::store::{ChatRow, GameRow, SeatRow, Status};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use engine::{GameRecord, Seat, Viewer};
use futures_util::SinkExt;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

/// The largest request body accepted (a bigger one gets `request/too_large`).
pub const MAX_BODY: usize = 64 * 1024;

type Hubs = State<Arc<Hub>>;

fn too_large() -> ApiError {
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
fn parse_body<T: serde::de::DeserializeOwned>(
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
fn parse_optional_body<T: serde::de::DeserializeOwned + Default>(
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
struct NoFields {}

/// The query string as pairs, percent-decoded.
fn query_pairs(query: &Option<String>) -> Vec<(String, String)> {
    fn decode(text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    match hex {
                        Some(b) => {
                            out.push(b);
                            i += 2;
                        }
                        None => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(pair), String::new()),
        })
        .collect()
}

fn query_value(query: &Option<String>, key: &str) -> Option<String> {
    query_pairs(query)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The token of a request: `Authorization: Bearer TOKEN` (the scheme in any case, as
/// RFC 9110 has it), or `?token=TOKEN`.
pub(crate) fn token(headers: &HeaderMap, query: &Option<String>) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim_start().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string())
        .or_else(|| query_value(query, "token"))
}

async fn seat_of(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    query: &Option<String>,
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
async fn authenticate(hub: &Arc<Hub>, table: &Arc<Table>, token: &str) -> Result<Seat, ApiError> {
    match table.authenticate(token) {
        Err(e) if !table.open_seats().is_empty() => {
            hub.refresh(table).await?;
            table.authenticate(token).map_err(|_| e)
        }
        found => found,
    }
}

/// One game the server offers.
#[derive(Serialize)]
pub(crate) struct GameInfo {
    name: &'static str,
    /// The default options; a table may set any of them.
    options: serde_json::Value,
}

pub(crate) async fn list_games() -> Result<Json<Vec<GameInfo>>, ApiError> {
    let mut out = Vec::new();
    for name in catalog::GAMES {
        let game = catalog::game(name)?;
        out.push(GameInfo {
            name: game.name(),
            options: game.default_config(),
        });
    }
    Ok(Json(out))
}

/// One game described for people: its options in words and its printed components.
#[derive(Serialize)]
pub(crate) struct GameAbout {
    name: &'static str,
    #[serde(flatten)]
    about: engine::About,
}

/// `GET /api/games/{game}`: the game's options in words (labels, choices, defaults) and
/// its printed components, from the game's own crate; the web pages keep no copy.
pub(crate) async fn about_game(Path(name): Path<String>) -> Result<Json<GameAbout>, ApiError> {
    let game = catalog::game(&name)?;
    Ok(Json(GameAbout {
        name: game.name(),
        about: game.about(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTable {
    game: String,
    #[serde(default)]
    options: Option<serde_json::Value>,
    #[serde(default)]
    seed: Option<u64>,
    /// `"human"`, a bot spec, or `{"player": …, "name": …}` per seat.
    #[serde(default)]
    seats: Option<Vec<serde_json::Value>>,
    /// The table's own rules: clock, on timeout, take-over bot, away time.
    #[serde(default)]
    table: Option<crate::clock::TableRules>,
}

#[derive(Serialize)]
pub(crate) struct SeatOut {
    seat: Seat,
    /// `human` or the bot spec.
    player: String,
    /// The name people read: the one given, or "Seat N" counted from 1.
    name: String,
    /// The seat's secret (human seats, only in the create response).
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    /// A link that opens the seat's view (human seats, only in the create response).
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct TableOut {
    id: String,
    game: String,
    options: serde_json::Value,
    /// The creator chose the seed, so may know the hidden cards. The seed itself is only
    /// published in the record of a finished game.
    seed_chosen: bool,
    status: Status,
    created: i64,
    seats: Vec<SeatOut>,
    /// The seats nobody has taken yet (join them with `POST …/seats/{n}/join`).
    open_seats: Vec<Seat>,
    /// The id of this finished table's rematch, once asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: Option<String>,
    /// The series this table continues: the games before it and the wins by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    series: Option<crate::store::Series>,
    /// The table's own rules (clock, take-over bot), with their defaults.
    table: TableRulesOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<Seat>,
    /// Why the table is paused (nobody has been at it for the away time), while it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    paused: Option<String>,
}

fn table_out(row: &GameRow, seats: &[SeatRow], tokens: Option<&[Option<String>]>) -> TableOut {
    TableOut {
        id: row.id.clone(),
        game: row.game.clone(),
        options: row.config.clone(),
        seed_chosen: row.seed_chosen,
        status: row.status,
        created: row.created,
        open_seats: crate::hub::open_seats(seats),
        rematch: row.rematch.clone(),
        series: row.series.clone(),
        table: TableRulesOut::from(&row.rules),
        seats: seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let token = tokens.and_then(|t| t.get(seat).cloned().flatten());
                SeatOut {
                    seat,
                    player: s.player.to_string(),
                    name: s.display(seat),
                    invite: token
                        .as_ref()
                        .map(|t| format!("/play/{}?token={t}", row.id)),
                    token,
                }
            })
            .collect(),
        version: None,
        to_act: None,
        paused: None,
    }
}

/// A table's rules as the API shows them: every field, defaults included.
#[derive(Serialize)]
pub(crate) struct TableRulesOut {
    clock: Option<crate::clock::Clock>,
    on_timeout: crate::clock::OnTimeout,
    takeover: String,
    away_seconds: u64,
}

impl From<&crate::clock::TableRules> for TableRulesOut {
    fn from(r: &crate::clock::TableRules) -> Self {
        TableRulesOut {
            clock: r.clock,
            on_timeout: r.on_timeout,
            takeover: r.takeover.clone(),
            away_seconds: r.away_seconds,
        }
    }
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

pub(crate) async fn create_table(
    State(hub): Hubs,
    client: Option<Extension<ClientAddr>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: CreateTable = parse_body(body)?;
    hub.count_create(client.and_then(|Extension(c)| c.0))?;
    let (table, tokens) = hub
        .create(
            &request.game,
            request.options,
            request.seed,
            request.seats,
            request.table,
        )
        .await?;
    let mut out = table_out(&table.row, &table.seats(), Some(&tokens));
    out.version = Some(0);
    out.to_act = table.snapshot(Viewer::Spectator).await.to_act;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// The most tables one lobby page lists, and how many when `limit` is not given.
pub const PAGE_MAX: u32 = 100;
pub const PAGE_DEFAULT: u32 = 50;

pub(crate) async fn list_tables(
    State(hub): Hubs,
    RawQuery(query): RawQuery,
) -> Result<Json<Vec<TableOut>>, ApiError> {
    let statuses = match query_value(&query, "status") {
        None => vec![Status::Open, Status::Running],
        Some(text) => text
            .split(',')
            .map(|s| {
                Status::parse(s.trim()).ok_or_else(|| {
                    ApiError::malformed(format!(
                        "unknown status `{}`: expected open, running, finished or abandoned",
                        truncate(s, 40)
                    ))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let limit = match query_value(&query, "limit") {
        None => PAGE_DEFAULT,
        Some(text) => text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=PAGE_MAX).contains(n))
            .ok_or_else(|| {
                ApiError::malformed(format!(
                    "`limit` is a number from 1 to {PAGE_MAX}, not `{}`",
                    truncate(&text, 40)
                ))
            })?,
    };
    let game = match query_value(&query, "game") {
        None => None,
        Some(name) => Some(catalog::game(name.trim())?.name().to_string()),
    };
    let before = match query_value(&query, "before") {
        None => None,
        Some(id) => {
            let row = hub
                .store()
                .game(id.trim())
                .await
                .map_err(ApiError::internal)?
                .ok_or_else(|| {
                    ApiError::malformed(format!(
                        "`before` names no table: `{}` (pass the id of the last table of the page before)",
                        truncate(&id, 64)
                    ))
                })?;
            Some((row.created, row.id))
        }
    };
    let page = crate::store::Page {
        statuses,
        game,
        before,
        limit,
    };
    let rows = hub.store().page(&page).await.map_err(ApiError::internal)?;
    Ok(Json(
        rows.iter()
            .map(|r| {
                let mut out = table_out(r, &r.seats, None);
                out.paused = hub.paused_reason(&r.id);
                out
            })
            .collect(),
    ))
}

pub(crate) async fn get_table(
    State(hub): Hubs,
    Path(id): Path<String>,
) -> Result<Json<TableOut>, ApiError> {
    let table = hub.table(&id).await?;
    let snapshot = table.snapshot(Viewer::Spectator).await;
    let mut out = table_out(&table.row, &table.seats(), None);
    out.rematch = table.rematch();
    out.status = snapshot.status;
    out.version = Some(snapshot.version);
    out.to_act = snapshot.to_act;
    out.paused = snapshot.paused;
    Ok(Json(out))
}

pub(crate) async fn my_view(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Json<Snapshot>, ApiError> {
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    let since = since(&query)?;
    Ok(Json(table.snapshot_since(Viewer::Seat(seat), since).await))
}

/// `?since=V`: the version the client last received.
fn since(query: &Option<String>) -> Result<Option<u64>, ApiError> {
    query_value(query, "since")
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

/// A viewer's log of a table.
#[derive(Serialize)]
struct LogOut {
    version: u64,
    entries: Vec<engine::LogEntry>,
}

pub(crate) async fn log(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let viewer = match token(&headers, &query) {
        Some(token) => Viewer::Seat(authenticate(&hub, &table, &token).await?),
        None => Viewer::Spectator,
    };
    let (version, entries) = table.log(viewer, since(&query)?.unwrap_or(0)).await;
    Ok(Json(LogOut { version, entries }).into_response())
}

#[derive(Serialize)]
struct LegalOut {
    version: u64,
    to_act: Option<Seat>,
    legal: Vec<String>,
    moves: Vec<engine::LegalMove>,
}

pub(crate) async fn my_legal(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    let s = table.snapshot(Viewer::Seat(seat)).await;
    Ok(Json(LegalOut {
        version: s.version,
        to_act: s.to_act,
        legal: s.legal,
        moves: s.moves,
    })
    .into_response())
}

pub(crate) async fn spectate(
    State(hub): Hubs,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Snapshot>, ApiError> {
    let table = hub.table(&id).await?;
    let since = since(&query)?;
    // Someone is watching: a paused table goes on.
    hub.watch(&table, None).await;
    Ok(Json(table.snapshot_since(Viewer::Spectator, since).await))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Submit {
    action: String,
    version: u64,
}

pub(crate) async fn submit(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Snapshot>, ApiError> {
    // The body first: a refused call changes nothing (not even a seat taken back).
    let request: Submit = parse_body(body)?;
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    hub.count_action(&table, seat)?;
    hub.play(&table, seat, &request.action, request.version, By::Player)
        .await?;
    Ok(Json(table.snapshot(Viewer::Seat(seat)).await))
}

/// A finished game's record and result.
#[derive(Serialize)]
struct RecordOut {
    record: GameRecord,
    outcome: Option<engine::Outcome>,
    seats: Vec<String>,
    /// Each seat's display name.
    names: Vec<String>,
}

pub(crate) async fn record(State(hub): Hubs, Path(id): Path<String>) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let (actions, status, _) = table.progress().await;
    let (_, outcome) = table.outcome().await;
    if status != Status::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game/not_over",
            "the record is published once the game is over",
        ));
    }
    Ok(Json(RecordOut {
        record: table.record(&actions),
        outcome,
        seats: table.seats().iter().map(|s| s.player.to_string()).collect(),
        names: table.display_names(),
    })
    .into_response())
}

/// The body of `undo` and `resign`: the version the player saw (optional).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct TableMoveIn {
    #[serde(default)]
    version: Option<u64>,
}

async fn table_move_call(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    query: &Option<String>,
    body: Result<Bytes, BytesRejection>,
    text: impl FnOnce(Seat) -> String,
) -> Result<Json<Snapshot>, ApiError> {
    let request: TableMoveIn = parse_optional_body(body)?;
    let (table, seat) = seat_of(hub, id, headers, query).await?;
    hub.count_action(&table, seat)?;
    let version = match request.version {
        Some(v) => v,
        None => table.version().await,
    };
    hub.play(&table, seat, &text(seat), version, By::Player)
        .await?;
    Ok(Json(table.snapshot(Viewer::Seat(seat)).await))
}

/// `POST …/undo`: the token's seat takes back its last move.
pub(crate) async fn undo(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Snapshot>, ApiError> {
    table_move_call(&hub, &id, &headers, &query, body, |_| {
        engine::TableMove::Undo.to_string()
    })
    .await
}

/// `POST …/resign`: the token's seat resigns.
pub(crate) async fn resign(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Snapshot>, ApiError> {
    table_move_call(&hub, &id, &headers, &query, body, |seat| {
        engine::TableMove::Resign(seat).to_string()
    })
    .await
}

/// `POST …/back`: the token's player takes back its seat from the bot playing for it
/// (any call with the token does too).
pub(crate) async fn back(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Snapshot>, ApiError> {
    let NoFields {} = parse_optional_body(body)?;
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    Ok(Json(table.snapshot(Viewer::Seat(seat)).await))
}

/// `POST …/seats/{n}/join`: an optional name.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Join {
    #[serde(default)]
    name: Option<String>,
}

/// A seat taken: its token and the link that opens its view.
#[derive(Serialize)]
struct Seated {
    table: String,
    seat: Seat,
    name: String,
    token: String,
    invite: String,
}

pub(crate) async fn join(
    State(hub): Hubs,
    Path((id, seat)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let seat: Seat = seat.trim().parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "seat/not_found",
            format!(
                "`{}` is no seat number (seats in the API count from 0)",
                truncate(&seat, 20)
            ),
        )
    })?;
    let request: Join = parse_optional_body(body)?;
    let name = request
        .name
        .as_deref()
        .map(crate::hub::display_name)
        .transpose()?;
    let token = hub.join(&table, seat, name).await?;
    Ok((
        StatusCode::CREATED,
        Json(Seated {
            table: table.row.id.clone(),
            seat,
            name: table.display_names()[seat].clone(),
            invite: format!("/play/{}?token={token}", table.row.id),
            token,
        }),
    )
        .into_response())
}

/// `POST …/chat`: a line, and a name when sent without a seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatIn {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

pub(crate) async fn post_chat(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    client: Option<Extension<ClientAddr>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let seat = match token(&headers, &query) {
        Some(token) => Some(authenticate(&hub, &table, &token).await?),
        None => None,
    };
    let request: ChatIn = parse_body(body)?;
    let line = hub
        .chat(
            &table,
            seat,
            request.name.as_deref(),
            client.and_then(|Extension(c)| c.0),
            &request.text,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(line)).into_response())
}

/// A table's chat lines kept (the last [`crate::hub::CHAT_KEPT`]), from `?since=` on.
#[derive(Serialize)]
struct ChatOut {
    lines: Vec<ChatRow>,
}

pub(crate) async fn get_chat(
    State(hub): Hubs,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let lines = table.chat_lines(since(&query)?.unwrap_or(0));
    Ok(Json(ChatOut { lines }).into_response())
}

/// The rematch as one player sees it: the new table, the seat and its token.
#[derive(Serialize)]
struct RematchOut {
    table: String,
    seat: Seat,
    token: String,
    invite: String,
    series: Option<crate::store::Series>,
}

pub(crate) async fn rematch(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let NoFields {} = parse_optional_body(body)?;
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    let (next, seat, token) = hub.rematch(&table, seat).await?;
    Ok(Json(RematchOut {
        table: next.row.id.clone(),
        seat,
        invite: format!("/play/{}?token={token}", next.row.id),
        token,
        series: next.row.series.clone(),
    })
    .into_response())
}

pub(crate) async fn websocket(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    Extension(pings): Extension<Pings>,
    permit: Option<Extension<ConnectionPermit>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let viewer = match token(&headers, &query) {
        Some(token) => Viewer::Seat(table.authenticate(&token)?),
        None => Viewer::Spectator,
    };
    let upgrade = upgrade.map_err(|e| {
        ApiError::malformed(format!("expected a WebSocket upgrade: {}", e.body_text()))
    })?;
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .write_buffer_size(SOCKET_WRITE_BUFFER)
        .max_write_buffer_size(SOCKET_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| async move {
            // The connection's permit lives as long as the socket.
            let _permit = permit;
            match viewer.seat() {
                Some(seat) => {
                    hub.socket(&table, seat, true).await;
                    if let Err(e) = hub.seen(&table, seat).await {
                        tracing::warn!("table {}: seat {seat} back: {e}", table.row.id);
                    }
                }
                None => hub.watch(&table, Some(true)).await,
            }
            session(hub.clone(), table.clone(), viewer, pings, socket).await;
            match viewer.seat() {
                Some(seat) => hub.socket(&table, seat, false).await,
                None => hub.watch(&table, Some(false)).await,
            }
        }))
}

/// A socket's read buffer. Client messages are small (an action is under 300 bytes);
/// tungstenite zero-fills its whole read buffer before every read, and its 128 KiB
/// default cost more CPU per move than anything else.
const SOCKET_READ_BUFFER: usize = 2 * 1024;
/// Frames are gathered up to this size until a flush (an `ack` and the `state` that
/// follows it leave in one write).
const SOCKET_WRITE_BUFFER: usize = 16 * 1024;
/// A client that does not read its socket is cut off when this much is waiting for it.
const SOCKET_MAX_WRITE_BUFFER: usize = 1024 * 1024;

/// How sockets are pinged (from [`crate::ConnectionLimits`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pings {
    pub interval: std::time::Duration,
    pub misses: u32,
}

/// What a client may send on its WebSocket (docs/http-api.md), decoded from one text
/// frame by [`ClientMessage::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// Play an action chosen on `version`.
    Action { action: String, version: u64 },
    /// Send the current view again.
    Sync,
}

/// Every field a client message may have; which of them a message needs goes by its
/// `type`. Read straight from the text (no `Value` tree): a socket reads one a move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MessageFields<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    action: Option<std::borrow::Cow<'a, str>>,
    version: Option<u64>,
}

impl ClientMessage {
    /// Parses one text frame; a field a message does not have is refused.
    ///
    /// # Errors
    /// `request/malformed`: not a JSON object, an unknown `type`, a missing or unknown
    /// field.
    pub fn parse(text: &str) -> Result<ClientMessage, ApiError> {
        let bad = |e: &dyn std::fmt::Display| {
            ApiError::malformed(format!("bad message: {}", truncate(&e.to_string(), 300)))
        };
        // A struct would also be read from a JSON array of its fields.
        if !text.trim_start().starts_with('{') {
            return Err(bad(&"a message is a JSON object"));
        }
        let fields: MessageFields = serde_json::from_str(text).map_err(|e| bad(&e))?;
        match fields.kind.as_deref() {
            Some("action") => match (fields.action, fields.version) {
                (Some(action), Some(version)) => Ok(ClientMessage::Action {
                    action: action.into_owned(),
                    version,
                }),
                (None, _) => Err(bad(&"missing field `action`")),
                (_, None) => Err(bad(&"missing field `version`")),
            },
            Some("sync") => match (&fields.action, &fields.version) {
                (None, None) => Ok(ClientMessage::Sync),
                (Some(_), _) => Err(bad(&"unknown field `action` in a sync message")),
                (_, Some(_)) => Err(bad(&"unknown field `version` in a sync message")),
            },
            _ => Err(bad(&"`type` is `action` or `sync`")),
        }
    }
}

/// What the server sends on a WebSocket. (The `state` message, the viewer's view after a
/// change and at once on connecting, is written by [`Table::state_message`].)
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage {
    /// An action sent on this socket was committed.
    Ack {
        version: u64,
    },
    Error {
        code: &'static str,
        message: String,
    },
    /// A new chat line.
    Chat {
        line: ChatRow,
    },
}

fn encode(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .unwrap_or_else(|_| "{\"type\":\"error\",\"code\":\"internal\"}".into())
            .into(),
    )
}

/// One socket: the viewer's `state` at once and after every change (with the events of
/// every action since the last one it sent), the viewer's actions played, and pings.
/// Queued frames leave in one write per wake-up (`feed`, then `flush`): a move's `ack` and
/// its `state` go out together.
async fn session(
    hub: Arc<Hub>,
    table: Arc<Table>,
    viewer: Viewer,
    pings: Pings,
    mut socket: WebSocket,
) {
    let mut changes = table.subscribe();
    let mut chat = table.subscribe_chat();
    // The version last sent; before the first push, the events of the last action.
    let mut sent = None;
    if !push_state(&table, viewer, &mut sent, &mut socket).await || socket.flush().await.is_err() {
        return;
    }
    let mut ping =
        tokio::time::interval_at(tokio::time::Instant::now() + pings.interval, pings.interval);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Pings sent since the client last sent anything.
    let mut unanswered = 0u32;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if unanswered >= pings.misses {
                    // A client that reads nothing may never take the close frame either.
                    let close = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: axum::extract::ws::close_code::AWAY,
                        reason: "no answer to pings".into(),
                    })));
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), close).await;
                    return;
                }
                unanswered += 1;
                if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    return;
                }
            }
            line = chat.recv() => match line {
                Ok(line) => {
                    if socket.send(encode(&ServerMessage::Chat { line })).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            change = changes.recv() => match change {
                Ok(_) | Err(RecvError::Lagged(_)) => {
                    // Every action since the last push is told, however many came at once.
                    if !push_state(&table, viewer, &mut sent, &mut socket).await
                        || socket.flush().await.is_err()
                    {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            message = socket.recv() => {
                unanswered = 0;
                let parsed = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(text))) => ClientMessage::parse(text.as_str()),
                    Some(Ok(Message::Binary(_))) => Err(ApiError::malformed(
                        "binary frames carry nothing here: send messages as JSON text",
                    )),
                    // Pings are answered by the WebSocket layer; pongs carry nothing.
                    Some(Ok(_)) => continue,
                };
                let reply = match parsed {
                    Err(e) => Err(e),
                    Ok(ClientMessage::Sync) => {
                        // Sent again even when nothing changed.
                        if !push_sync(&table, viewer, &mut sent, &mut socket).await
                            || socket.flush().await.is_err()
                        {
                            return;
                        }
                        continue;
                    }
                    Ok(ClientMessage::Action { action, version }) => match viewer.seat() {
                        None => Err(ApiError::token_required()),
                        Some(seat) => match hub.count_action(&table, seat) {
                            Ok(()) => hub.play(&table, seat, &action, version, By::Player).await,
                            Err(e) => Err(e),
                        },
                    },
                };
                let message = match reply {
                    Ok(played) => ServerMessage::Ack { version: played.version },
                    Err(e) => ServerMessage::Error { code: e.code, message: e.message },
                };
                if socket.feed(encode(&message)).await.is_err() {
                    return;
                }
                // The move's own change is already announced: its state goes out in the
                // same write as the ack.
                let pushed = match changes.try_recv() {
                    Ok(_) | Err(TryRecvError::Lagged(_)) => {
                        push_state(&table, viewer, &mut sent, &mut socket).await
                    }
                    Err(TryRecvError::Empty) => true,
                    Err(TryRecvError::Closed) => false,
                };
                if !pushed || socket.flush().await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Queues the viewer's `state` if the table moved on since the version sent last (with
/// the events since then); `false` when the socket failed.
async fn push_state(
    table: &Table,
    viewer: Viewer,
    sent: &mut Option<(u64, u64)>,
    socket: &mut WebSocket,
) -> bool {
    let (stamp, text) = table.state_message(viewer, sent.map(|s| s.0)).await;
    if *sent == Some(stamp) {
        return true;
    }
    *sent = Some(stamp);
    socket.feed(Message::Text(text)).await.is_ok()
}

/// Queues the viewer's `state` whether or not the table moved on (a `sync`).
async fn push_sync(
    table: &Table,
    viewer: Viewer,
    sent: &mut Option<(u64, u64)>,
    socket: &mut WebSocket,
) -> bool {
    let (stamp, text) = table.state_message(viewer, sent.map(|s| s.0)).await;
    *sent = Some(stamp);
    socket.feed(Message::Text(text)).await.is_ok()
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
