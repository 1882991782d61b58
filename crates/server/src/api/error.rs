//! The one error type of the HTTP API: a status, a stable code and a message for people.

use crate::domain::{truncate, Refusal, TableError};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use engine::EngineError;
use serde::Serialize;

/// An API error. Internal errors are logged with their cause and sent as `internal`
/// with a generic message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A stable, namespaced code (`action/illegal`, `auth/bad_token`, ...).
    pub code: &'static str,
    /// The rule that refused, finer than `code` (`dropsite/not_lower` beside
    /// `action/illegal`): [`EngineError::refusal`], when the engine gave one.
    pub refusal: Option<&'static str>,
    pub message: String,
    /// Seconds a client should wait before trying again (`Retry-After`), for rate limits.
    pub retry_after: Option<u64>,
}

/// The code of an error answer, for the middleware that counts refusals
/// ([`super::count_refusals`]).
#[derive(Clone, Copy, Debug)]
pub struct Refused(pub &'static str);

/// The JSON body of every error response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorBody {
    pub code: &'static str,
    /// The rule that refused (`dropsite/not_lower`); absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<&'static str>,
    pub message: String,
    /// Over a rate: whole seconds to wait before trying again (as `Retry-After` says).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            refusal: None,
            message: message.into(),
            retry_after: None,
        }
    }

    /// Logs `cause` and returns the generic internal error.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {cause}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "something went wrong on the server (it has been logged): try again later",
        )
    }

    pub fn malformed(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "request/malformed", message)
    }

    pub fn token_required() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "auth/required",
            "this call needs a seat token (Authorization: Bearer TOKEN, or ?token=TOKEN), or the session cookie of the account that owns the seat",
        )
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            code: self.code,
            refusal: self.refusal,
            message: self.message.clone(),
            retry_after: self.retry_after,
        }
    }
}

impl From<EngineError> for ApiError {
    fn from(error: EngineError) -> ApiError {
        let status = match &error {
            EngineError::UnknownGame { .. } => StatusCode::NOT_FOUND,
            EngineError::Config(_) | EngineError::Parse(_) => StatusCode::BAD_REQUEST,
            EngineError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            EngineError::GameOver => StatusCode::CONFLICT,
            EngineError::State(_) => return ApiError::internal(error),
        };
        ApiError {
            refusal: error.refusal(),
            ..ApiError::new(status, error.code(), truncate(&error.to_string(), 500))
        }
    }
}

impl From<TableError> for ApiError {
    /// Each refusal's status and stable code (docs/http-api.md lists them).
    fn from(error: TableError) -> ApiError {
        match error {
            TableError::Refused(why, message) => {
                let (status, code) = match why {
                    Refusal::Malformed => (StatusCode::BAD_REQUEST, "request/malformed"),
                    Refusal::TableNotFound => (StatusCode::NOT_FOUND, "game/not_found"),
                    Refusal::BadToken => (StatusCode::UNAUTHORIZED, "auth/bad_token"),
                    Refusal::Abandoned => (StatusCode::CONFLICT, "game/abandoned"),
                    Refusal::StaleVersion => (StatusCode::CONFLICT, "action/stale_version"),
                    Refusal::ActionMalformed => (StatusCode::BAD_REQUEST, "action/malformed"),
                    Refusal::NotYourTurn => (StatusCode::CONFLICT, "action/not_your_turn"),
                    Refusal::NotYours => (StatusCode::FORBIDDEN, "action/not_yours"),
                    Refusal::Waiting => (StatusCode::CONFLICT, "table/waiting"),
                    Refusal::NotOver => (StatusCode::CONFLICT, "game/not_over"),
                    Refusal::SeatInvalid => (StatusCode::BAD_REQUEST, "seat/invalid"),
                    Refusal::SeatCount => (StatusCode::BAD_REQUEST, "seat/count"),
                    Refusal::SeatNotFound => (StatusCode::NOT_FOUND, "seat/not_found"),
                    Refusal::SeatTaken => (StatusCode::CONFLICT, "seat/taken"),
                    Refusal::Name => (StatusCode::BAD_REQUEST, "seat/name"),
                    Refusal::NameConfusable => (StatusCode::BAD_REQUEST, "seat/name_confusable"),
                    Refusal::TableInvalid => (StatusCode::BAD_REQUEST, "table/invalid"),
                    Refusal::ChatInvalid => (StatusCode::BAD_REQUEST, "chat/invalid"),
                    Refusal::ServerFull => (StatusCode::SERVICE_UNAVAILABLE, "server/full"),
                    Refusal::GameOver => (StatusCode::CONFLICT, "game/over"),
                    Refusal::HintsOff => (StatusCode::FORBIDDEN, "hint/off"),
                    Refusal::HintsNotForYou => (StatusCode::FORBIDDEN, "hint/not_seated"),
                    Refusal::AccountName => (StatusCode::BAD_REQUEST, "account/name"),
                    Refusal::Password => (StatusCode::BAD_REQUEST, "account/password"),
                    Refusal::NameTaken => (StatusCode::CONFLICT, "account/name_taken"),
                    Refusal::SeatNameTaken => (StatusCode::CONFLICT, "seat/name_taken"),
                    Refusal::BadCredentials => (StatusCode::UNAUTHORIZED, "auth/bad_credentials"),
                    Refusal::SignedOut => (StatusCode::UNAUTHORIZED, "auth/signed_out"),
                    Refusal::CrossOrigin => (StatusCode::FORBIDDEN, "auth/cross_origin"),
                    Refusal::NoAccount => (StatusCode::NOT_FOUND, "account/not_found"),
                    Refusal::Rated => (StatusCode::CONFLICT, "table/rated"),
                    Refusal::Email => (StatusCode::BAD_REQUEST, "account/email"),
                    Refusal::Webhook => (StatusCode::BAD_REQUEST, "account/webhook"),
                    Refusal::WebhookPrivate => (StatusCode::BAD_REQUEST, "account/webhook_private"),
                    Refusal::LinkUnknown => (StatusCode::NOT_FOUND, "account/link_unknown"),
                    Refusal::TournamentNotFound => (StatusCode::NOT_FOUND, "tournament/not_found"),
                    Refusal::TournamentInvalid => (StatusCode::BAD_REQUEST, "tournament/invalid"),
                    Refusal::TournamentClosed => (StatusCode::CONFLICT, "tournament/closed"),
                    Refusal::TournamentEntry => (StatusCode::CONFLICT, "tournament/entry"),
                    Refusal::NotCreator => (StatusCode::FORBIDDEN, "tournament/not_creator"),
                    Refusal::TooFew => (StatusCode::CONFLICT, "tournament/too_few"),
                };
                ApiError::new(status, code, message)
            }
            TableError::RateLimited {
                message,
                retry_after,
            } => ApiError {
                retry_after: Some(retry_after),
                ..ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "request/rate_limited",
                    message,
                )
            },
            TableError::Unavailable {
                retry_after,
                maybe_done,
            } => ApiError {
                retry_after: Some(retry_after),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "store/unavailable",
                    TableError::Unavailable {
                        retry_after,
                        maybe_done,
                    }
                    .to_string(),
                )
            },
            TableError::Game(e) => ApiError::from(e),
            TableError::Internal => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                TableError::Internal.to_string(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        // Counted by the refusals' middleware (`GET /metrics`).
        response.extensions_mut().insert(Refused(self.code));
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}
