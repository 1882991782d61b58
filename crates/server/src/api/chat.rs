//! The table's chat over HTTP.

use super::extract::*;

/// `POST …/chat`: a line, and a name when sent without a seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ChatIn {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

pub(crate) async fn post_chat(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Params,
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

/// A table's chat lines kept (the last [`crate::domain::CHAT_KEPT`]), from `?since=` on, as
/// the seat of the token (if one is given) reads them: the table's notes about that seat
/// in the second person.
#[derive(Serialize)]
pub(super) struct ChatOut {
    lines: Vec<ChatRow>,
}

pub(crate) async fn get_chat(
    State(hub): Hubs,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Params,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let viewer = match token(&headers, &query) {
        Some(token) => Viewer::Seat(authenticate(&hub, &table, &token).await?),
        None => Viewer::Spectator,
    };
    let lines = table
        .chat_lines(since(&query)?.unwrap_or(0))
        .into_iter()
        .map(|line| table.told_to(line, viewer))
        .collect();
    Ok(Json(ChatOut { lines }).into_response())
}
