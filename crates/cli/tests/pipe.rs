//! A reader that closes the output early (`tabletop log … | head -1`) stops a command
//! quietly, with success: no panic, no error, for every command that prints.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn tabletop() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabletop"))
}

/// Runs `tabletop ARGS` and checks that it succeeds.
fn run(args: &[&str]) -> String {
    let out = tabletop().args(args).output().expect("tabletop runs");
    assert!(
        out.status.success(),
        "tabletop {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// How the reader of the command's standard output goes away.
#[derive(Clone, Copy, Debug)]
enum Reader {
    /// Closes the pipe before the command writes anything: its first write fails.
    Gone,
    /// Reads one line, then closes the pipe (`| head -1`).
    HeadOne,
    /// Standard error goes to the same pipe, which is closed at once (`2>&1 | true`).
    BothGone,
}

/// Runs `tabletop ARGS` into a reader that closes early; checks the exit is a quiet
/// success.
fn closes_quietly(args: &[&str], reader: Reader) {
    let mut command = match reader {
        // The shell hands both streams to one pipe, then runs tabletop in its place.
        Reader::BothGone => {
            let mut sh = Command::new("sh");
            sh.args([
                "-c",
                "exec \"$@\" 2>&1",
                "sh",
                env!("CARGO_BIN_EXE_tabletop"),
            ]);
            sh.stderr(Stdio::null());
            sh
        }
        _ => {
            let mut command = tabletop();
            command.stderr(Stdio::piped());
            command
        }
    };
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tabletop starts");
    match reader {
        Reader::Gone | Reader::BothGone => drop(child.stdout.take()),
        Reader::HeadOne => {
            let mut first = String::new();
            let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
            lines.read_line(&mut first).expect("a line");
            assert!(!first.is_empty(), "tabletop {args:?} printed nothing");
        }
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).expect("stderr");
    }
    let status = child.wait().expect("tabletop ends");
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe") && !err.contains("error"),
        "tabletop {args:?} ({reader:?}) said on stderr: {err}"
    );
    assert_eq!(
        status.code(),
        Some(0),
        "tabletop {args:?} ({reader:?}) did not exit cleanly: {status}; stderr: {err}"
    );
}

/// A whole game between bots, recorded in `dir`: its record and final state files.
fn recorded(dir: &Path, game: &str, seats: &str) -> (PathBuf, PathBuf) {
    let record = dir.join(format!("{game}.record.json"));
    let path = record.to_str().expect("a UTF-8 path");
    let players = seats.split(',').count().to_string();
    run(&[
        "play",
        game,
        "--players",
        &players,
        "--seats",
        seats,
        "--seed",
        "3",
        "--record",
        path,
    ]);
    let state = dir.join(format!("{game}.state.json"));
    std::fs::write(&state, run(&["new", game, "--seed", "3"])).expect("write a state");
    (record, state)
}

#[test]
fn commands_that_print_a_lot_stop_quietly_when_the_reader_goes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (record, state) = recorded(dir.path(), "euphoria", "random,random,random");
    let (record, state) = (
        record.to_str().expect("UTF-8"),
        state.to_str().expect("UTF-8"),
    );
    // The first few print far more than a pipe holds (64 KiB); a reader closed at once
    // breaks the others' first write too.
    let log = run(&["log", record, "--spectator", "--json"]);
    assert!(log.len() > 1 << 16, "the log is {} bytes", log.len());
    let commands: &[&[&str]] = &[
        &["log", record, "--spectator"],
        &["log", record, "--seat", "2", "--json"],
        &["replay", record, "--verbose"],
        &[
            "play",
            "euphoria",
            "--players",
            "3",
            "--seats",
            "random,random,random",
            "--seed",
            "4",
        ],
        &[
            "play",
            "dropsite",
            "--seats",
            "random,random",
            "--seed",
            "4",
        ],
        &["sim", "distopia", "--games", "50", "--threads", "1"],
        &["bench", "dropsite", "--seconds", "0.1"],
        &["new", "euphoria", "--seed", "9"],
        &["view", state, "--seat", "1", "--text"],
        &["legal", state],
        &["games"],
        &["--help"],
        &["log", "--help"],
    ];
    for args in commands {
        for reader in [Reader::Gone, Reader::HeadOne, Reader::BothGone] {
            closes_quietly(args, reader);
        }
    }
}

#[test]
fn an_error_with_standard_error_closed_still_exits_with_its_code() {
    // Standard error into a pipe whose reader is gone; standard output nowhere.
    let mut child = Command::new("sh")
        .args(["-c", "exec \"$@\" 2>&1 >/dev/null", "sh"])
        .args([
            env!("CARGO_BIN_EXE_tabletop"),
            "view",
            "no-such-file.json",
            "--seat",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabletop starts");
    drop(child.stdout.take());
    let status = child.wait().expect("tabletop ends");
    assert_eq!(status.code(), Some(2), "{status}");
}
