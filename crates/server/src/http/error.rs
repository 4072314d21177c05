//! Errors as HTTP responses: `{"error":{"code":"kebab-code","message":"words"}}`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::header::RETRY_AFTER;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;

/// The body of every error response.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// What went wrong, for programs: `bad-json`, `illegal-move`, `not-your-turn`, ….
    pub code: &'static str,
    /// What went wrong, in words.
    pub message: String,
}

impl ApiError {
    /// The words a client is shown; storage failures are logged, not shown.
    pub fn public_message(&self) -> String {
        match self {
            ApiError::Storage(error) => {
                tracing::error!(%error, "storage failed");
                "the server could not store or read this; try again".into()
            }
            other => other.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.public_message(),
            },
        };
        // When to ask again: a refusal that passes in a moment, or a limit that refills.
        let retry_after = match self {
            ApiError::Busy(_) | ApiError::Unavailable(_) => Some("2"),
            ApiError::RateLimited => Some("1"),
            ApiError::Limit(_) => Some("60"),
            _ => None,
        };
        match retry_after {
            Some(seconds) => (status, [(RETRY_AFTER, seconds)], Json(body)).into_response(),
            None => (status, Json(body)).into_response(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => ApiError::NotJson,
            JsonRejection::BytesRejection(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::TooLarge
            }
            other => ApiError::BadJson(other.body_text()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::BadRequest(rejection.body_text())
    }
}
