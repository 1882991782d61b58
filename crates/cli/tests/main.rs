//! The CLI's tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p cli -E 'test(/^FILE::/)'`.

mod common;

mod bots_finish;
mod cli;
mod idle;
mod join;
mod learn;
mod log_names;
mod many;
mod memory;
mod pipe;
mod serve;
mod soak;
