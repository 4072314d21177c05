//! The web page: the files of `crates/server/web/`, embedded in the binary (in every build,
//! so the binary runs from anywhere). The page's own routes (`/`, `/game/{id}`,
//! `/join/{code}`, `/signin`, `/signup`, `/leaderboard/{game}`, `/player/{name}`,
//! `/tournaments`, `/tournament/{id}`, `/learn`, `/puzzles`, `/puzzles/{id}`) serve
//! `index.html`; every other file is at
//! `/assets/{name}`.

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// `index.html`, whatever the page's own route is.
pub async fn page(headers: HeaderMap) -> Response {
    file("index.html", &headers)
}

/// Any other file of the page.
pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    file(&name, &headers)
}

fn file(name: &str, headers: &HeaderMap) -> Response {
    let Some(file) = Web::get(name) else {
        let text = format!("404: '{name}' is not among the page's files (crates/server/web/)\n");
        return (StatusCode::NOT_FOUND, text).into_response();
    };
    let etag: String = file.metadata.sha256_hash()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let etag = format!("\"{etag}\"");
    // Revalidate every time: the page changes with the binary, and 304s keep it cheap.
    let cache = [
        (CACHE_CONTROL, "no-cache".to_string()),
        (ETAG, etag.clone()),
    ];
    if headers
        .get(IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    let mime = file.metadata.mimetype().to_string();
    (cache, [(CONTENT_TYPE, mime)], file.data).into_response()
}
