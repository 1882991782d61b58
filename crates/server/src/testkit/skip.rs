//! Skipping a test whose outside part (PostgreSQL, Chromium) is missing: loudly, and never
//! under CI. Shared by the server's and the CLI's tests.

/// Says on stderr, past the test harness's capture, that a test is skipped and why; under
/// `CI` (any value) it panics instead, so a missing part fails the run there.
pub fn skip_unless_ci(what: &str, msg: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("CI: {msg}");
    }
    // Straight to stderr: the test harness would hide an `eprintln!` of a passing test.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("\n!!!!!!!!!! SKIPPING {what}: {msg} !!!!!!!!!!\n\n").as_bytes(),
    );
}
