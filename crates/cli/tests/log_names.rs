//! `tabletop log` of a record the server published tells the game in the server's own
//! words: the seats named as the server's log names them (a given name, "seat N", "seat N
//! (random)", "you"), for every game, every seat with a token and a spectator.
//!
//! A real `tabletop serve` plays a table of each game to its end (people's seats through
//! the API, bots by the server), then its `GET …/log` is compared with `tabletop log` of
//! its `GET …/record` answer.

use crate::common;

use common::remote::get_json;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::process::Child;
use tokio::time::Instant;

/// `tabletop serve` on a free port of 127.0.0.1, on a database in `dir`.
async fn serve(dir: &std::path::Path) -> (Child, SocketAddr) {
    let database = format!("sqlite://{}", dir.join("log.sqlite").display());
    common::serve(&database).await
}

struct Table {
    id: String,
    /// The token of each person's seat.
    tokens: Vec<(usize, String)>,
}

async fn create(http: &reqwest::Client, addr: SocketAddr, body: Value) -> Table {
    let table = common::remote::create_table(http, addr, &body).await;
    let tokens = (table["seats"].as_array().expect("seats").iter().enumerate())
        .filter_map(|(seat, s)| Some((seat, s["token"].as_str()?.to_string())))
        .collect();
    Table {
        id: table["id"].as_str().expect("id").to_string(),
        tokens,
    }
}

/// Plays the people's seats (a move picked by a fixed rule) until the game is over; the
/// seat `resigns` resigns after its fifth move (a table move in the record).
async fn play_out(http: &reqwest::Client, addr: SocketAddr, table: &Table, resigns: Option<usize>) {
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut moves = 0usize;
    let mut resigned = false;
    loop {
        assert!(Instant::now() < deadline, "the game is not over in 240 s");
        let mut moved = false;
        for (seat, token) in &table.tokens {
            let view = get_json(
                http,
                &format!("http://{addr}/api/tables/{}/view?token={token}", table.id),
            )
            .await;
            if view["status"] == "finished" {
                return;
            }
            if view["to_act"] != json!(seat)
                || view["legal"].as_array().is_none_or(Vec::is_empty)
                || (resigned && resigns == Some(*seat))
            {
                continue;
            }
            let resigning = resigns == Some(*seat) && moves >= 5;
            let (url, body) = if resigning {
                (
                    format!("http://{addr}/api/tables/{}/resign?token={token}", table.id),
                    json!({"version": view["version"]}),
                )
            } else {
                let legal = view["legal"].as_array().expect("legal");
                let action = &legal[(moves * 7 + 3) % legal.len()];
                (
                    format!(
                        "http://{addr}/api/tables/{}/actions?token={token}",
                        table.id
                    ),
                    json!({"action": action, "version": view["version"]}),
                )
            };
            // A bot may have moved in between: a stale version is refused, and tried again.
            let answer = http.post(&url).json(&body).send().await.expect("POST");
            if answer.status().is_success() {
                resigned |= resigning;
                moves += 1;
                moved = true;
            }
        }
        if !moved {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

/// `tabletop log FILE ARGS…`: its standard output, which must be a success.
fn cli_log(file: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .arg("log")
        .arg(file)
        .args(args)
        .output()
        .expect("tabletop log runs");
    assert!(
        out.status.success(),
        "tabletop log {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The texts of the entries' events, in order.
fn texts(entries: &Value) -> Vec<String> {
    (entries.as_array().expect("entries").iter())
        .flat_map(|e| e["events"].as_array().expect("events").iter())
        .map(|e| e["text"].as_str().expect("text").to_string())
        .collect()
}

/// Plays `body`'s table to its end and checks `tabletop log` of its record against the
/// server's log for each person's seat and a spectator; `expect` must show in the texts.
async fn check(
    http: &reqwest::Client,
    addr: SocketAddr,
    dir: &std::path::Path,
    body: Value,
    resigns: Option<usize>,
    expect: &[&str],
) {
    let game = body["game"].as_str().expect("game").to_string();
    let table = create(http, addr, body).await;
    play_out(http, addr, &table, resigns).await;
    let record = get_json(
        http,
        &format!("http://{addr}/api/tables/{}/record", table.id),
    )
    .await;
    assert!(
        record["names"].as_array().is_some_and(|n| !n.is_empty()),
        "{record}"
    );
    let file = dir.join(format!("{game}.json"));
    std::fs::write(&file, record.to_string()).expect("write the record");
    let viewers = (table.tokens.iter())
        .map(|(seat, token)| (Some(*seat), format!("?token={token}")))
        .chain([(None, String::new())]);
    let mut all = Vec::new();
    for (seat, query) in viewers {
        let server = get_json(
            http,
            &format!("http://{addr}/api/tables/{}/log{query}", table.id),
        )
        .await;
        let flag = match seat {
            Some(s) => vec!["--seat".to_string(), (s + 1).to_string()],
            None => vec!["--spectator".to_string()],
        };
        let flag: Vec<&str> = flag.iter().map(String::as_str).collect();
        let json: Value = serde_json::from_str(&cli_log(&file, &[&flag[..], &["--json"]].concat()))
            .expect("log --json is JSON");
        assert_eq!(
            json, server["entries"],
            "{game}, seat {seat:?}: tabletop log --json differs from the server's log"
        );
        // The text form tells the same events in the same words, one line each after the
        // heading.
        let text = cli_log(&file, &flag);
        let lines: Vec<String> = (text.lines().skip(1))
            .map(|l| match l.trim_start().split_once(". ") {
                Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) => rest.to_string(),
                _ => l.trim_start().to_string(),
            })
            .collect();
        let told = texts(&server["entries"]);
        assert!(!told.is_empty(), "{game}: the server told nothing");
        assert_eq!(lines, told, "{game}, seat {seat:?}: the text log's words");
        all.extend(told);
    }
    for words in expect {
        assert!(
            all.iter().any(|t| t.contains(words)),
            "{game}: no text says `{words}`"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_of_a_published_record_names_seats_as_the_server_does() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (mut child, addr) = serve(dir.path()).await;
    let http = reqwest::Client::new();
    let ada = json!({"player": "human", "name": "Ada"});
    let robo = json!({"player": "random", "name": "Robo"});
    check(
        &http,
        addr,
        dir.path(),
        json!({"game": "dropsite", "options": {"players": 4, "target": 20}, "seed": 3,
               "seats": [ada, robo, "random", "human"]}),
        Some(3),
        &[
            "Ada ",
            "Robo ",
            "seat 3 (random) ",
            "seat 4 resigned",
            "you ",
        ],
    )
    .await;
    check(
        &http,
        addr,
        dir.path(),
        json!({"game": "distopia", "seed": 4, "seats": [robo, ada]}),
        None,
        &["Ada ", "Robo ", "you "],
    )
    .await;
    check(
        &http,
        addr,
        dir.path(),
        json!({"game": "euphoria", "options": {"players": 3, "offers_per_turn": 1}, "seed": 5,
               "seats": ["random", ada, "human"]}),
        None,
        &["Ada ", "seat 1 (random) ", "seat 3 ", "you "],
    )
    .await;
    let _ = child.start_kill();
}
