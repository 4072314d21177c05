//! Health checks for balancers and orchestrators (docs/operations.md): `/healthz` says the
//! process serves, `/readyz` whether it can do its work. Neither counts against an address's
//! request rate, so a balancer may ask as often as it likes.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

use super::AppState;

/// What `/readyz` found: ready, and each check's answer (`ok`, or why not).
#[derive(Serialize)]
pub struct Readiness {
    pub ready: bool,
    pub checks: Vec<Check>,
}

#[derive(Serialize)]
pub struct Check {
    pub name: &'static str,
    /// `ok`, or what failed.
    pub status: String,
}

/// 200 while the process answers at all (a liveness probe: restart it if this fails).
pub async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// 200 when the node can serve (the database answers; on a cluster node, Redis too; it is
/// not stopping), else 503 with the checks that failed: a balancer sends it no new requests.
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let checks = state.hub.readiness().await;
    let ready = checks.iter().all(|c| c.status == "ok");
    let status = match ready {
        true => StatusCode::OK,
        false => StatusCode::SERVICE_UNAVAILABLE,
    };
    (status, Json(Readiness { ready, checks }))
}
