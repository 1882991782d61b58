//! What the CLI's test files share: running `tabletop` with input piped in, and reading
//! what it printed; starting `tabletop serve` and calling it over HTTP.
#![allow(dead_code)]

pub use server::testkit::remote;

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

/// Runs `tabletop ARGS` with `input` on standard input.
pub fn tabletop_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabletop runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    child.wait_with_output().expect("tabletop ends")
}

/// Checks that `tabletop` refused the call as the user's mistake (exit code 2) and said
/// `says` on standard error.
pub fn assert_refused(out: &Output, says: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(says), "{err}");
}

/// Checks that `tabletop` succeeded (with what it said on standard error when it did not)
/// and returns what it printed.
pub fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Starts `tabletop serve` on a free port of 127.0.0.1, on `database`, without rate limits,
/// and waits for the address it prints: the process (killed when dropped) and that address.
pub async fn serve(database: &str) -> (tokio::process::Child, SocketAddr) {
    serve_with(env!("CARGO_BIN_EXE_tabletop"), database).await
}

/// [`serve`] with another `tabletop` binary (a release build, for measurements).
pub async fn serve_with(binary: &str, database: &str) -> (tokio::process::Child, SocketAddr) {
    serve_args(binary, database, &[]).await
}

/// [`serve_with`] with more flags.
pub async fn serve_args(
    binary: &str,
    database: &str,
    flags: &[&str],
) -> (tokio::process::Child, SocketAddr) {
    let mut child = tokio::process::Command::new(binary)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", database])
        .arg("--no-rate-limits")
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("tabletop serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let line = tokio::time::timeout(
        Duration::from_secs(60),
        BufReader::new(stdout).lines().next_line(),
    )
    .await
    .expect("the server is listening within 60 s")
    .expect("read stdout")
    .expect("a line");
    let addr = line
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("an address");
    (child, addr)
}

/// The number in the environment variable `key`, or `default`.
pub fn env_or(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The resident memory of process `pid` (`VmRSS` of `/proc/PID/status`), in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}
