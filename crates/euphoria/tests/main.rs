//! Euphoria's tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p euphoria -E 'test(/^FILE::/)'`.

#[macro_use]
extern crate engine;

mod common;

mod board;
mod compat;
mod describe;
mod ending;
mod events;
mod props;
mod recruits;
mod rulebook;
mod rules;
mod tensor;
mod trading;
mod undo;
