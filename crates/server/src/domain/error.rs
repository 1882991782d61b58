//! What the table answers when it refuses a call or fails: a kind and words for people.
//! The table knows nothing of HTTP; the API layer (`crate::api::error`) gives each kind its
//! status and its stable code.

use engine::EngineError;

/// The seconds a client is told to wait when the store is unavailable (`Retry-After`).
pub const STORE_RETRY_AFTER: u64 = 5;

/// What a player reads when the store cannot take a call, or did not answer it.
fn unavailable_words(maybe_done: bool) -> &'static str {
    if maybe_done {
        "the game's storage did not answer in time, so this may not have been done: the table shows it if it was; if not, try again in a few seconds"
    } else {
        "the game's storage cannot be reached just now, so nothing was changed: try again in a few seconds"
    }
}

/// Why a call to a table did not go through.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The table refuses the call, for this reason, told in these words.
    #[error("{1}")]
    Refused(Refusal, String),
    /// Too many calls from one client or seat: it may try again after `retry_after`
    /// seconds.
    #[error("{message}")]
    RateLimited { message: String, retry_after: u64 },
    /// The game refused (a malformed or illegal action, a bad config) or is over.
    #[error(transparent)]
    Game(#[from] EngineError),
    /// The store cannot take the call now (stopped, unreachable, its disk full), or did
    /// not answer it: the same call may go through after `retry_after` seconds. Unless
    /// `maybe_done` (the write got no answer, and may have been stored: the table shows
    /// it then), nothing changed. The outage is logged once, where the store's calls are
    /// counted (`super::metrics`).
    #[error("{}", unavailable_words(*maybe_done))]
    Unavailable { retry_after: u64, maybe_done: bool },
    /// Something failed inside the server; the cause was logged where it happened.
    #[error("something went wrong on the server (it has been logged): try again later")]
    Internal,
}

/// What the table refuses a call for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request does not say what it must (a body that is no JSON object, options that
    /// are no object).
    Malformed,
    /// No table has this id.
    TableNotFound,
    /// The token belongs to no seat of this table.
    BadToken,
    /// The table was abandoned and takes no more moves.
    Abandoned,
    /// The action was chosen on an older version of the game.
    StaleVersion,
    /// The action text is not one the table reads.
    ActionMalformed,
    /// The seat is not the one to act.
    NotYourTurn,
    /// The move belongs to another seat (an undo or resign of another's move).
    NotYours,
    /// The table still has open seats: the game has not started.
    Waiting,
    /// The game is not over (a rematch asked for too early).
    NotOver,
    /// A seat spec names no player or bot this server runs.
    SeatInvalid,
    /// The seats given do not fit the game's player count.
    SeatCount,
    /// No such seat at the table.
    SeatNotFound,
    /// The seat is not open: someone sits there.
    SeatTaken,
    /// The name cannot be shown as given.
    Name,
    /// The name looks like another seat's.
    NameConfusable,
    /// The table's own rules (clock, take-over bot) are not valid.
    TableInvalid,
    /// The chat line cannot be shown as given.
    ChatInvalid,
    /// The server holds as many tables as it may.
    ServerFull,
    /// The game is over: nothing is left to decide.
    GameOver,
    /// The table was made without hints.
    HintsOff,
    /// The coach has nothing to say: a spectator asked, or the seat is not playing.
    HintsNotForYou,
    /// An account's name cannot be shown as given.
    AccountName,
    /// A new password is too short or too long.
    Password,
    /// The name looks like an account's: it is taken.
    NameTaken,
    /// A guest's seat name looks like an account's name.
    SeatNameTaken,
    /// The name and password match no account (an unknown name and a wrong password
    /// alike).
    BadCredentials,
    /// The call needs a signed-in account.
    SignedOut,
    /// A cookie-authenticated call came from another site's page.
    CrossOrigin,
    /// No account has this name.
    NoAccount,
    /// The table is rated: no taking back, no hints.
    Rated,
    /// A mail address notifications cannot go to.
    Email,
    /// A webhook URL notifications cannot be posted to.
    Webhook,
    /// A webhook that reaches a private, loopback or link-local address.
    WebhookPrivate,
    /// A verification or unsubscribe link that is unknown or used up.
    LinkUnknown,
    /// No tournament has this id.
    TournamentNotFound,
    /// A tournament asked for that cannot be made as asked.
    TournamentInvalid,
    /// The tournament started: its players are fixed.
    TournamentClosed,
    /// The account is in the tournament already (or not in it), or it is full.
    TournamentEntry,
    /// Only the tournament's creator may do this.
    NotCreator,
    /// Too few players to start the tournament.
    TooFew,
}

impl TableError {
    /// A refusal for `why`, in `message`'s words.
    pub fn new(why: Refusal, message: impl Into<String>) -> TableError {
        TableError::Refused(why, message.into())
    }

    /// Logs `cause` and returns [`TableError::Internal`].
    pub fn internal(cause: impl std::fmt::Display) -> TableError {
        tracing::error!("internal error: {cause}");
        TableError::Internal
    }

    pub fn malformed(message: impl Into<String>) -> TableError {
        TableError::new(Refusal::Malformed, message)
    }

    pub fn table_not_found(id: &str) -> TableError {
        TableError::new(
            Refusal::TableNotFound,
            format!("there is no table `{}`", super::text::truncate(id, 64)),
        )
    }

    pub fn bad_token() -> TableError {
        TableError::new(
            Refusal::BadToken,
            "this token does not belong to any seat of this table",
        )
    }

    pub fn abandoned() -> TableError {
        TableError::new(
            Refusal::Abandoned,
            "this table was abandoned (no move in time) and takes no more moves",
        )
    }

    pub fn stale(sent: u64, current: u64) -> TableError {
        TableError::new(
            Refusal::StaleVersion,
            format!(
                "the game moved on while this move was chosen (at move {sent}; the game is at move {current}): choose again"
            ),
        )
    }
}
