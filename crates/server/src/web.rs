//! The browser UI: the files under `web/` at the workspace root, embedded in the binary.
//!
//! `/` is the lobby, `/play/{id}` a table (`?token=…` for a seat, none to watch),
//! `/replay/{id}` a finished game move by move,
//! `/rules/{game}` a game's rules (drawn from `/api/games/{game}/rules`), `/learn/{game}`
//! and `/learn/{game}/{id}` the lessons, `/players/{name}` a player's profile,
//! `/leaderboard/{game}` a game's leaderboard, `/tournaments/{id}` a tournament; all serve the same page, whose modules read the
//! address. `/web/{file}` serves the scripts, the style sheet and the icon (every such file
//! of `web/`, listed by `build.rs`); the games' card texts come from the API
//! (`/api/games/{game}`).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("../../../web/index.html");

/// The embedded files: name and text. The list is the `web/` folder itself (`build.rs`
/// writes it): the shared modules, the page modules, and each game's board module, named
/// after the game (`GAME.js`, which the pages find by the names `GET /api/games` gives).
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// A served file's content type, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "text/javascript; charset=utf-8",
    }
}

/// The UI's routes, to merge into the API router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/replay/{id}", get(index))
        .route("/rules/{game}", get(index))
        .route("/learn/{game}", get(index))
        .route("/learn/{game}/{id}", get(index))
        .route("/players/{name}", get(index))
        .route("/leaderboard/{game}", get(index))
        .route("/tournaments/{id}", get(index))
        .route("/web/{file}", get(file))
        // Browsers ask for it whatever the page links.
        .route("/favicon.ico", get(favicon))
}

/// The tab's icon: a die showing three.
async fn favicon() -> Response {
    file(Path("favicon.svg".to_string())).await
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
    match FILES.iter().find(|(n, _)| *n == name) {
        Some((name, text)) => page(content_type(name), text),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages load a game's board module by the game's name, for every game the
    /// catalog offers (`GET /api/games`).
    #[test]
    fn every_game_of_the_catalog_has_its_board_module() {
        for game in catalog::GAMES {
            let script = format!("{game}.js");
            assert!(
                FILES
                    .iter()
                    .any(|(name, text)| *name == script && !text.is_empty()),
                "web/{script} is missing"
            );
        }
    }

    /// The page's own files are embedded, each served with its type.
    #[test]
    fn the_pages_files_are_embedded() {
        for name in ["app.js", "table.js", "lobby.js", "style.css", "favicon.svg"] {
            assert!(
                FILES.iter().any(|(n, _)| *n == name),
                "{name} is not embedded"
            );
        }
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("favicon.svg"), "image/svg+xml");
        assert_eq!(content_type("table.js"), "text/javascript; charset=utf-8");
    }
}
