//! Idle tables, by hand: `cargo nextest run -p cli -E 'test(/^idle::/)' --run-ignored only
//! --no-capture` (a release server is closer to what runs: `IDLE_SERVER=$PWD/target/release/tabletop`, an absolute path).
//!
//! Starts `tabletop serve` on a fresh SQLite file, opens `IDLE_TABLES` (50,000, the
//! server's `--max-tables`) two-seat Drop Site tables whose seats nobody takes, lets the
//! server settle, then reads the CPU it uses (user and system time of `/proc/PID/stat`)
//! over `IDLE_SECONDS` (60) in which nothing happens. Prints the share of one core and
//! the memory, and checks the share against 2%.

use crate::common::{self, env_or, rss_kib};

use futures_util::{stream, StreamExt};
use serde_json::json;
use std::time::{Duration, Instant};

/// The process's user and system time, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    let field = |i: usize| fields[i].parse::<u64>().expect("a number of ticks");
    field(11) + field(12)
}

/// Clock ticks a second (`getconf CLK_TCK`).
fn ticks_per_second() -> f64 {
    let out = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .expect("getconf runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("CLK_TCK is a number")
}

/// `tabletop serve` from `IDLE_SERVER`, or the tests' own build.
async fn serve(database: &str) -> (tokio::process::Child, std::net::SocketAddr) {
    match std::env::var("IDLE_SERVER") {
        Ok(binary) => common::serve_with(&binary, database).await,
        Err(_) => common::serve(database).await,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run by hand"]
async fn fifty_thousand_open_tables_cost_the_server_almost_nothing_while_idle() {
    let tables = env_or("IDLE_TABLES", 50_000);
    let seconds = env_or("IDLE_SECONDS", 60);
    let dir = tempfile::tempdir().expect("temp dir");
    let database = format!("sqlite://{}", dir.path().join("idle.sqlite").display());
    let (mut child, addr) = serve(&database).await;
    let pid = child.id().expect("a pid");
    let http = reqwest::Client::new();
    let body = json!({"game": "dropsite", "options": {"players": 2}});
    let started = Instant::now();
    let created = stream::iter(0..tables)
        .map(|_| {
            let http = http.clone();
            let body = body.clone();
            async move {
                let answer = (http.post(format!("http://{addr}/api/tables")).json(&body))
                    .send()
                    .await
                    .expect("create");
                answer.status().as_u16()
            }
        })
        .buffer_unordered(16)
        .fold(0u64, |n, status| async move {
            assert_eq!(status, 201, "table {n} was not created");
            n + 1
        })
        .await;
    let making = started.elapsed();
    // Whatever the creates left to do (writes, caches) ends before the measurement.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let before = cpu_ticks(pid);
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let used = (cpu_ticks(pid) - before) as f64 / ticks_per_second();
    let share = used / seconds as f64;
    let rss = rss_kib(pid);
    println!(
        "{created} open tables made in {:.1} s; idle for {seconds} s the server used {used:.2} s \
         of CPU ({:.2}% of a core); RSS {rss} KiB ({:.1} KiB a table)",
        making.as_secs_f64(),
        share * 100.0,
        rss as f64 / created as f64
    );
    let _ = child.start_kill();
    assert_eq!(created, tables);
    assert!(share < 0.02, "{:.2}% of a core", share * 100.0);
}
