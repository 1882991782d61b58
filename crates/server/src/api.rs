//! The HTTP handlers and the WebSocket sessions (see docs/http-api.md).

use crate::error::{truncate, ApiError};
use crate::hub::{Hub, Snapshot, Table};
use crate::store::{GameRow, Status};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::{GameRecord, Seat, Viewer};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// The largest request body accepted (a bigger one gets `request/too_large`).
pub const MAX_BODY: usize = 64 * 1024;

type Hubs = State<Arc<Hub>>;

/// Parses a JSON body, mapping every failure to a coded 4xx.
fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "request/too_large",
                format!("the request body is larger than {MAX_BODY} bytes"),
            )
        } else {
            ApiError::malformed(truncate(&rejection.body_text(), 300))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::malformed(format!("bad JSON body: {}", truncate(&e.to_string(), 300)))
    })
}

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

/// The token of a request: `Authorization: Bearer TOKEN`, or `?token=TOKEN`.
fn token(headers: &HeaderMap, query: &Option<String>) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
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
    let seat = table.authenticate(&token)?;
    Ok((table, seat))
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
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<Seat>,
}

fn table_out(row: &GameRow, tokens: Option<&[Option<String>]>) -> TableOut {
    TableOut {
        id: row.id.clone(),
        game: row.game.clone(),
        options: row.config.clone(),
        seed_chosen: row.seed_chosen,
        status: row.status,
        created: row.created,
        seats: row
            .seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let token = tokens.and_then(|t| t.get(seat).cloned().flatten());
                SeatOut {
                    seat,
                    player: s.player.clone(),
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
    }
}

pub(crate) async fn create_table(
    State(hub): Hubs,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: CreateTable = parse_body(body)?;
    let (table, tokens) = hub
        .create(&request.game, request.options, request.seed, request.seats)
        .await?;
    let mut out = table_out(&table.row, Some(&tokens));
    out.version = Some(0);
    out.to_act = table.snapshot(Viewer::Spectator).await.to_act;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

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
                        "unknown status `{}`: expected open, running or finished",
                        truncate(s, 40)
                    ))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let rows = hub
        .store()
        .list(&statuses, 1000)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(rows.iter().map(|r| table_out(r, None)).collect()))
}

pub(crate) async fn get_table(
    State(hub): Hubs,
    Path(id): Path<String>,
) -> Result<Json<TableOut>, ApiError> {
    let table = hub.table(&id).await?;
    let snapshot = table.snapshot(Viewer::Spectator).await;
    let mut out = table_out(&table.row, None);
    out.status = snapshot.status;
    out.version = Some(snapshot.version);
    out.to_act = snapshot.to_act;
    Ok(Json(out))
}

pub(crate) async fn my_view(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Json<Snapshot>, ApiError> {
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    Ok(Json(table.snapshot(Viewer::Seat(seat)).await))
}

#[derive(Serialize)]
struct LegalOut {
    version: u64,
    to_act: Option<Seat>,
    legal: Vec<String>,
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
    })
    .into_response())
}

pub(crate) async fn spectate(
    State(hub): Hubs,
    Path(id): Path<String>,
) -> Result<Json<Snapshot>, ApiError> {
    let table = hub.table(&id).await?;
    Ok(Json(table.snapshot(Viewer::Spectator).await))
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
    let (table, seat) = seat_of(&hub, &id, &headers, &query).await?;
    let request: Submit = parse_body(body)?;
    hub.play(&table, seat, &request.action, request.version)
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
    let (actions, status, state) = table.progress().await;
    if status != Status::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game/not_over",
            "the record is published once the game is over",
        ));
    }
    Ok(Json(RecordOut {
        record: GameRecord {
            game: table.row.game.clone(),
            config: table.row.config.clone(),
            seed: table.row.seed,
            actions,
        },
        outcome: state.outcome(),
        seats: table.row.seats.iter().map(|s| s.player.clone()).collect(),
        names: table.names(),
    })
    .into_response())
}

pub(crate) async fn websocket(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
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
        .on_upgrade(move |socket| session(hub, table, viewer, socket)))
}

/// What a client may send on its WebSocket.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    /// Play an action chosen on `version`.
    Action { action: String, version: u64 },
    /// Send the current view again.
    Sync,
}

/// What the server sends on a WebSocket.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage<'a> {
    /// The viewer's view after a change (and at once on connecting).
    State(&'a Snapshot),
    /// An action sent on this socket was committed.
    Ack {
        version: u64,
    },
    Error {
        code: &'static str,
        message: String,
    },
}

fn encode(message: &ServerMessage<'_>) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .unwrap_or_else(|_| "{\"type\":\"error\",\"code\":\"internal\"}".into())
            .into(),
    )
}

async fn session(hub: Arc<Hub>, table: Arc<Table>, viewer: Viewer, socket: WebSocket) {
    let mut changes = table.subscribe();
    let (mut sink, mut stream) = socket.split();
    let first = table.snapshot(viewer).await;
    let mut sent = first.version;
    if sink
        .send(encode(&ServerMessage::State(&first)))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(_) | Err(RecvError::Lagged(_)) => {
                    let snapshot = table.snapshot(viewer).await;
                    if snapshot.version != sent {
                        sent = snapshot.version;
                        if sink.send(encode(&ServerMessage::State(&snapshot))).await.is_err() {
                            return;
                        }
                    }
                }
                Err(RecvError::Closed) => return,
            },
            message = stream.next() => {
                let text = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                };
                let reply = match serde_json::from_str::<ClientMessage>(text.as_str()) {
                    Err(e) => Err(ApiError::malformed(format!(
                        "bad message: {}",
                        truncate(&e.to_string(), 300)
                    ))),
                    Ok(ClientMessage::Sync) => {
                        let snapshot = table.snapshot(viewer).await;
                        sent = snapshot.version;
                        if sink.send(encode(&ServerMessage::State(&snapshot))).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Ok(ClientMessage::Action { action, version }) => match viewer.seat() {
                        None => Err(ApiError::token_required()),
                        Some(seat) => hub.play(&table, seat, &action, version).await,
                    },
                };
                let message = match reply {
                    Ok(played) => ServerMessage::Ack { version: played.version },
                    Err(e) => ServerMessage::Error { code: e.code, message: e.message },
                };
                if sink.send(encode(&message)).await.is_err() {
                    return;
                }
            }
        }
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
