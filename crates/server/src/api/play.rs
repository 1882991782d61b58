//! Playing at a table: the seat's view, the log, legal moves, moves, undo, resign.

use super::extract::*;

pub(crate) async fn my_view(
    State(hub): Hubs,
    query: Params,
    Seated { table, seat, .. }: Seated,
) -> Result<StateJson, ApiError> {
    let since = since(&query)?;
    let json = table.state_json(Viewer::Seat(seat), since).await?;
    Ok(StateJson(snapshot(&hub, json)))
}

/// A snapshot as `GET` answers it: during a storage outage it says so first
/// (`"storage": "unavailable"`: moves are refused until it is back).
fn snapshot(hub: &Hub, json: String) -> String {
    let down = *hub.metrics().store_down.borrow();
    match json.strip_prefix('{') {
        Some(fields) if down => format!("{{\"storage\":\"unavailable\",{fields}"),
        _ => json,
    }
}

/// A viewer's log of a table.
#[derive(Serialize)]
pub(super) struct LogOut {
    version: u64,
    entries: Vec<engine::LogEntry>,
}

pub(crate) async fn log(
    query: Params,
    Caller { table, viewer, .. }: Caller,
) -> Result<Response, ApiError> {
    let (version, entries) = table.log(viewer, since(&query)?.unwrap_or(0)).await;
    Ok(Json(LogOut { version, entries }).into_response())
}

/// A viewer's board in plain text.
#[derive(Serialize)]
pub(super) struct BoardOut {
    version: u64,
    text: String,
}

/// `GET /api/tables/{id}/board`: the caller's board in plain text (a seat's with its
/// token, else a spectator's).
pub(crate) async fn board(Caller { table, viewer, .. }: Caller) -> Result<Response, ApiError> {
    let (version, text) = table.board_text(viewer).await;
    Ok(Json(BoardOut { version, text }).into_response())
}

#[derive(Serialize)]
pub(super) struct LegalOut {
    version: u64,
    to_act: Option<Seat>,
    legal: Vec<String>,
    moves: Vec<engine::LegalMove>,
}

pub(crate) async fn my_legal(Seated { table, seat, .. }: Seated) -> Result<Response, ApiError> {
    let s = table.legal_now(Viewer::Seat(seat)).await;
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
    query: Params,
) -> Result<StateJson, ApiError> {
    let table = hub.table(&id).await?;
    let since = since(&query)?;
    // Someone is watching: a paused table goes on.
    hub.watch(&table, None).await;
    let json = table.state_json(Viewer::Spectator, since).await?;
    Ok(StateJson(snapshot(&hub, json)))
}

/// The body of a move: `action`, or `actions` played in order as one decision (a trade
/// composed in one dialog), chosen on `version`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Submit {
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    actions: Option<Vec<String>>,
    version: u64,
}

pub(crate) async fn submit(
    State(hub): Hubs,
    Seated {
        table,
        seat,
        body: Body(request),
    }: Seated<Body<Submit>>,
) -> Result<StateJson, ApiError> {
    hub.count_action(&table, seat)?;
    match (request.action, request.actions) {
        (Some(action), None) => {
            // The move's text is read here, once: the table carries the move.
            let mv = hub.parse_move(&table, &action, request.version).await?;
            hub.play(&table, seat, &mv, request.version, By::Player)
                .await?;
        }
        (None, Some(actions)) => {
            hub.play_sequence(&table, seat, &actions, request.version)
                .await?;
        }
        _ => {
            return Err(ApiError::malformed(
                "a move has `action` (one move) or `actions` (a list played in order), not both",
            ))
        }
    }
    Ok(StateJson(table.state_json(Viewer::Seat(seat), None).await?))
}

/// The body of `undo` and `resign`: the version the player saw (optional).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct TableMoveIn {
    #[serde(default)]
    version: Option<u64>,
}

pub(super) async fn table_move_call(
    hub: &Arc<Hub>,
    Seated {
        table,
        seat,
        body: MaybeBody(request),
    }: Seated<MaybeBody<TableMoveIn>>,
    mv: impl FnOnce(Seat) -> engine::TableMove,
) -> Result<StateJson, ApiError> {
    hub.count_action(&table, seat)?;
    let version = match request.version {
        Some(v) => v,
        None => table.version().await,
    };
    hub.play(&table, seat, &mv(seat).into(), version, By::Player)
        .await?;
    Ok(StateJson(table.state_json(Viewer::Seat(seat), None).await?))
}

/// `POST …/undo`: the token's seat takes back its last move.
pub(crate) async fn undo(
    State(hub): Hubs,
    call: Seated<MaybeBody<TableMoveIn>>,
) -> Result<StateJson, ApiError> {
    table_move_call(&hub, call, |_| engine::TableMove::Undo).await
}

/// `POST …/resign`: the token's seat resigns.
pub(crate) async fn resign(
    State(hub): Hubs,
    call: Seated<MaybeBody<TableMoveIn>>,
) -> Result<StateJson, ApiError> {
    table_move_call(&hub, call, engine::TableMove::Resign).await
}

/// `POST …/back`: the token's player takes back its seat from the bot playing for it
/// (any call with the token does too).
pub(crate) async fn back(
    Seated { table, seat, .. }: Seated<MaybeBody<NoFields>>,
) -> Result<StateJson, ApiError> {
    Ok(StateJson(table.state_json(Viewer::Seat(seat), None).await?))
}
