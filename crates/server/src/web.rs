//! The browser UI: the files under `web/` at the workspace root, embedded in the binary.
//!
//! `/` is the lobby, `/play/{id}` a table (`?token=…` for a seat, none to watch),
//! `/replay/{id}` a finished game move by move,
//! `/rules/{game}` a game's rules (drawn from `/api/games/{game}/rules`), `/learn/{game}`
//! and `/learn/{game}/{id}` the lessons; all serve the same page, whose modules read the
//! address. `/web/{file}` serves the scripts
//! and the style sheet; the games' card texts come from the API (`/api/games/{game}`).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("../../../web/index.html");

/// The embedded files: name, content type, text.
const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/app.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/lobby.js"),
    ),
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/table.js"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/replay.js"),
    ),
    (
        "rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/rules.js"),
    ),
    (
        "learn.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/learn.js"),
    ),
    (
        "dropsite.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/dropsite.js"),
    ),
    (
        "distopia.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/distopia.js"),
    ),
    (
        "euphoria.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/euphoria.js"),
    ),
    ("favicon.svg", FAVICON_TYPE, FAVICON),
];

/// The tab's icon: a die showing three.
const FAVICON: &str = include_str!("../../../web/favicon.svg");
const FAVICON_TYPE: &str = "image/svg+xml";

/// The UI's routes, to merge into the API router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/replay/{id}", get(index))
        .route("/rules/{game}", get(index))
        .route("/learn/{game}", get(index))
        .route("/learn/{game}/{id}", get(index))
        .route("/web/{file}", get(file))
        // Browsers ask for it whatever the page links.
        .route("/favicon.ico", get(favicon))
}

async fn favicon() -> Response {
    page(FAVICON_TYPE, FAVICON)
}

async fn index() -> Response {
    page("text/html; charset=utf-8", INDEX)
}

fn page(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => page(kind, text),
        None => crate::ApiError::new(
            StatusCode::NOT_FOUND,
            "request/not_found",
            format!(
                "there is no file `/web/{}`",
                crate::domain::truncate(&name, 64)
            ),
        )
        .into_response(),
    }
}
