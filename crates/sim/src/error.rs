//! Why a batch cannot run.
use bots::BotError;
use thiserror::Error;

/// A batch that cannot run.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("{seats} seats named for a table of {players}: name one bot per seat")]
    SeatCount { seats: usize, players: usize },
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error(transparent)]
    Config(#[from] engine::ConfigError),
    #[error("game {index} (seed {seed}) broke down: {message}")]
    Broken {
        index: u64,
        seed: u64,
        message: String,
    },
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
}
