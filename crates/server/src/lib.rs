//! The `tabletop` online server: tables of any catalog game over HTTP (JSON) and
//! WebSocket, with event-sourced storage on SQLite or PostgreSQL.
//!
//! - [`app`] is the whole HTTP API as an [`axum::Router`] (tests call it without a socket);
//!   [`serve`] binds it to an address. The API is documented in `docs/http-api.md`.
//! - Storage ([`store::Store`]) keeps a table of games and a log of their actions; a move
//!   is acknowledged only after its row is committed, and a server rebuilds its live games
//!   by replaying the log when it starts.
//! - With PostgreSQL, several servers may share one database: a move made through one is
//!   pushed to the clients of the others (LISTEN/NOTIFY), and of two conflicting moves the
//!   `UNIQUE (game_id, seq)` key accepts exactly one.

pub mod api;
pub mod conn;
pub mod domain;
pub mod headers;
pub mod notify;
pub mod store;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod web;

pub use api::{ApiError, ClientMessage};
pub use conn::ConnectionLimits;
pub use domain::{Hub, Limits, Status, Store, Table};
pub use store::{PgStore, SqliteStore};

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use std::net::SocketAddr;
use std::sync::Arc;

/// The state every handler shares: the live tables and the store.
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    /// The connection limits [`run`] serves under (the sockets' pings among them).
    pub limits: ConnectionLimits,
}

impl AppState {
    /// Starts a hub over `store` (rebuilding its live games by replay, in the background:
    /// see [`Hub::wait_rebuilt`]).
    ///
    /// # Errors
    /// The store cannot be read.
    pub async fn new(store: Arc<dyn Store>) -> anyhow::Result<AppState> {
        AppState::with_limits(store, Limits::default()).await
    }

    /// Starts a hub over `store` with these limits.
    ///
    /// # Errors
    /// The store cannot be read.
    pub async fn with_limits(store: Arc<dyn Store>, limits: Limits) -> anyhow::Result<AppState> {
        Ok(AppState {
            hub: Hub::start(store, limits).await?,
            limits: ConnectionLimits::default(),
        })
    }

    /// Opens the database a URL names (`sqlite://PATH` or `postgres://URL`) and starts.
    ///
    /// # Errors
    /// The database cannot be opened, migrated or read.
    pub async fn open(database: &str) -> anyhow::Result<AppState> {
        AppState::new(store::open(database).await?).await
    }
}

/// The HTTP API (see `docs/http-api.md`).
pub fn app(state: AppState) -> axum::Router {
    axum::Router::new()
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(api::metrics))
        .route("/api/games", get(api::list_games))
        .route("/api/games/{game}", get(api::about_game))
        .route("/api/games/{game}/rules", get(api::game_rules))
        .route("/api/games/{game}/lessons", get(api::list_lessons))
        .route("/api/games/{game}/lessons/{id}", get(api::get_lesson))
        .route(
            "/api/games/{game}/lessons/{id}/steps/{n}",
            axum::routing::post(api::lesson_move),
        )
        .route("/api/accounts", axum::routing::post(api::sign_up))
        .route(
            "/api/session",
            get(api::session).post(api::sign_in).delete(api::sign_out),
        )
        .route(
            "/api/sessions",
            axum::routing::delete(api::sign_out_everywhere),
        )
        .route("/api/me", get(api::me).patch(api::patch_me))
        .route("/api/verify", get(api::verify_email))
        .route("/api/unsubscribe", get(api::unsubscribe))
        .route("/api/players/{name}", get(api::player))
        .route("/api/leaderboard/{game}", get(api::leaderboard))
        .route(
            "/api/tournaments",
            get(api::list_tournaments).post(api::create_tournament),
        )
        .route("/api/tournaments/{id}", get(api::get_tournament))
        .route(
            "/api/tournaments/{id}/join",
            axum::routing::post(api::join_tournament).delete(api::leave_tournament),
        )
        .route(
            "/api/tournaments/{id}/start",
            axum::routing::post(api::start_tournament),
        )
        .route("/api/tables", get(api::list_tables).post(api::create_table))
        .route("/api/tables/{id}", get(api::get_table))
        .route("/api/tables/{id}/view", get(api::my_view))
        .route("/api/tables/{id}/legal", get(api::my_legal))
        .route("/api/tables/{id}/actions", axum::routing::post(api::submit))
        .route("/api/tables/{id}/spectate", get(api::spectate))
        .route("/api/tables/{id}/record", get(api::record))
        .route("/api/tables/{id}/log", get(api::log))
        .route("/api/tables/{id}/board", get(api::board))
        .route("/api/tables/{id}/ws", get(api::websocket))
        .route(
            "/api/tables/{id}/seats/{seat}/join",
            axum::routing::post(api::join),
        )
        .route(
            "/api/tables/{id}/chat",
            get(api::get_chat).post(api::post_chat),
        )
        .route(
            "/api/tables/{id}/rematch",
            axum::routing::post(api::rematch),
        )
        .route("/api/tables/{id}/undo", axum::routing::post(api::undo))
        .route("/api/tables/{id}/resign", axum::routing::post(api::resign))
        .route("/api/tables/{id}/back", axum::routing::post(api::back))
        .route("/api/tables/{id}/hint", get(api::hint_wait).post(api::hint))
        .route("/api/tables/{id}/review", get(api::review))
        .route("/api/tables/{id}/moments/{version}", get(api::moment))
        .merge(web::routes())
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(api::MAX_BODY))
        .layer(axum::middleware::from_fn(api::declared_too_large))
        .layer(axum::middleware::from_fn_with_state(
            state.hub.clone(),
            api::check_origin,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.hub.clone(),
            api::client_addr,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.hub.clone(),
            api::count_refusals,
        ))
        .layer(axum::Extension(api::Pings {
            interval: state.limits.ping_interval,
            misses: state.limits.ping_misses,
            send_timeout: state.limits.send_timeout,
        }))
        .layer(axum::middleware::from_fn(headers::security_headers))
        .with_state(state.hub)
}

/// Where and on what [`serve`] runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// `sqlite://PATH` (created if missing) or `postgres://URL`.
    pub database: String,
    /// What the server allows (bots, rates, tables).
    pub limits: Limits,
    /// Connections, timeouts and pings.
    pub connections: ConnectionLimits,
    /// How turn notifications are sent (docs/accounts.md, Notifications). Its
    /// `public_url`, when empty, is the bound address's.
    pub notify: notify::NotifyOptions,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://tabletop.sqlite".to_string(),
            limits: Limits::default(),
            connections: ConnectionLimits::default(),
            notify: notify::NotifyOptions {
                public_url: String::new(),
                ..notify::NotifyOptions::default()
            },
        }
    }
}

/// Opens the database, rebuilds the live games and serves the API until Ctrl-C or
/// SIGTERM; then answers the requests in flight and closes the sockets with a reason
/// (`--shutdown-grace` at most) before it returns.
/// Prints `listening on http://ADDR` (the bound address) on stdout once it accepts.
///
/// # Errors
/// The database cannot be opened, or the address cannot be bound.
pub async fn serve(opts: ServeOptions) -> anyhow::Result<()> {
    if !opts.limits.rate_limits {
        tracing::warn!("--no-rate-limits: the per-address and per-token rates are off");
    }
    // Bound first; the tables are rebuilt in the background while it answers.
    let listener = tokio::net::TcpListener::bind(opts.addr).await?;
    let mut state = AppState::with_limits(store::open(&opts.database).await?, opts.limits).await?;
    state.limits = opts.connections;
    let addr = listener.local_addr()?;
    let mut notify = opts.notify;
    if notify.public_url.is_empty() {
        notify.public_url = format!("http://{addr}");
    }
    let sender = notify::start(state.hub.clone(), notify)?;
    tracing::info!("listening on http://{addr}");
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}")?;
        out.flush()?;
    }
    let limits = state.limits.clone();
    let hub = state.hub.clone();
    conn::serve(listener, app(state), limits, async move {
        let signal = stop_signal().await;
        tracing::info!("{signal}: shutting down (requests in flight are answered, sockets closed with a reason)");
        hub.shut_down();
    })
    .await?;
    sender.abort();
    Ok(())
}

/// Waits for Ctrl-C or SIGTERM, and names it.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = tokio::signal::ctrl_c() => "Ctrl-C",
                _ = term.recv() => "SIGTERM",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "Ctrl-C"
}

/// Serves the API on a bound listener until the process ends (tests bind port 0).
///
/// # Errors
/// Accepting fails.
pub async fn run(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    let limits = state.limits.clone();
    conn::serve(listener, app(state), limits, std::future::pending()).await
}
