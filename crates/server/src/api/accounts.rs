//! Accounts over HTTP (docs/accounts.md): signing up, in and out, the caller's own page
//! (`/api/me`), players' pages and leaderboards; the session cookie, and the Origin check
//! of every call a cookie may authenticate.

use super::extract::*;
use crate::domain::{shown_rating, ContactChange, Refusal, SignedIn, TableError};
use axum::http::{header, HeaderValue, Method};

/// The signed-in caller, required: `401 auth/signed_out` without a live session.
pub(crate) struct Account(pub SignedIn);

/// The signed-in caller, if there is one.
pub(crate) struct MaybeAccount(pub Option<SignedIn>);

impl FromRequestParts<Arc<Hub>> for MaybeAccount {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        hub: &Arc<Hub>,
    ) -> Result<MaybeAccount, ApiError> {
        Ok(MaybeAccount(match session_id(&parts.headers) {
            Some(id) => hub.signed_in(&id).await?,
            None => None,
        }))
    }
}

impl FromRequestParts<Arc<Hub>> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        hub: &Arc<Hub>,
    ) -> Result<Account, ApiError> {
        let MaybeAccount(who) = MaybeAccount::from_request_parts(parts, hub).await?;
        who.map(Account).ok_or_else(signed_out)
    }
}

fn signed_out() -> ApiError {
    TableError::new(
        Refusal::SignedOut,
        "this call needs a signed-in account: sign in (POST /api/session) first",
    )
    .into()
}

/// Whether the request reached this server over HTTPS as far as it can tell: always with
/// `--secure-cookies`, else when a trusted proxy says so (`X-Forwarded-Proto: https`).
fn secure(hub: &Hub, headers: &HeaderMap) -> bool {
    hub.limits().secure_cookies
        || (hub.limits().trust_forwarded
            && headers
                .get_all("x-forwarded-proto")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .next_back()
                .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https")))
}

/// The `Set-Cookie` value that keeps session `value` for `max_age` seconds (0 forgets it).
fn cookie(
    hub: &Hub,
    headers: &HeaderMap,
    value: &str,
    max_age: u64,
) -> Result<HeaderValue, ApiError> {
    let secure = if secure(hub, headers) { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"
    ))
    .map_err(|_| ApiError::internal("a session cookie that is no header value"))
}

/// Whether a request comes from another site's page: its `Origin` names another host than
/// the one it was sent to (or is `null`), or, with no `Origin`, the browser's
/// `Sec-Fetch-Site` says it is cross-site. A client that is no browser sends neither.
fn cross_origin(hub: &Hub, headers: &HeaderMap) -> bool {
    let forwarded = hub
        .limits()
        .trust_forwarded
        .then(|| {
            headers
                .get("x-forwarded-host")
                .and_then(|v| v.to_str().ok())
        })
        .flatten();
    let host = forwarded.or_else(|| headers.get(header::HOST).and_then(|v| v.to_str().ok()));
    match headers
        .get(header::ORIGIN)
        .map(|v| v.to_str().unwrap_or("null"))
    {
        Some(origin) => {
            let authority = origin
                .split_once("://")
                .map(|(_, rest)| rest.split('/').next().unwrap_or(""));
            match (authority, host) {
                (Some(authority), Some(host)) => !authority.eq_ignore_ascii_case(host.trim()),
                _ => true,
            }
        }
        None => headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|site| site != "same-origin" && site != "none"),
    }
}

/// Refuses, before any handler runs, a call that a session cookie may authenticate and
/// that comes from another site's page: a write (any method but GET, HEAD and OPTIONS) or
/// a WebSocket upgrade carrying the cookie, and a sign-up or sign-in. It answers
/// `403 auth/cross_origin` and nothing changes.
pub(crate) async fn check_origin(
    State(hub): Hubs,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let headers = request.headers();
    let write = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let upgrade = headers.contains_key(header::UPGRADE);
    let path = request.uri().path();
    let signs_in = path == "/api/session" || path == "/api/accounts";
    let with_cookie = session_id(headers).is_some() && (write || upgrade);
    if (with_cookie || (signs_in && write)) && cross_origin(&hub, headers) {
        return ApiError::from(TableError::new(
            Refusal::CrossOrigin,
            "this call carries the session cookie but comes from another site's page, so it was refused and nothing changed",
        ))
        .into_response();
    }
    next.run(request).await
}

/// A name and a password (sign up, sign in). No `Debug`: the password is never printed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

/// Who is signed in: the name only.
#[derive(Serialize)]
struct SignedInOut {
    name: String,
}

/// The answer to a sign-up or sign-in: the name, and the session cookie.
fn session_answer(
    hub: &Hub,
    headers: &HeaderMap,
    status: StatusCode,
    session: crate::domain::NewSession,
) -> Result<Response, ApiError> {
    let max_age = crate::domain::SESSION_LIFE.as_secs();
    let set = cookie(hub, headers, &session.id, max_age)?;
    let mut response = (
        status,
        Json(SignedInOut {
            name: session.signed_in.account.name,
        }),
    )
        .into_response();
    response.headers_mut().insert(header::SET_COOKIE, set);
    Ok(response)
}

/// The answer that forgets the cookie.
fn forget(hub: &Hub, headers: &HeaderMap, body: serde_json::Value) -> Result<Response, ApiError> {
    let set = cookie(hub, headers, "", 0)?;
    let mut response = Json(body).into_response();
    response.headers_mut().insert(header::SET_COOKIE, set);
    Ok(response)
}

fn addr(client: Option<Extension<ClientAddr>>) -> Option<IpAddr> {
    client.and_then(|Extension(c)| c.0)
}

/// `POST /api/accounts`: sign up, and be signed in.
pub(crate) async fn sign_up(
    State(hub): Hubs,
    client: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    Body(given): Body<Credentials>,
) -> Result<Response, ApiError> {
    let session = hub
        .sign_up(&given.name, &given.password, addr(client))
        .await?;
    session_answer(&hub, &headers, StatusCode::CREATED, session)
}

/// `POST /api/session`: sign in.
pub(crate) async fn sign_in(
    State(hub): Hubs,
    client: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    Body(given): Body<Credentials>,
) -> Result<Response, ApiError> {
    let session = hub
        .sign_in(&given.name, &given.password, addr(client))
        .await?;
    session_answer(&hub, &headers, StatusCode::OK, session)
}

/// `GET /api/session`: whether the caller is signed in, and as whom (never a 401: a page
/// asks it on every load).
pub(crate) async fn session(MaybeAccount(who): MaybeAccount) -> Json<serde_json::Value> {
    Json(match who {
        Some(who) => serde_json::json!({"signed_in": true, "name": who.account.name}),
        None => serde_json::json!({"signed_in": false}),
    })
}

/// `DELETE /api/session`: sign out here.
pub(crate) async fn sign_out(
    State(hub): Hubs,
    headers: HeaderMap,
    Account(who): Account,
) -> Result<Response, ApiError> {
    hub.sign_out(&who).await?;
    forget(&hub, &headers, serde_json::json!({"signed_out": true}))
}

/// `DELETE /api/sessions`: sign out everywhere.
pub(crate) async fn sign_out_everywhere(
    State(hub): Hubs,
    headers: HeaderMap,
    Account(who): Account,
) -> Result<Response, ApiError> {
    let ended = hub.sign_out_everywhere(&who).await?;
    forget(
        &hub,
        &headers,
        serde_json::json!({"signed_out": true, "sessions_ended": ended}),
    )
}

/// `PATCH /api/me`: a new password (with the old one), a mail address, a webhook, and
/// notifications on or off; each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChangeMe {
    #[serde(default)]
    old_password: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    webhook: Option<String>,
    #[serde(default)]
    notifications: Option<bool>,
}

/// The answer to `PATCH /api/me`: the name and the contact as it now is.
#[derive(Serialize)]
pub(crate) struct ChangedMe {
    name: String,
    email: Option<String>,
    email_verified: bool,
    webhook: Option<String>,
    notifications: bool,
    /// The webhook's signing secret: only in the answer that set the webhook.
    #[serde(skip_serializing_if = "Option::is_none")]
    webhook_secret: Option<String>,
}

pub(crate) async fn patch_me(
    State(hub): Hubs,
    Account(who): Account,
    Body(change): Body<ChangeMe>,
) -> Result<Response, ApiError> {
    match (&change.old_password, &change.password) {
        (Some(old), Some(new)) => hub.change_password(&who, old, new).await?,
        (None, None) => {}
        _ => {
            return Err(ApiError::malformed(
                "a new password is sent with the old one: both `old_password` and `password`",
            ))
        }
    }
    // Checked before anything is written: a refused address or webhook changes nothing.
    let contact = ContactChange {
        email: change.email,
        webhook: change.webhook,
        notifications: change.notifications,
    };
    let view = hub.change_contact(&who, contact).await?;
    Ok(Json(ChangedMe {
        name: who.account.name,
        email: view.email,
        email_verified: view.email_verified,
        webhook: view.webhook,
        notifications: view.notifications,
        webhook_secret: view.webhook_secret,
    })
    .into_response())
}

/// `GET /api/verify?token=`: the link mailed to a new address; verifies it.
pub(crate) async fn verify_email(State(hub): Hubs, query: Params) -> Result<Response, ApiError> {
    let token = query.get("token").unwrap_or_default();
    if !hub.verify_email(&token).await? {
        return Err(TableError::new(
            Refusal::LinkUnknown,
            "this verification link is unknown or used up: set the address again for a new one",
        )
        .into());
    }
    Ok(Json(serde_json::json!({
        "verified": true,
        "message": "Your mail address is verified: your turns will be mailed to it."
    }))
    .into_response())
}

/// `GET /api/unsubscribe?token=`: the link every notification carries; turns them off.
pub(crate) async fn unsubscribe(State(hub): Hubs, query: Params) -> Result<Response, ApiError> {
    let token = query.get("token").unwrap_or_default();
    if !hub.unsubscribe(&token).await? {
        return Err(TableError::new(
            Refusal::LinkUnknown,
            "this unsubscribe link belongs to no account",
        )
        .into());
    }
    Ok(Json(serde_json::json!({
        "notifications": false,
        "message": "You will get no more turn notifications. They come back when your account turns notifications on again."
    }))
    .into_response())
}

/// One rating as the API shows it: the number people read, and the model's two.
#[derive(Serialize)]
pub(crate) struct RatingOut {
    game: String,
    /// `round(1000 + 40 × (mu − 3 × sigma))` (docs/accounts.md).
    rating: i64,
    mu: f64,
    sigma: f64,
    games: u64,
}

fn rating_out(r: &crate::domain::RatingRow) -> RatingOut {
    RatingOut {
        game: r.game.clone(),
        rating: shown_rating(r.mu, r.sigma),
        mu: r.mu,
        sigma: r.sigma,
        games: r.games,
    }
}

/// A finished table's result for one seat.
#[derive(Serialize)]
pub(crate) struct ResultOut {
    /// 0 for first; equal places share one.
    place: u8,
    /// The seats in first place.
    winners: Vec<Seat>,
}

/// A table of the caller's list.
#[derive(Serialize)]
pub(crate) struct MyTable {
    id: String,
    game: String,
    status: Status,
    /// The caller's seat (0-based, as every seat in the API).
    seat: Seat,
    rated: bool,
    /// It is the caller's move.
    your_turn: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<Seat>,
    /// Every seat's name.
    players: Vec<String>,
    /// A finished table's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultOut>,
}

#[derive(Serialize)]
pub(crate) struct MeOut {
    name: String,
    ratings: Vec<RatingOut>,
    /// The tables where the caller owns a seat: those where it is to move first, then
    /// newest first.
    tables: Vec<MyTable>,
}

/// How many tables `GET /api/me` lists.
const MY_TABLES: u32 = 100;

/// `GET /api/me`.
pub(crate) async fn me(State(hub): Hubs, Account(who): Account) -> Result<Json<MeOut>, ApiError> {
    let store = hub.store();
    let ratings = (store.ratings(&who.account.id).await).map_err(ApiError::internal)?;
    let owned =
        (store.owned_seats(&who.account.id, MY_TABLES).await).map_err(ApiError::internal)?;
    let mut tables = Vec::with_capacity(owned.len());
    for o in owned {
        // A table that cannot be read now (its game's code gone, its rows damaged) is
        // left out of the list rather than failing it.
        let table = match hub.table(&o.table).await {
            Ok(table) => table,
            Err(e) => {
                tracing::warn!("table {} of an account's list: {e}", o.table);
                continue;
            }
        };
        let glance = table.glance().await;
        let (status, outcome) = table.outcome().await;
        tables.push(MyTable {
            id: table.row.id.clone(),
            game: table.row.game.clone(),
            status: glance.status,
            seat: o.seat,
            rated: table.row.rules.rated,
            your_turn: matches!(glance.status, Status::Open | Status::Running)
                && glance.to_act == Some(o.seat)
                && table.open_seats().is_empty(),
            to_act: glance.to_act,
            players: table.display_names(),
            result: outcome
                .filter(|_| status == Status::Finished)
                .map(|outcome| ResultOut {
                    place: outcome.places.get(o.seat).copied().unwrap_or(0),
                    winners: (outcome.places.iter().enumerate())
                        .filter(|(_, &p)| p == 0)
                        .map(|(s, _)| s)
                        .collect(),
                }),
        });
    }
    // "Your turn" first; otherwise as listed (newest first).
    tables.sort_by_key(|t| !t.your_turn);
    Ok(Json(MeOut {
        name: who.account.name,
        ratings: ratings.iter().map(rating_out).collect(),
        tables,
    }))
}

/// One rated game of a player's page.
#[derive(Serialize)]
pub(crate) struct RecentOut {
    table: String,
    game: String,
    seat: Seat,
    place: u8,
    /// Every seat's name at the table (empty when the table cannot be read).
    players: Vec<String>,
    /// The shown rating before and after the game.
    rating_before: i64,
    rating_after: i64,
    at: i64,
}

#[derive(Serialize)]
pub(crate) struct PlayerOut {
    name: String,
    ratings: Vec<RatingOut>,
    /// Each game's shown rating over time, oldest first: the rating before the first game
    /// kept, then after each (docs/http-api.md).
    history: std::collections::BTreeMap<String, Vec<super::ratings::PointOut>>,
    /// The latest rated games, newest first.
    recent: Vec<RecentOut>,
}

/// How many rated games a player's page lists.
const RECENT_GAMES: u32 = 20;

/// How many rated games a player's history draws (over every game).
const HISTORY_GAMES: u32 = 500;

/// `GET /api/players/{name}`.
pub(crate) async fn player(
    State(hub): Hubs,
    Path(name): Path<String>,
) -> Result<Json<PlayerOut>, ApiError> {
    let account = hub.account_called(&name).await?;
    let store = hub.store();
    let ratings = (store.ratings(&account.id).await).map_err(ApiError::internal)?;
    let history = (store.history(&account.id, HISTORY_GAMES).await).map_err(ApiError::internal)?;
    let mut recent = Vec::new();
    for h in history.iter().take(RECENT_GAMES as usize) {
        // The stored row, not the live table: a name list needs no replay.
        let players = match store.game(&h.game_id).await {
            Ok(Some(row)) => crate::domain::display_names(&row.seats),
            _ => Vec::new(),
        };
        recent.push(RecentOut {
            table: h.game_id.clone(),
            game: h.game.clone(),
            seat: h.seat,
            place: h.place,
            players,
            rating_before: shown_rating(h.mu_before, h.sigma_before),
            rating_after: shown_rating(h.mu_after, h.sigma_after),
            at: h.at,
        });
    }
    Ok(Json(PlayerOut {
        name: account.name,
        ratings: ratings.iter().map(rating_out).collect(),
        history: super::ratings::history_points(&history),
        recent,
    }))
}

/// One line of a leaderboard.
#[derive(Serialize)]
pub(crate) struct LeaderOut {
    /// 1 for the best (a rank people read, counted from 1).
    rank: usize,
    name: String,
    rating: i64,
    mu: f64,
    sigma: f64,
    games: u64,
}

/// How many players a leaderboard lists.
const LEADERS: u32 = 100;

/// `GET /api/leaderboard/{game}`.
pub(crate) async fn leaderboard(
    State(hub): Hubs,
    Path(game): Path<String>,
) -> Result<Json<Vec<LeaderOut>>, ApiError> {
    let game = catalog::game(game.trim())?.name().to_string();
    let rows = (hub.store().leaderboard(&game, LEADERS).await).map_err(ApiError::internal)?;
    Ok(Json(
        rows.iter()
            .enumerate()
            .map(|(i, (name, r))| LeaderOut {
                rank: i + 1,
                name: name.clone(),
                rating: shown_rating(r.mu, r.sigma),
                mu: r.mu,
                sigma: r.sigma,
                games: r.games,
            })
            .collect(),
    ))
}
