//! Drop Site's tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p dropsite -E 'test(/^FILE::/)'`.

mod common;

mod describe;
mod events;
mod props;
mod rulebook;
mod rules;
mod tensor;
mod undo;
