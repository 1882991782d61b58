//! For operators: `GET /healthz` (the process answers), `GET /readyz` (its store answers)
//! and `GET /metrics` (Prometheus text), and the middleware that counts refusals by code
//! (docs/http-api.md, "Health and metrics"; docs/operations.md).

use super::error::Refused;
use super::extract::*;
use std::time::Duration;

/// How long `GET /readyz` waits for the store's trivial query.
pub const READY_WITHIN: Duration = Duration::from_secs(3);

/// `GET /healthz`: the process is alive and serving (it reads nothing).
pub(crate) async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// `GET /readyz`: the store answers a trivial query within [`READY_WITHIN`]; otherwise
/// `503 store/unavailable`.
pub(crate) async fn readyz(State(hub): Hubs) -> Result<Json<serde_json::Value>, ApiError> {
    let started = std::time::Instant::now();
    let answered = tokio::time::timeout(READY_WITHIN, hub.store().ping()).await;
    let why = match answered {
        Ok(Ok(())) => {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            return Ok(Json(serde_json::json!({"status": "ready", "store_ms": ms})));
        }
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {} s", READY_WITHIN.as_secs()),
    };
    Err(ApiError {
        retry_after: Some(crate::domain::STORE_RETRY_AFTER),
        ..ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "store/unavailable",
            format!(
                "the database does not answer ({}), so moves cannot be stored",
                truncate(&why, 300)
            ),
        )
    })
}

/// `GET /metrics`: the server's counters in Prometheus' text format, to loopback clients
/// and the blocks `--metrics-from` names (`403 metrics/forbidden` to others). A call with
/// no socket (a test calling the router) is answered.
pub(crate) async fn metrics(State(hub): Hubs, request: Request) -> Result<Response, ApiError> {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>();
    if let Some(ConnectInfo(peer)) = peer {
        let ip = peer.ip();
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        let allowed = ip.is_loopback() || hub.limits().metrics_from.iter().any(|c| c.contains(ip));
        if !allowed {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "metrics/forbidden",
                "the metrics are for this machine and the addresses the server was started with (--metrics-from)",
            ));
        }
    }
    let text = hub.metrics().prometheus(hub.live_tables());
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// Counts every error answer by its code (`tabletop_refusals_total`).
pub(crate) async fn count_refusals(
    State(hub): Hubs,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    if let Some(Refused(code)) = response.extensions().get::<Refused>() {
        hub.metrics().refused(code);
    }
    response
}
