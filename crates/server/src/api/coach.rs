//! The coach: a hint for the seat to act, a finished game's review, and its past moments.

use super::extract::*;
use crate::domain::ReviewStatus;

/// A hint: the version it is for and the coach's best moves, best first.
#[derive(Serialize)]
pub(super) struct HintOut {
    version: u64,
    moves: Vec<bots::Advice>,
    /// Whole seconds until this seat may ask for another hint (0: at once).
    wait: u64,
}

/// The seat of the token that asks about hints (spectators get none).
fn hint_seat(viewer: Viewer) -> Result<Seat, ApiError> {
    viewer.seat().ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "hint/not_seated",
            "hints are for the players at the table: a spectator gets none (ask with your seat's token)",
        )
    })
}

/// `GET …/hint`: how long the seat of the token waits before it may ask for a hint.
pub(crate) async fn hint_wait(
    State(hub): Hubs,
    Caller { table, viewer, .. }: Caller,
) -> Result<Response, ApiError> {
    let seat = hint_seat(viewer)?;
    Ok(Json(serde_json::json!({ "wait": hub.hint_wait(&table, seat) })).into_response())
}

/// `POST …/hint`: the coach's best moves (at most three) for the seat of the token, on
/// its turn, at a table made with hints.
pub(crate) async fn hint(
    State(hub): Hubs,
    Caller { table, viewer, .. }: Caller<MaybeBody<NoFields>>,
) -> Result<Response, ApiError> {
    let seat = hint_seat(viewer)?;
    let hint = hub.hint(&table, seat).await?;
    Ok(Json(HintOut {
        version: hint.version,
        moves: hint.moves,
        wait: hint.wait,
    })
    .into_response())
}

/// `GET …/review`: how far the review is, or the review.
pub(crate) async fn review(State(hub): Hubs, Path(id): Path<String>) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    match hub.review(&table).await? {
        ReviewStatus::Running { done, of } => Ok(Json(serde_json::json!({
            "status": "running",
            "done": done,
            "of": of,
        }))
        .into_response()),
        ReviewStatus::Done(text) => {
            let mut review: serde_json::Value =
                serde_json::from_str(&text).map_err(ApiError::internal)?;
            // The ending as the table names its seats (the stored one says "seat N").
            if let (Some(ending), Some(map)) = (table.ending().await, review.as_object_mut()) {
                map.insert(
                    "ending".into(),
                    serde_json::to_value(ending).map_err(ApiError::internal)?,
                );
            }
            Ok(Json(serde_json::json!({
                "status": "done",
                "names": table.display_names(),
                "review": review,
            }))
            .into_response())
        }
    }
}

/// `GET …/moments/{n}`: a finished game after its first `n` actions, as a seat saw it
/// (`?seat=S`, counted from 0) or a spectator, with the log of the action that led there
/// (the replay page steps through a game with it).
pub(crate) async fn moment(
    State(hub): Hubs,
    Path((id, version)): Path<(String, String)>,
    query: Params,
) -> Result<Response, ApiError> {
    let table = hub.table(&id).await?;
    let version: u64 = version.trim().parse().map_err(|_| {
        ApiError::malformed(format!(
            "`{}` is no move number (a whole number from 0)",
            truncate(&version, 20)
        ))
    })?;
    let viewer = match query.get("seat") {
        None => Viewer::Spectator,
        Some(seat) => Viewer::Seat(seat.trim().parse().map_err(|_| {
            ApiError::malformed(format!(
                "`seat` is a seat number counted from 0, not `{}`",
                truncate(&seat, 20)
            ))
        })?),
    };
    Ok(Json(table.moment(version, viewer).await?).into_response())
}
