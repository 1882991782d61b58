//! Tournaments over HTTP (docs/http-api.md, Tournaments; docs/accounts.md): the list, one
//! tournament with its pairings and standings, making one, joining, leaving and starting.

use super::accounts::{Account, MaybeAccount};
use super::extract::*;
use crate::domain::{
    is_bye, BoardResult, Format, NewTournament, TableRules, TournamentRow, TournamentState, POINT,
};

/// `POST /api/tournaments`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateTournament {
    name: String,
    game: String,
    format: Format,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    table_size: Option<u32>,
    #[serde(default)]
    max_players: Option<u32>,
    #[serde(default)]
    options: Option<serde_json::Value>,
    #[serde(default)]
    table: Option<TableRules>,
    #[serde(default)]
    fill: Option<String>,
    #[serde(default)]
    rated: bool,
}

/// A tournament in the list.
#[derive(Serialize)]
pub(crate) struct TournamentLine {
    id: String,
    name: String,
    game: String,
    format: String,
    status: String,
    /// The rounds it plays (a round robin's: 0 until it starts).
    rounds: u32,
    table_size: u32,
    players: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_players: Option<u32>,
}

fn line(row: &TournamentRow) -> TournamentLine {
    TournamentLine {
        id: row.id.clone(),
        name: row.name.clone(),
        game: row.game.clone(),
        format: row.format.clone(),
        status: row.status.clone(),
        rounds: row.rounds,
        table_size: row.table_size,
        players: row.players,
        max_players: (row.max_players > 0).then_some(row.max_players),
    }
}

/// One board of a round.
#[derive(Serialize)]
pub(crate) struct BoardOut {
    /// The table it is played at (none for a bye).
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<String>,
    /// Each seat's player, in seat order; `null` for a bot's seat.
    players: Vec<Option<String>>,
    bye: bool,
    /// Each seat's place once over (0 first).
    #[serde(skip_serializing_if = "Option::is_none")]
    places: Option<Vec<u8>>,
    abandoned: bool,
    over: bool,
}

#[derive(Serialize)]
pub(crate) struct RoundOut {
    /// Counted from 1, as people read it.
    round: usize,
    boards: Vec<BoardOut>,
    complete: bool,
}

/// One line of the standings.
#[derive(Serialize)]
pub(crate) struct StandingOut {
    /// 1 for the first (a rank people read).
    rank: usize,
    name: String,
    points: f64,
    buchholz: f64,
    sonneborn_berger: f64,
    wins: u32,
    played: u32,
    byes: u32,
}

/// A tournament with its players, rounds and standings.
#[derive(Serialize)]
pub(crate) struct TournamentOut {
    #[serde(flatten)]
    line: TournamentLine,
    creator: String,
    /// The bot that fills empty seats, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    fill: Option<String>,
    rated: bool,
    /// The players, in the order they joined.
    entrants: Vec<String>,
    pairings: Vec<RoundOut>,
    standings: Vec<StandingOut>,
    /// Whether the caller (signed in) is a player, and is its creator.
    joined: bool,
    is_creator: bool,
}

fn points(units: u64) -> f64 {
    units as f64 / POINT as f64
}

fn out(state: &TournamentState, me: Option<&str>) -> TournamentOut {
    let names: Vec<String> = state.data.entrants.iter().map(|e| e.name.clone()).collect();
    let creator = (state.data.entrants.iter())
        .find(|e| e.account == state.data.row.creator)
        .map(|e| e.name.clone())
        .unwrap_or_default();
    let pairings = (state.rounds.iter().zip(&state.tables).enumerate())
        .map(|(r, (round, tables))| RoundOut {
            round: r + 1,
            complete: round.complete(),
            boards: (round.boards.iter().enumerate())
                .map(|(b, board)| {
                    let result = round.results.get(b).cloned().flatten();
                    BoardOut {
                        table: tables.get(b).cloned().flatten(),
                        players: board
                            .iter()
                            .map(|s| s.and_then(|e| names.get(e).cloned()))
                            .collect(),
                        bye: is_bye(board),
                        over: is_bye(board) || result.is_some(),
                        abandoned: result == Some(BoardResult::Abandoned),
                        places: match result {
                            Some(BoardResult::Places(p)) => Some(p),
                            _ => None,
                        },
                    }
                })
                .collect(),
        })
        .collect();
    let standings = (state.standings.iter().enumerate())
        .map(|(i, s)| StandingOut {
            rank: i + 1,
            name: names.get(s.entrant).cloned().unwrap_or_default(),
            points: points(s.points),
            buchholz: points(s.buchholz),
            sonneborn_berger: points(s.sonneborn_berger),
            wins: s.wins,
            played: s.played,
            byes: s.byes,
        })
        .collect();
    TournamentOut {
        line: line(&state.data.row),
        creator,
        fill: state.settings.fill.clone(),
        rated: state.settings.table.rated,
        entrants: names,
        pairings,
        standings,
        joined: me.is_some_and(|me| state.data.entrants.iter().any(|e| e.account == me)),
        is_creator: me == Some(state.data.row.creator.as_str()),
    }
}

/// How many tournaments the list shows.
const LISTED: u32 = 100;

/// `GET /api/tournaments`: the newest first.
pub(crate) async fn list_tournaments(
    State(hub): Hubs,
) -> Result<Json<Vec<TournamentLine>>, ApiError> {
    let rows = (hub.store().tournaments(LISTED).await).map_err(ApiError::internal)?;
    Ok(Json(rows.iter().map(line).collect()))
}

/// `POST /api/tournaments`: the caller makes one, and is its first player.
pub(crate) async fn create_tournament(
    State(hub): Hubs,
    Account(who): Account,
    Body(asked): Body<CreateTournament>,
) -> Result<Response, ApiError> {
    let state = hub
        .create_tournament(
            &who.account,
            NewTournament {
                name: asked.name,
                game: asked.game,
                format: asked.format,
                rounds: asked.rounds,
                table_size: asked.table_size,
                max_players: asked.max_players,
                options: asked.options,
                table: asked.table,
                fill: asked.fill,
                rated: asked.rated,
            },
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(out(&state, Some(&who.account.id))),
    )
        .into_response())
}

/// `GET /api/tournaments/{id}`. A running tournament is moved on first (a table that
/// ended while no server could), so the answer is as far as it can be.
pub(crate) async fn get_tournament(
    State(hub): Hubs,
    MaybeAccount(who): MaybeAccount,
    Path(id): Path<String>,
) -> Result<Json<TournamentOut>, ApiError> {
    let state = hub.tournament_state(&id).await?;
    let state = if state.data.row.status == "running" {
        hub.advance_tournament(&id).await?;
        hub.tournament_state(&id).await?
    } else {
        state
    };
    Ok(Json(out(
        &state,
        who.as_ref().map(|w| w.account.id.as_str()),
    )))
}

/// `POST /api/tournaments/{id}/join`.
pub(crate) async fn join_tournament(
    State(hub): Hubs,
    Account(who): Account,
    Path(id): Path<String>,
) -> Result<Json<TournamentOut>, ApiError> {
    let state = hub.join_tournament(&id, &who.account).await?;
    Ok(Json(out(&state, Some(&who.account.id))))
}

/// `DELETE /api/tournaments/{id}/join`: leave before it starts.
pub(crate) async fn leave_tournament(
    State(hub): Hubs,
    Account(who): Account,
    Path(id): Path<String>,
) -> Result<Json<TournamentOut>, ApiError> {
    let state = hub.leave_tournament(&id, &who.account).await?;
    Ok(Json(out(&state, Some(&who.account.id))))
}

/// `POST /api/tournaments/{id}/start`: its creator starts it.
pub(crate) async fn start_tournament(
    State(hub): Hubs,
    Account(who): Account,
    Path(id): Path<String>,
) -> Result<Json<TournamentOut>, ApiError> {
    let state = hub.start_tournament(&id, &who.account).await?;
    Ok(Json(out(&state, Some(&who.account.id))))
}
