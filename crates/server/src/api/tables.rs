//! Tables: made, listed, read, joined, their records and rematches.

use super::accounts::MaybeAccount;
use super::extract::*;
use super::ratings::RatingCache;

/// The most tables one lobby page lists, and how many when `limit` is not given.
pub(super) const PAGE_MAX: u32 = 100;

pub(super) const PAGE_DEFAULT: u32 = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateTable {
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
    table: Option<crate::domain::TableRules>,
    /// A rated table (docs/accounts.md).
    #[serde(default)]
    rated: bool,
    /// The seat a signed-in creator takes (0-based); by default the first human seat no
    /// account is named for.
    #[serde(default)]
    seat: Option<Seat>,
}

#[derive(Serialize)]
pub(crate) struct SeatOut {
    seat: Seat,
    /// `human` or the bot spec.
    player: String,
    /// The name people read: the one given, or "Seat N" counted from 1.
    name: String,
    /// The account that owns the seat (its name), if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<String>,
    /// The shown rating at this game (docs/accounts.md) of the seat's account, or the
    /// bot's fixed one; none for a guest or an open seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<i64>,
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
    series: Option<crate::domain::Series>,
    /// The table's own rules (clock, take-over bot), with their defaults.
    table: TableRulesOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<Seat>,
    /// Why the table is paused (nobody has been at it for the away time), while it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    paused: Option<String>,
    /// A finished table's winners: the seats in first place (more than one for a shared
    /// win).
    #[serde(skip_serializing_if = "Option::is_none")]
    winners: Option<Vec<Seat>>,
}

/// The seats in first place at a finished `table` (`None` before its end).
async fn winners(table: &Table) -> Option<Vec<Seat>> {
    let (status, outcome) = table.outcome().await;
    if status != Status::Finished {
        return None;
    }
    let outcome = outcome?;
    Some(
        (outcome.places.iter().enumerate())
            .filter(|(_, &place)| place == 0)
            .map(|(seat, _)| seat)
            .collect(),
    )
}

pub(super) fn table_out(
    row: &GameRow,
    seats: &[SeatRow],
    tokens: Option<&[Option<String>]>,
) -> TableOut {
    TableOut {
        id: row.id.clone(),
        game: row.game.clone(),
        options: row.config.clone(),
        seed_chosen: row.seed_chosen,
        status: row.status,
        created: row.created,
        open_seats: crate::domain::open_seats(seats),
        rematch: row.rematch.clone(),
        series: row.series.clone(),
        table: TableRulesOut::new(&row.rules, seats),
        seats: seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let token = tokens.and_then(|t| t.get(seat).cloned().flatten());
                SeatOut {
                    seat,
                    player: s.player.to_string(),
                    name: s.display(seat),
                    account: s.account.as_ref().map(|_| s.display(seat)),
                    rating: None,
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
        winners: None,
    }
}

/// Puts each seat's rating in `out` (read through `cache`, shared by one answer's tables).
async fn add_ratings(hub: &Hub, out: &mut TableOut, seats: &[SeatRow], cache: &mut RatingCache) {
    let ratings = cache.seats(hub, &out.game, seats).await;
    for (seat, rating) in out.seats.iter_mut().zip(ratings) {
        seat.rating = rating;
    }
}

/// A table's rules as the API shows them: every field, defaults included.
#[derive(Serialize)]
pub(crate) struct TableRulesOut {
    clock: Option<crate::domain::Clock>,
    on_timeout: crate::domain::OnTimeout,
    takeover: String,
    away_seconds: u64,
    /// Whether a seated player may ask for a hint on its turn.
    hints: bool,
    /// A rated table: its result moves its players' ratings.
    rated: bool,
}

pub(crate) async fn create_table(
    State(hub): Hubs,
    client: Option<Extension<ClientAddr>>,
    MaybeAccount(who): MaybeAccount,
    Body(request): Body<CreateTable>,
) -> Result<Response, ApiError> {
    hub.count_create(client.and_then(|Extension(c)| c.0))?;
    let mut rules = request.table.unwrap_or_default();
    rules.rated |= request.rated;
    let creator = crate::domain::Creator {
        account: who.map(|w| w.account),
        seat: request.seat,
    };
    let (table, tokens) = hub
        .create(
            &request.game,
            request.options,
            request.seed,
            request.seats,
            Some(rules),
            creator,
        )
        .await?;
    let mut out = table_out(&table.row, &table.seats(), Some(&tokens));
    add_ratings(&hub, &mut out, &table.seats(), &mut RatingCache::default()).await;
    out.version = Some(0);
    out.to_act = table.glance().await.to_act;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

pub(crate) async fn list_tables(
    State(hub): Hubs,
    query: Params,
) -> Result<Json<Vec<TableOut>>, ApiError> {
    let statuses = match query.get("status") {
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
    let limit = match query.get("limit") {
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
    let game = match query.get("game") {
        None => None,
        Some(name) => Some(catalog::game(name.trim())?.name().to_string()),
    };
    let before = match query.get("before") {
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
    let page = crate::domain::Page {
        statuses,
        game,
        before,
        limit,
    };
    let rows = hub.store().page(&page).await.map_err(ApiError::internal)?;
    let mut list = Vec::with_capacity(rows.len());
    let mut cache = RatingCache::default();
    for r in &rows {
        let mut out = table_out(r, &r.seats, None);
        add_ratings(&hub, &mut out, &r.seats, &mut cache).await;
        out.paused = hub.paused_reason(&r.id);
        if r.status == Status::Finished {
            // A finished table is read once, then kept among the ended tables.
            if let Ok(table) = hub.table(&r.id).await {
                out.winners = winners(&table).await;
            }
        }
        list.push(out);
    }
    Ok(Json(list))
}

pub(crate) async fn get_table(
    State(hub): Hubs,
    Path(id): Path<String>,
) -> Result<Json<TableOut>, ApiError> {
    let table = hub.table(&id).await?;
    let glance = table.glance().await;
    let mut out = table_out(&table.row, &table.seats(), None);
    add_ratings(&hub, &mut out, &table.seats(), &mut RatingCache::default()).await;
    out.rematch = table.rematch();
    out.status = glance.status;
    out.version = Some(glance.version);
    out.to_act = glance.to_act;
    out.paused = glance.paused;
    out.winners = winners(&table).await;
    Ok(Json(out))
}

/// A finished game's record and result.
#[derive(Serialize)]
pub(super) struct RecordOut {
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

/// `POST …/seats/{n}/join`: an optional name.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct Join {
    #[serde(default)]
    name: Option<String>,
}

/// A seat taken: its token and the link that opens its view.
#[derive(Serialize)]
pub(super) struct Joined {
    table: String,
    seat: Seat,
    name: String,
    token: String,
    invite: String,
}

pub(crate) async fn join(
    State(hub): Hubs,
    Path((id, seat)): Path<(String, String)>,
    MaybeAccount(who): MaybeAccount,
    MaybeBody(request): MaybeBody<Join>,
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
    let name = request
        .name
        .as_deref()
        .map(crate::domain::display_name)
        .transpose()?;
    let account = who.map(|w| w.account);
    let token = hub.join(&table, seat, name, account.as_ref()).await?;
    Ok((
        StatusCode::CREATED,
        Json(Joined {
            table: table.row.id.clone(),
            seat,
            name: table.display_names()[seat].clone(),
            invite: format!("/play/{}?token={token}", table.row.id),
            token,
        }),
    )
        .into_response())
}

/// The rematch as one player sees it: the new table, the seat and its token.
#[derive(Serialize)]
pub(super) struct RematchOut {
    table: String,
    seat: Seat,
    token: String,
    invite: String,
    series: Option<crate::domain::Series>,
}

pub(crate) async fn rematch(
    State(hub): Hubs,
    Seated { table, seat, .. }: Seated<MaybeBody<NoFields>>,
) -> Result<Response, ApiError> {
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

impl TableRulesOut {
    fn new(r: &crate::domain::TableRules, seats: &[SeatRow]) -> Self {
        TableRulesOut {
            clock: r.clock,
            on_timeout: r.on_timeout,
            takeover: r.takeover.clone(),
            away_seconds: r.away_seconds,
            hints: !r.rated && r.hints_on(seats),
            rated: r.rated,
        }
    }
}
