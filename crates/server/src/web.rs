//! The browser UI: the files under `web/` at the workspace root, embedded in the binary.
//!
//! `/` is the lobby and `/play/{id}` a table (`?token=…` for a seat, none to watch); both
//! serve the same page, whose modules read the address. `/web/{file}` serves the scripts
//! and the style sheet, and `/web/euphoria.json` the Euphoria card texts the board shows.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use euphoria::cards::{
    market_code, market_faction, recruit, site_cost, Faction, Good, Space, SpaceKind, DILEMMAS,
    MARKETS, MARKET_TILES, RECRUITS,
};
use serde_json::{json, Value};

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
];

/// The UI's routes, to merge into the API router.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/web/euphoria.json", get(euphoria_cards))
        .route("/web/{file}", get(file))
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
                crate::error::truncate(&name, 64)
            ),
        )
        .into_response(),
    }
}

fn faction(f: Faction) -> &'static str {
    ["euphorian", "subterran", "wastelander", "icarite"][f.index()]
}

/// Names the Euphoria view refers to by number: spaces, recruits, market tiles, dilemmas.
async fn euphoria_cards() -> Json<Value> {
    let spaces: Vec<Value> = Space::all()
        .map(|s| {
            let (kind, market) = match s.kind() {
                SpaceKind::Area(_) => ("area", None),
                SpaceKind::Tunnel(_) => ("tunnel", None),
                SpaceKind::TunnelEnd(_) => ("tunnel-end", None),
                SpaceKind::ArtifactMarket(_) => ("artifact-market", None),
                SpaceKind::Nimbus | SpaceKind::Breeze | SpaceKind::Sky => ("icarus", None),
                SpaceKind::ActivateEnergy | SpaceKind::ActivateWater => ("activate", None),
                SpaceKind::Site(m, slot) => ("site", Some((m, Some(slot)))),
                SpaceKind::Built(m) => ("built", Some((m, None))),
            };
            json!({
                "code": s.code(),
                "name": s.name(),
                "kind": kind,
                "region": s.region().map(faction),
                "market": market.map(|(m, _)| m),
                "cost": market.and_then(|(m, slot)| slot.map(|k| site_cost(m, k).code())),
            })
        })
        .collect();
    // Recruits are numbered from 1.
    let recruits: Vec<Value> = std::iter::once(Value::Null)
        .chain((1..=RECRUITS as u8).map(|n| {
            let r = recruit(n);
            json!({"name": r.name, "faction": faction(r.faction)})
        }))
        .collect();
    let tiles: Vec<Value> = MARKET_TILES
        .iter()
        .map(|t| json!({"name": t.name, "penalty": format!("{:?}", t.penalty)}))
        .collect();
    let dilemmas: Vec<Value> = DILEMMAS
        .iter()
        .map(|d| json!({"rebel": d.rebel, "conform": d.conform, "pictured": d.pictured.code()}))
        .collect();
    let markets: Vec<Value> = (0..MARKETS)
        .map(|m| json!({"code": market_code(m), "faction": faction(market_faction(m))}))
        .collect();
    Json(json!({
        "goods": Good::ALL.iter().map(|g| g.code()).collect::<Vec<_>>(),
        "spaces": spaces,
        "recruits": recruits,
        "tiles": tiles,
        "dilemmas": dilemmas,
        "markets": markets,
    }))
}
