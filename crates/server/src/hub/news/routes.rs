//! The route of a person's news: its WebSocket.

use axum::routing::get;
use axum::Router;

use crate::http::AppState;

/// Adds the news socket to the API's router (paths under `/api`).
pub fn add(router: Router<AppState>) -> Router<AppState> {
    router.route("/me/ws", get(super::ws::news_ws))
}
