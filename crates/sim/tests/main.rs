//! The simulator's tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p sim -E 'test(/^FILE::/)'`.

mod determinism;
mod ladder;
mod study;
mod tournament;
mod tune;
