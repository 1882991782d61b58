//! What the fuzz targets share (docs/fuzzing.md).
//!
//! Every target is a few lines in `fuzz_targets/` calling one function here, which
//! asserts what must hold for any input, not only that nothing panics:
//!
//! - [`games::action_text`]: action text parsed and applied on a position reached by
//!   seeded random moves. A refused action leaves the state identical (equal, and the
//!   same bytes serialized), an accepted one was listed as legal, every listed action
//!   applies, the type-erased path (the CLI's and the server's) gives the same answers.
//! - [`games::state_json`]: a state file read from the input. It is either refused with a
//!   typed [`engine::StateError`] or it validates, and then it survives everything a
//!   loaded state is used for (legal actions, each applied, views, labels, a few moves).
//! - [`games::card_data`]: a card-data file (`--cards FILE`, docs/cards.md) joined to the
//!   default options. It is refused with every problem listed, or it makes a game that
//!   plays by the rules for a stretch of random moves and replays from its record.
//! - [`server`]: the server's decoders of request bodies and socket messages, and the
//!   same inputs sent to a live table in memory: a refused input leaves the table as it
//!   was.

pub mod check;
pub mod games;
pub mod server;

/// FNV-1a of the input: a seed for the random choices a target makes, so that one input
/// always takes the same path.
pub fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A choice among `n` things for step `step` of an input hashed to `seed`.
pub fn pick(seed: u64, step: u64, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    (engine::derive_seed(seed, step) % n as u64) as usize
}
