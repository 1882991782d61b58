//! The table's chat over HTTP.

use super::extract::*;

/// `POST …/chat`: a line, and a name when sent without a seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChatIn {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

pub(crate) async fn post_chat(
    State(hub): Hubs,
    client: Option<Extension<ClientAddr>>,
    Caller {
        table,
        viewer,
        body: Body(request),
    }: Caller<Body<ChatIn>>,
) -> Result<Response, ApiError> {
    let line = hub
        .chat(
            &table,
            viewer.seat(),
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
    query: Params,
    Caller { table, viewer, .. }: Caller,
) -> Result<Response, ApiError> {
    let lines = table
        .chat_lines(since(&query)?.unwrap_or(0))
        .into_iter()
        .map(|line| table.told_to(line, viewer))
        .collect();
    Ok(Json(ChatOut { lines }).into_response())
}
