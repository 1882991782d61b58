//! `tabletop join` in line mode, at a real `tabletop serve` on 127.0.0.1: a seat's invite
//! link plays a move (after one the rules refuse, told in words), the table's link
//! watches, and links that lead nowhere are refused in words.
use crate::common;

use common::remote::get_json;
use common::{assert_refused, succeeded, tabletop_with_input};
use serde_json::{json, Value};

/// `tabletop join ARGS` with `input`, off the runtime's threads.
async fn join(args: Vec<String>, input: &'static str) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = std::iter::once("join")
            .chain(args.iter().map(String::as_str))
            .collect();
        tabletop_with_input(&args, input)
    })
    .await
    .expect("tabletop join ran")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_seat_plays_by_its_invite_and_a_spectator_watches() {
    let dir = tempfile::tempdir().expect("a directory");
    let database = format!("sqlite://{}", dir.path().join("join.sqlite").display());
    let (_server, addr) = common::serve(&database).await;
    let http = reqwest::Client::new();
    let body = json!({"game": "distopia", "seats": ["human", "random"], "seed": 5});
    let table = common::remote::create_table(&http, addr, &body).await;
    let id = table["id"].as_str().expect("an id").to_string();
    let invite = table["seats"][0]["invite"].as_str().expect("an invite");
    let token = table["seats"][0]["token"].as_str().expect("a token");

    // The seat: a move the rules cannot read, then the first move of the list.
    let out = join(
        vec![format!("http://{addr}{invite}")],
        "fly to the moon\n1\n",
    )
    .await;
    let said = succeeded(&out);
    assert!(
        said.contains(&format!("distopia · table {id} · you are seat 1")),
        "{said}"
    );
    assert!(said.contains("Refused: "), "{said}");
    assert!(said.contains("(action/malformed)"), "{said}");
    assert!(
        said.contains("  1) Pick up your district"),
        "the moves in words: {said}"
    );
    assert!(
        said.contains("leaving the table (the input ended)"),
        "{said}"
    );
    // The server took the move; its words, as the seat's log tells them, were printed.
    let log = get_json(
        &http,
        &format!("http://{addr}/api/tables/{id}/log?token={token}"),
    )
    .await;
    let entries = log["entries"].as_array().expect("entries");
    let mine: Vec<&Value> = entries.iter().filter(|e| e["seat"] == 0).collect();
    assert_eq!(mine.len(), 1, "{log}");
    let told = mine[0]["events"][0]["text"].as_str().expect("a text");
    assert!(said.contains(&format!("  * {told}")), "`{told}` in {said}");

    // The spectator: the public board and log, no moves; `quit` leaves.
    let out = join(vec![format!("http://{addr}/play/{id}")], "quit\n").await;
    let watched = succeeded(&out);
    assert!(
        watched.contains(&format!("distopia · table {id} · watching")),
        "{watched}"
    );
    let public = get_json(&http, &format!("http://{addr}/api/tables/{id}/log")).await;
    for entry in public["entries"].as_array().expect("entries") {
        let text = entry["events"][0]["text"].as_str().expect("a text");
        assert!(
            watched.contains(&format!("  * {text}")),
            "`{text}` in {watched}"
        );
    }
    assert!(
        !watched.contains(") Pick up your district"),
        "a spectator has no moves: {watched}"
    );
    assert!(watched.contains("leaving the table"), "{watched}");

    // Links that lead nowhere, refused in words with exit code 2.
    let out = join(vec![format!("http://{addr}/play/{id}?token=bad")], "").await;
    assert_refused(&out, "the server refused the link");
    let out = join(vec![format!("http://{addr}/lobby")], "").await;
    assert_refused(&out, "is not a table's link");
}
