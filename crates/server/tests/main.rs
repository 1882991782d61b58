//! The server's tests, built as one binary: each file here is a module of it (one compile and
//! one link instead of one per file). Run one file's tests with
//! `cargo nextest run -p server -E 'test(/^FILE::/)'`.

#[macro_use]
mod common;

mod accounts;
mod api;
mod bots;
mod browser;
mod coach;
mod connections;
mod faults;
mod health;
mod lessons;
mod life;
mod limits;
mod load;
mod log;
mod notify;
mod palette;
mod restart;
mod secrets;
mod socket;
mod storage;
mod tournaments;
mod turns;
mod two_servers;
