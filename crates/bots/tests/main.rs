//! The bots' tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p bots -E 'test(/^FILE::/)'`.

mod common;

mod coach;
mod guard;
mod hidden_info;
mod pimc;
mod play;
mod spec;
