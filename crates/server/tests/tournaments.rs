//! Tournaments through the API (docs/accounts.md, Tournaments), each test on SQLite and on
//! PostgreSQL: a round robin of four accounts at Distop-IA played to its standings (one of
//! its games move by move from the legal moves the API offers, the others by a
//! resignation), a Swiss of six at Drop Site that pairs no two players twice while it
//! can, and bots filling the seat a bye would leave empty.

use crate::common;
use axum::http::StatusCode;
use serde_json::{json, Value};
use server::AppState;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

fn limits() -> server::Limits {
    server::Limits {
        sign_in_burst: 100,
        ..common::unlimited()
    }
}

use common::send_cookie as send;

/// Signs up each name; their session cookies by name.
async fn sign_up_all(state: &AppState, names: &[&str]) -> HashMap<String, String> {
    let mut cookies = HashMap::new();
    for name in names {
        let body = json!({"name": name, "password": "correct horse"});
        let (status, headers, answer) =
            send(state, "POST", "/api/accounts", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        let cookie = headers
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .and_then(|v| v.strip_prefix("tabletop_session="))
            .expect("the session cookie")
            .to_string();
        cookies.insert((*name).to_string(), cookie);
    }
    cookies
}

/// A tournament created by the first of `names` from `body`, joined by the others and
/// started by its creator: the started tournament.
async fn started(
    state: &AppState,
    cookies: &HashMap<String, String>,
    names: &[&str],
    body: Value,
) -> Value {
    let creator = Some(cookies[names[0]].as_str());
    let (status, _, t) = send(state, "POST", "/api/tournaments", creator, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().expect("id");
    for name in &names[1..] {
        let join = format!("/api/tournaments/{id}/join");
        let (status, _, answer) = send(state, "POST", &join, Some(&cookies[*name]), None).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let start = format!("/api/tournaments/{id}/start");
    let (status, _, t) = send(state, "POST", &start, creator, None).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    t
}

/// The tournament once it has `rounds` rounds with every table made, or has finished.
async fn wait_for_round(state: &AppState, id: &str, rounds: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, _, t) =
            send(state, "GET", &format!("/api/tournaments/{id}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{t}");
        let pairings = t["pairings"].as_array().expect("pairings");
        let made = pairings.len() == rounds
            && pairings[rounds - 1]["boards"]
                .as_array()
                .expect("boards")
                .iter()
                .all(|b| b["bye"] == true || b["table"].is_string());
        if made || t["status"] == "finished" {
            return t;
        }
        assert!(Instant::now() < deadline, "round {rounds} never came: {t}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The players of a board, by seat (`None` for a bot).
fn players(board: &Value) -> Vec<Option<String>> {
    board["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p.as_str().map(str::to_string))
        .collect()
}

/// The two people at a board of two, and the pair they make (in the order of their names).
fn two_people(board: &Value) -> (Vec<String>, (String, String)) {
    let seats: Vec<String> = players(board)
        .into_iter()
        .map(|p| p.expect("a person"))
        .collect();
    let pair = (
        seats[0].clone().min(seats[1].clone()),
        seats[0].clone().max(seats[1].clone()),
    );
    (seats, pair)
}

/// The account of `cookie` resigns its seat at table `table`, trying again while a bot
/// moves on.
async fn resign(state: &AppState, table: &str, cookie: &str) {
    for _ in 0..100 {
        let uri = format!("/api/tables/{table}/resign");
        let (status, _, answer) = send(state, "POST", &uri, Some(cookie), None).await;
        if status == StatusCode::OK {
            return;
        }
        assert_eq!(answer["code"], "action/stale_version", "{answer}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("could not resign at {table}");
}

/// Plays table `table` to its end from the legal moves the API offers each seat: the
/// seat to act plays its first legal move. Answers the number of moves.
async fn play_out(state: &AppState, table: &str, cookies: &[&str]) -> usize {
    let uri = format!("/api/tables/{table}/legal");
    for moves in 0..5000 {
        let (status, _, first) = send(state, "GET", &uri, Some(cookies[0]), None).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let Some(seat) = first["to_act"].as_u64() else {
            let (_, _, view) =
                send(state, "GET", &format!("/api/tables/{table}"), None, None).await;
            assert_eq!(view["status"], "finished", "{view}");
            return moves;
        };
        let legal = if seat == 0 {
            first
        } else {
            send(state, "GET", &uri, Some(cookies[seat as usize]), None)
                .await
                .2
        };
        let action = legal["legal"][0]
            .as_str()
            .expect("a legal move")
            .to_string();
        let body = json!({"action": action, "version": legal["version"]});
        let (status, _, answer) = send(
            state,
            "POST",
            &format!("/api/tables/{table}/actions"),
            Some(cookies[seat as usize]),
            Some(body),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    panic!("table {table} did not end in 5000 moves");
}

on_both_stores!(
    a_round_robin_of_four_at_distopia_runs_to_its_standings,
    "tournaments",
    limits()
);

async fn a_round_robin_of_four_at_distopia_runs_to_its_standings(state: AppState) {
    let names = ["Ada", "Bea", "Cy", "Di"];
    let cookies = sign_up_all(&state, &names).await;
    let ada = cookies["Ada"].as_str();
    // Refused as asked: signed out, a round robin at tables of 4, a Swiss with no rounds.
    let body = json!({"name": "Spring", "game": "distopia", "format": "round_robin"});
    let (status, _, answer) =
        send(&state, "POST", "/api/tournaments", None, Some(body.clone())).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("auth/signed_out"))
    );
    for (bad, code) in [
        (
            json!({"name": "x", "game": "dropsite", "format": "round_robin", "table_size": 4}),
            "tournament/invalid",
        ),
        (
            json!({"name": "x", "game": "dropsite", "format": "swiss"}),
            "tournament/invalid",
        ),
        (
            json!({"name": "x", "game": "distopia", "format": "swiss", "rounds": 2, "table_size": 3}),
            "tournament/invalid",
        ),
        (
            json!({"name": "", "game": "distopia", "format": "round_robin"}),
            "tournament/invalid",
        ),
        (
            json!({"name": "x", "game": "chess", "format": "round_robin"}),
            "game/unknown",
        ),
    ] {
        let (_, _, answer) = send(&state, "POST", "/api/tournaments", Some(ada), Some(bad)).await;
        assert_eq!(answer["code"], code, "{answer}");
    }
    let (status, _, t) = send(&state, "POST", "/api/tournaments", Some(ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().expect("id").to_string();
    assert_eq!(
        (t["status"].as_str(), t["creator"].as_str()),
        (Some("open"), Some("Ada"))
    );
    assert_eq!(t["entrants"], json!(["Ada"]), "its creator plays");
    // Only its creator starts it, and not alone.
    let start = format!("/api/tournaments/{id}/start");
    let join = format!("/api/tournaments/{id}/join");
    let (_, _, answer) = send(&state, "POST", &start, Some(ada), None).await;
    assert_eq!(answer["code"], "tournament/too_few", "{answer}");
    for name in ["Bea", "Cy", "Di"] {
        let (status, _, answer) = send(&state, "POST", &join, Some(&cookies[name]), None).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (_, _, answer) = send(&state, "POST", &join, Some(&cookies["Bea"]), None).await;
    assert_eq!(answer["code"], "tournament/entry", "{answer}");
    let (_, _, answer) = send(&state, "POST", &start, Some(&cookies["Bea"]), None).await;
    assert_eq!(answer["code"], "tournament/not_creator", "{answer}");
    let (_, _, list) = send(&state, "GET", "/api/tournaments", None, None).await;
    assert_eq!(
        (list[0]["id"].as_str(), list[0]["players"].as_u64()),
        (Some(id.as_str()), Some(4))
    );
    let (status, _, t) = send(&state, "POST", &start, Some(ada), None).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(
        (t["status"].as_str(), t["rounds"].as_u64()),
        (Some("running"), Some(3))
    );
    let (_, _, answer) = send(&state, "DELETE", &join, Some(&cookies["Di"]), None).await;
    assert_eq!(answer["code"], "tournament/closed", "{answer}");

    // Each round: the first table of the first round is played move by move; at every
    // other, the player who joined later resigns.
    let rank = |n: &str| names.iter().position(|m| *m == n).expect("a player");
    let mut met = HashSet::new();
    let mut played_out = None;
    for round in 1..=3 {
        let t = wait_for_round(&state, &id, round).await;
        let boards = t["pairings"][round - 1]["boards"]
            .as_array()
            .expect("boards")
            .clone();
        assert_eq!(boards.len(), 2, "{t}");
        for (b, board) in boards.iter().enumerate() {
            let (seats, pair) = two_people(board);
            assert!(met.insert(pair.clone()), "{pair:?} met twice");
            let table = board["table"].as_str().expect("a table");
            // The table is in both players' lists.
            let (_, _, me) = send(&state, "GET", "/api/me", Some(&cookies[&seats[0]]), None).await;
            assert!(
                me["tables"]
                    .as_array()
                    .expect("tables")
                    .iter()
                    .any(|x| x["id"] == table),
                "{me}"
            );
            if round == 1 && b == 0 {
                let by_seat: Vec<&str> = seats.iter().map(|s| cookies[s].as_str()).collect();
                let moves = play_out(&state, table, &by_seat).await;
                played_out = Some((table.to_string(), moves));
            } else {
                let loser = seats.iter().max_by_key(|s| rank(s)).expect("a loser");
                resign(&state, table, &cookies[loser]).await;
            }
        }
    }
    let t = wait_for_round(&state, &id, 4).await;
    assert_eq!(t["status"], "finished", "{t}");
    assert_eq!(met.len(), 6, "every pair met once");
    // The standings: points from each game's places, counted here.
    let mut points: HashMap<String, f64> = HashMap::new();
    for round in t["pairings"].as_array().expect("rounds") {
        for board in round["boards"].as_array().expect("boards") {
            let places = board["places"].as_array().expect("places");
            let seats = players(board);
            for (s, who) in seats.iter().enumerate() {
                let (mine, theirs) = (places[s].as_u64(), places[1 - s].as_u64());
                let p = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                *points.entry(who.clone().expect("a person")).or_default() += p;
            }
        }
    }
    let standings = t["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 4);
    let mut last = f64::INFINITY;
    for (i, line) in standings.iter().enumerate() {
        let name = line["name"].as_str().expect("name");
        assert_eq!(line["rank"], i + 1);
        assert_eq!(line["played"], 3);
        assert_eq!(line["points"].as_f64(), Some(points[name]), "{name}: {t}");
        assert!(points[name] <= last, "sorted by points: {t}");
        last = points[name];
    }
    println!("the played-out game: {played_out:?}; standings {standings:?}");
    // Who won the played-out game decides Ada's and Di's places; the rest follow from
    // the resignations: Bea beat Cy and Di, Cy beat Di.
    assert_eq!(points["Bea"], 2.0);
    assert_eq!(points["Ada"] + points["Di"], 3.0);
    if points["Ada"] == 3.0 {
        let order: Vec<&str> = standings
            .iter()
            .map(|l| l["name"].as_str().expect("name"))
            .collect();
        assert_eq!(order, names);
    }
}

/// Whether six players (by name) can be paired with no pair of `met`.
fn pairing_exists(people: &[String], met: &HashSet<(String, String)>) -> bool {
    let Some((a, rest)) = people.split_first() else {
        return true;
    };
    (0..rest.len()).any(|i| {
        let b = &rest[i];
        let key = (a.clone().min(b.clone()), a.clone().max(b.clone()));
        if met.contains(&key) {
            return false;
        }
        let mut left = rest.to_vec();
        left.remove(i);
        pairing_exists(&left, met)
    })
}

on_both_stores!(
    a_swiss_of_six_at_dropsite_pairs_no_two_twice_while_it_can,
    "tournaments",
    limits()
);

async fn a_swiss_of_six_at_dropsite_pairs_no_two_twice_while_it_can(state: AppState) {
    let names = ["Ada", "Bea", "Cy", "Di", "Eve", "Fay"];
    let cookies = sign_up_all(&state, &names).await;
    let body = json!({
        "name": "Drop Site Swiss", "game": "dropsite", "format": "swiss", "rounds": 5,
        "options": {"target": 50}
    });
    let t = started(&state, &cookies, &names, body).await;
    let id = t["id"].as_str().expect("id").to_string();
    let everyone: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut met: HashSet<(String, String)> = HashSet::new();
    let mut repeats_forced = 0;
    for round in 1..=5 {
        let t = wait_for_round(&state, &id, round).await;
        let boards = t["pairings"][round - 1]["boards"]
            .as_array()
            .expect("boards")
            .clone();
        assert_eq!(boards.len(), 3, "{t}");
        let could = pairing_exists(&everyone, &met);
        for (b, board) in boards.iter().enumerate() {
            let (seats, pair) = two_people(board);
            let again = !met.insert(pair.clone());
            if could {
                assert!(!again, "round {round}: {pair:?} met twice though a pairing without a rematch exists: {t}");
            } else if again {
                repeats_forced += 1;
            }
            // Who loses is spread by round and board: seat 1 on even sums, seat 2 on odd.
            let loser = &seats[(round + b) % 2];
            resign(
                &state,
                board["table"].as_str().expect("a table"),
                &cookies[loser],
            )
            .await;
        }
    }
    let t = wait_for_round(&state, &id, 6).await;
    assert_eq!(t["status"], "finished", "{t}");
    let standings = t["standings"].as_array().expect("standings");
    let total: f64 = standings
        .iter()
        .map(|l| l["points"].as_f64().expect("points"))
        .sum();
    assert_eq!(total, 15.0, "one point a game, 3 games a round: {t}");
    assert!(standings.iter().all(|l| l["played"] == 5));
    for pair in standings.windows(2) {
        let key = |l: &Value| {
            (
                l["points"].as_f64(),
                l["buchholz"].as_f64(),
                l["sonneborn_berger"].as_f64(),
            )
        };
        assert!(key(&pair[0]) >= key(&pair[1]), "{t}");
    }
    println!(
        "Swiss of six: {} pairs met, {repeats_forced} rematches forced",
        met.len()
    );
}

on_both_stores!(
    bots_fill_the_seat_a_bye_would_leave_empty,
    "tournaments",
    limits()
);

async fn bots_fill_the_seat_a_bye_would_leave_empty(state: AppState) {
    let names = ["Ada", "Bea", "Cy"];
    let cookies = sign_up_all(&state, &names).await;
    let body = json!({"name": "Three and a bot", "game": "dropsite", "format": "round_robin", "fill": "random"});
    let t = started(&state, &cookies, &names, body).await;
    assert_eq!(t["fill"], "random");
    let id = t["id"].as_str().expect("id").to_string();
    assert_eq!(t["rounds"], 3, "{t}");
    let mut with_bot = Vec::new();
    for round in 1..=3 {
        let t = wait_for_round(&state, &id, round).await;
        for board in t["pairings"][round - 1]["boards"]
            .as_array()
            .expect("boards")
        {
            assert_eq!(board["bye"], false, "a bot plays instead of a bye: {t}");
            let seats = players(board);
            let person = seats.iter().flatten().next().expect("a person").clone();
            if seats.iter().any(Option::is_none) {
                with_bot.push(person.clone());
            }
            // The person resigns: the bot (or the other person) wins.
            resign(
                &state,
                board["table"].as_str().expect("a table"),
                &cookies[&person],
            )
            .await;
        }
    }
    with_bot.sort();
    assert_eq!(with_bot, ["Ada", "Bea", "Cy"], "each played the bot once");
    let t = wait_for_round(&state, &id, 4).await;
    assert_eq!(t["status"], "finished", "{t}");
    let total: f64 = (t["standings"].as_array().expect("standings").iter())
        .map(|l| l["points"].as_f64().expect("points"))
        .sum();
    // Three games between people (a point each) and three lost to the bot (none).
    assert_eq!(total, 3.0, "{t}");
}
