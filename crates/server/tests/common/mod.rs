//! Helpers shared by the server's tests.
#![allow(dead_code)]

pub mod browser;
pub mod cluster;
pub use server::testkit::{remote, skip};

use async_trait::async_trait;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use engine::{DynState, GameRecord, Viewer};
use http_body_util::BodyExt;
use serde_json::Value;
use server::domain::{
    ActionRow, Append, ChatRow, GameRow, Notice, Page, SeatChange, SeatRow, Status, Store,
    StoreError,
};
use server::{app, AppState, PgStore, SqliteStore};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;
use tower::ServiceExt;

/// Runs `$test(state)` on an in-memory SQLite store and on a PostgreSQL schema of its own
/// (named after `$tag`), each with the limits `$limits`.
macro_rules! on_both_stores {
    ($test:ident, $tag:literal, $limits:expr) => {
        mod $test {
            use super::*;

            #[tokio::test]
            async fn on_sqlite() {
                let store = server::SqliteStore::connect("sqlite::memory:")
                    .await
                    .expect("sqlite");
                let state = server::AppState::with_limits(std::sync::Arc::new(store), $limits)
                    .await
                    .expect("state");
                super::$test(state).await;
            }

            #[tokio::test]
            async fn on_postgres() {
                if !common::pg_up().await {
                    return;
                }
                let schema = common::unique_schema($tag);
                let store = common::pg_store(&schema).await;
                let state = server::AppState::with_limits(std::sync::Arc::new(store), $limits)
                    .await
                    .expect("state");
                super::$test(state).await;
                common::drop_schema(&schema).await;
            }
        }
    };
}

/// The host the cookie tests send their requests to (and a page of it their origin).
pub const HOST: &str = "tabletop.test";

/// [`send_as`] with no `Origin` (as a program that is no browser sends).
pub async fn send_cookie(
    state: &AppState,
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    send_as(state, method, uri, cookie, None, body).await
}

/// One request through the router, sent to [`HOST`] with the session cookie and the
/// `Origin` given: status, headers and the body as JSON (null when empty; an answer that
/// is no JSON fails the test).
pub async fn send_as(
    state: &AppState,
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    origin: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", HOST);
    if let Some(cookie) = cookie {
        request = request.header("cookie", format!("tabletop_session={cookie}"));
    }
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .expect("request");
    let (status, headers, bytes) = send_raw(state, request).await;
    let json = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).expect("a JSON answer")
    };
    (status, headers, json)
}

/// The PostgreSQL the tests use (`TABLETOP_TEST_PG` overrides).
pub fn pg_url() -> String {
    std::env::var("TABLETOP_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// Whether the test PostgreSQL answers. When it does not, a test that needs it skips
/// with a loud message, or fails when `CI` is set (as the browser tests do without
/// Chromium). Usage: `if !common::pg_up().await { return; }`.
pub async fn pg_up() -> bool {
    use sqlx::Connection;
    let url = pg_url();
    let tried = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        sqlx::PgConnection::connect(&url),
    )
    .await;
    let problem = match tried {
        Ok(Ok(connection)) => {
            let _ = connection.close().await;
            return true;
        }
        Ok(Err(e)) => e.to_string(),
        Err(_) => "no answer within 5 s".to_string(),
    };
    let msg = format!(
        "PostgreSQL at {url} does not answer ({problem}); start it, or set \
         TABLETOP_TEST_PG to a database that does"
    );
    skip::skip_unless_ci("A POSTGRESQL TEST", &msg);
    false
}

/// A schema name of its own for one test run.
pub fn unique_schema(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "t_{tag}_{}_{nanos}_{:x}",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// Drops a test schema (best effort).
pub async fn drop_schema(schema: &str) {
    if let Err(e) = PgStore::drop_schema(&pg_url(), schema).await {
        eprintln!("could not drop schema {schema}: {e}");
    }
}

pub async fn pg_store(schema: &str) -> PgStore {
    PgStore::connect_schema(&pg_url(), Some(schema))
        .await
        .expect("PostgreSQL at TABLETOP_TEST_PG or 127.0.0.1:5432 (see docs/http-api.md)")
}

/// Serves `state` on a fresh port of 127.0.0.1 until the test process ends.
pub async fn spawn(state: AppState) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = server::run(listener, state).await;
    });
    addr
}

/// The default limits without the per-address and per-token rates: test clients play
/// faster than people (tests/limits.rs tests the rates).
pub fn unlimited() -> server::Limits {
    server::Limits {
        rate_limits: false,
        // The coach searches little in tests: they check what it answers, not how well.
        coach_iterations: 64,
        ..server::Limits::default()
    }
}

/// An app on the database `url` names, with [`unlimited`] rates.
pub async fn open_unlimited(url: &str) -> AppState {
    let store = server::store::open(url).await.expect("store");
    AppState::with_limits(store, unlimited())
        .await
        .expect("state")
}

/// An app on an in-memory SQLite database, with [`unlimited`] rates.
pub async fn memory_state() -> AppState {
    let store = SqliteStore::connect("sqlite::memory:")
        .await
        .expect("in-memory sqlite");
    AppState::with_limits(Arc::new(store), unlimited())
        .await
        .expect("state")
}

/// One call through the router, without a socket: status and JSON body.
pub async fn call(
    state: &AppState,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map(Body::from).unwrap_or_else(Body::empty))
        .expect("request");
    send(state, request).await
}

/// One request through the router, without a socket: status and JSON body (every answer,
/// errors included, must be JSON).
pub async fn send(state: &AppState, request: Request<Body>) -> (StatusCode, Value) {
    let (method, uri) = (request.method().clone(), request.uri().clone());
    let (status, _, bytes) = send_raw(state, request).await;
    let json = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "{method} {uri}: body is not JSON: {}",
                String::from_utf8_lossy(&bytes)
            )
        })
    };
    (status, json)
}

/// One GET through the router, as the holder of `token` when there is one.
pub async fn get(state: &AppState, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(state, "GET", uri, token, None).await
}

/// One request through the router, without a socket: status, headers and body bytes.
pub async fn send_raw(
    state: &AppState,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, axum::body::Bytes) {
    let response = app(state.clone())
        .oneshot(request)
        .await
        .expect("router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, headers, bytes)
}

pub async fn post_json(
    state: &AppState,
    uri: &str,
    token: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    call(
        state,
        "POST",
        uri,
        token,
        Some(body.to_string().into_bytes()),
    )
    .await
}

/// One POST to table `id`'s `path` (`actions`, `resign`, `seats/1/join`, …), as the holder
/// of `token` when there is one.
pub async fn post_to(
    state: &AppState,
    id: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    post_json(state, &format!("/api/tables/{id}/{path}"), token, body).await
}

/// Sends `action` at `version` as the holder of `token` at table `id`.
pub async fn act(
    state: &AppState,
    id: &str,
    token: &str,
    action: impl serde::Serialize,
    version: impl serde::Serialize,
) -> (StatusCode, Value) {
    let body = serde_json::json!({"action": action, "version": version});
    post_to(state, id, "actions", Some(token), &body).await
}

/// Every viewer's expected view at every version of a record: `views[version][viewer]`,
/// viewers being the seats in order then the spectator.
pub fn expected_views(record: &GameRecord) -> Vec<Vec<Value>> {
    let game = catalog::game(&record.game).expect("game");
    let mut state: Box<dyn DynState> = game
        .new_state(&record.config, record.seed)
        .expect("record starts");
    let viewers = |state: &dyn DynState| -> Vec<Value> {
        let mut out: Vec<Value> = (0..state.seats())
            .map(|s| state.view_json(Viewer::Seat(s)))
            .collect();
        out.push(state.view_json(Viewer::Spectator));
        out
    };
    let mut views = vec![viewers(state.as_ref())];
    for action in &record.actions {
        let action = state.parse_action(action).expect("the record's notation");
        state.apply_any(&action).expect("record replays");
        views.push(viewers(state.as_ref()));
    }
    views
}

/// Checks a view received by `viewer` (a seat, or `None` for a spectator) at `version`:
/// it is exactly that viewer's view, and never another seat's where that one differs.
pub fn check_view(views: &[Vec<Value>], viewer: Option<usize>, version: u64, got: &Value) {
    let at = &views[usize::try_from(version).expect("version")];
    let seats = at.len() - 1;
    let index = viewer.unwrap_or(seats);
    assert_eq!(
        got, &at[index],
        "viewer {viewer:?} at version {version} got a view that is not its own"
    );
    for other in 0..seats {
        if Some(other) != viewer && at[other] != at[index] {
            assert_ne!(got, &at[other], "viewer {viewer:?} got seat {other}'s view");
        }
    }
}

/// A store whose appends fail while `failing` is set, and that counts the reads of
/// action logs (each one a replay or a catch-up).
pub struct Flaky {
    pub inner: SqliteStore,
    pub failing: AtomicBool,
    pub refused: AtomicUsize,
    pub reads: AtomicUsize,
}

impl Flaky {
    /// Over an in-memory SQLite database, not failing.
    pub async fn memory() -> Flaky {
        Flaky {
            inner: SqliteStore::connect("sqlite::memory:")
                .await
                .expect("sqlite"),
            failing: AtomicBool::new(false),
            refused: AtomicUsize::new(0),
            reads: AtomicUsize::new(0),
        }
    }
}

/// The accounts' calls a guest's table makes (its seat names checked against the
/// accounts' names) go to the store underneath; the tests that fail the store call no
/// other.
#[async_trait]
impl server::domain::Accounts for Flaky {
    async fn account_named(
        &self,
        skeleton: &str,
    ) -> Result<Option<server::domain::AccountRow>, StoreError> {
        self.inner.account_named(skeleton).await
    }
}

/// No tournaments: the tests that fail the store make none.
impl server::domain::Tournaments for Flaky {}

#[async_trait]
impl Store for Flaky {
    async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        self.inner.create(game).await
    }
    async fn append(&self, game: &str, next: Append<'_>) -> Result<(), StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            self.refused.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::WriterGone);
        }
        self.inner.append(game, next).await
    }
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.inner.game(id).await
    }
    async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        self.inner.actions(game, from_seq).await
    }
    async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError> {
        self.inner.list(statuses, limit).await
    }
    async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError> {
        self.inner.page(page).await
    }
    async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError> {
        self.inner.abandon(game, seq).await
    }
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        self.inner.subscribe().await
    }
    async fn set_seats(&self, game: &str, seats: SeatChange<'_>) -> Result<bool, StoreError> {
        self.inner.set_seats(game, seats).await
    }
    async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError> {
        self.inner.set_rematch(game, rematch).await
    }
    async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError> {
        self.inner.chat_add(game, line).await
    }
    async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError> {
        self.inner.chat(game, from_seq).await
    }
    async fn review(&self, game: &str) -> Result<Option<String>, StoreError> {
        self.inner.review(game).await
    }
    async fn set_review(&self, game: &str, review: &str) -> Result<(), StoreError> {
        self.inner.set_review(game, review).await
    }
    async fn upgrade(&self, upgrade: &server::domain::Upgrade) -> Result<bool, StoreError> {
        self.inner.upgrade(upgrade).await
    }
    async fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping().await
    }
}

/// Checks an error answer: the JSON error `code`, and a message in words.
pub fn assert_coded(body: &Value, code: &str) {
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

/// Creates a table through the router; panics unless it is created.
pub async fn create_table(state: &AppState, body: Value) -> Value {
    let (status, table) = post_json(state, "/api/tables", None, &body).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    table
}

/// A server with memory storage and one table created on it from `body`: the server's
/// state, the table's JSON and its id.
pub async fn new_table(body: Value) -> (AppState, Value, String) {
    let state = memory_state().await;
    let table = create_table(&state, body).await;
    let id = table_id(&table);
    (state, table, id)
}

/// A table created on `state` from `body`: its id and its seats' tokens.
pub async fn table_on(state: &AppState, body: Value) -> (String, Vec<String>) {
    let table = create_table(state, body).await;
    (table_id(&table), seat_tokens(&table))
}

/// A table's id from its JSON.
pub fn table_id(table: &Value) -> String {
    table["id"].as_str().expect("id").to_string()
}

/// The snapshot of the seat whose token this is.
pub async fn seat_view(state: &AppState, id: &str, token: &str) -> Value {
    let (status, view) = get(state, &format!("/api/tables/{id}/view"), Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

/// The token of human seat `seat` of a created table.
pub fn seat_token(table: &Value, seat: usize) -> String {
    table["seats"][seat]["token"]
        .as_str()
        .expect("a human seat has a token")
        .to_string()
}

/// Every seat's token of a created table (empty for a bot's seat).
pub fn seat_tokens(table: &Value) -> Vec<String> {
    (table["seats"].as_array().expect("seats").iter())
        .map(|s| s["token"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The token of seat `seat` of the tables [`store_old_table`] writes.
pub fn old_token(seat: usize) -> String {
    format!("{:064x}", 0xb1d1_u64 + seat as u64)
}

/// A human seat's row: its token's hash and its name as stored.
pub fn human_seat(token_sha256: Option<String>, name: Option<String>) -> SeatRow {
    SeatRow {
        player: server::domain::Player::Human,
        token_sha256,
        name,
        joined: None,
        account: None,
    }
}

/// An open table's row as a test writes it straight into a store: the seed not chosen by
/// its creator, a fixed bot secret, no rematch, series or table rules.
pub fn open_row(
    id: &str,
    game: &str,
    config: Value,
    seed: u64,
    seats: Vec<SeatRow>,
    created: i64,
) -> GameRow {
    GameRow {
        id: id.to_string(),
        game: game.to_string(),
        config,
        seed,
        seats,
        created,
        status: Status::Open,
        seed_chosen: false,
        bot_secret: "cd".repeat(32),
        rematch: None,
        series: None,
        rules: Default::default(),
        format: catalog::game(game).map_or(1, |g| g.format()),
    }
}

/// Writes into `store` a Distop-IA table (id `id`, two human seats named `names`, tokens
/// [`old_token`]) and a chat line of seat 1 as a server from before the name checks could
/// have stored them: the names and the line as given, bidirectional controls and all.
pub async fn store_old_table(store: &dyn Store, id: &str, names: [&str; 2], said: &str) {
    let config = catalog::game("distopia").expect("game").default_config();
    let seats = (0..2)
        .map(|seat| {
            human_seat(
                Some(server::domain::token_hash(&old_token(seat))),
                Some(names[seat].to_string()),
            )
        })
        .collect();
    let row = open_row(id, "distopia", config, 3, seats, server::domain::now_ms());
    store.create(&row).await.expect("create");
    let line = ChatRow {
        seq: 0,
        at: server::domain::now_ms(),
        seat: Some(0),
        name: names[0].to_string(),
        text: said.to_string(),
        kind: Default::default(),
    };
    store.chat_add(id, &line).await.expect("chat");
}
