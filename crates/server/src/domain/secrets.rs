//! The table's secrets: seat tokens (stored as hashes, compared in constant time), table
//! ids, seeds, and the seeds of its bots.

use super::error::TableError;
use super::store::GameRow;
use engine::Seat;
use sha2::{Digest, Sha256};

/// The token of the seat that `old_hash` (the SHA-256 of a seat's token at the table
/// before) gets at its rematch, whose bot secret is `secret`: only this server can work
/// it out, and the player gets it by asking for the rematch with the old token.
pub(super) fn rematch_token(secret: &str, old_hash: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"tabletop rematch token\0");
    hasher.update(secret.as_bytes());
    hasher.update(b"\0");
    hasher.update(old_hash.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// SHA-256 of a token, in hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `n` random bytes from the operating system's secure random source, in hex.
///
/// # Errors
/// The operating system cannot give random bytes (an internal error).
pub fn random_hex(n: usize) -> Result<String, TableError> {
    let mut bytes = vec![0u8; n];
    secure_fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// Fills `bytes` from the operating system's secure random source.
pub(super) fn secure_fill(bytes: &mut [u8]) -> Result<(), TableError> {
    use rand::TryRngCore;
    rand::rngs::OsRng
        .try_fill_bytes(bytes)
        .map_err(|e| TableError::internal(format!("the OS random source failed: {e}")))
}

/// A new table's id: 16 hex digits, the first 8 the creation time in seconds and the
/// last 8 from the operating system's secure random source. Ids are public (the lobby
/// lists them) and need not be unguessable; ordered by time, the live tables' rows sit
/// together at the end of every index keyed by the id, so that a commit of many moves
/// writes a few index pages instead of one a move (the SQLite WAL frames and
/// PostgreSQL's full-page writes that cost most of a commit).
///
/// # Errors
/// The operating system cannot give random bytes (an internal error).
pub fn table_id(created_ms: i64) -> Result<String, TableError> {
    let seconds = u32::try_from(created_ms.div_euclid(1000)).unwrap_or(u32::MAX);
    Ok(format!("{seconds:08x}{}", random_hex(4)?))
}

/// A table seed from the operating system's secure random source.
pub(super) fn secure_seed() -> Result<u64, TableError> {
    let mut bytes = [0u8; 8];
    secure_fill(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

/// The seed of the bot deciding for `seat` at `version` of a table: from the table's
/// secret, so no client can predict it, and the same after a restart and on every server.
/// Tables stored before secrets existed keep seeding from their (published) table seed.
pub fn bot_seed(row: &GameRow, seat: Seat, version: u64) -> u64 {
    if row.bot_secret.is_empty() {
        return engine::derive_seed(engine::derive_seed(row.seed, seat as u64), version);
    }
    let mut hasher = Sha256::new();
    hasher.update(b"tabletop bot seed\0");
    hasher.update(row.bot_secret.as_bytes());
    hasher.update((seat as u64).to_le_bytes());
    hasher.update(version.to_le_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}
