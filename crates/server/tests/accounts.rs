//! Accounts, sessions and ratings (docs/accounts.md), each test on SQLite and on
//! PostgreSQL: signing up, in and out, the cookie's flags, the sign-in limit, the Origin
//! check, seats owned by accounts, and rated games moving ratings by the documented
//! formula (computed here on its own, from the Weng-Lin paper's equations).

use crate::common;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use serde_json::{json, Value};
use server::{AppState, Limits};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The test limits with room for many sign-ins of one name.
fn roomy() -> Limits {
    Limits {
        sign_in_burst: 100,
        ..common::unlimited()
    }
}

use common::HOST;

use common::send_as as send;

/// The session id a `Set-Cookie` answer gives, and the whole header.
fn set_cookie(headers: &HeaderMap) -> (String, String) {
    let header = headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a Set-Cookie header")
        .to_string();
    let value = header
        .split(';')
        .next()
        .and_then(|pair| pair.strip_prefix("tabletop_session="))
        .expect("the session cookie")
        .to_string();
    (value, header)
}

/// Signs up `name` and answers its session id.
async fn sign_up(state: &AppState, name: &str, password: &str) -> String {
    let body = json!({"name": name, "password": password});
    let (status, headers, answer) =
        send(state, "POST", "/api/accounts", None, None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    set_cookie(&headers).0
}

/// Signs `name` in: the status, the session id on success, and the answer.
async fn sign_in(
    state: &AppState,
    name: &str,
    password: &str,
) -> (StatusCode, Option<String>, Value) {
    let body = json!({"name": name, "password": password});
    let (status, headers, answer) =
        send(state, "POST", "/api/session", None, None, Some(body)).await;
    let cookie = (status == StatusCode::OK).then(|| set_cookie(&headers).0);
    (status, cookie, answer)
}

async fn me(state: &AppState, cookie: &str) -> (StatusCode, Value) {
    let (status, _, answer) = send(state, "GET", "/api/me", Some(cookie), None, None).await;
    (status, answer)
}

on_both_stores!(signing_up_in_and_out, "accounts", roomy());

async fn signing_up_in_and_out(state: AppState) {
    let body = json!({"name": " Ada ", "password": "correct horse"});
    let (status, headers, answer) =
        send(&state, "POST", "/api/accounts", None, None, Some(body)).await;
    assert_eq!(
        (status, &answer),
        (StatusCode::CREATED, &json!({"name": "Ada"}))
    );
    let (first, header) = set_cookie(&headers);
    assert_eq!(first.len(), 64, "{header}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(header.contains(flag), "{flag} in {header}");
    }
    assert!(!header.contains("Secure"), "plain HTTP: {header}");
    let (status, mine) = me(&state, &first).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mine, json!({"name": "Ada", "ratings": [], "tables": []}));
    let (_, _, answer) = send(&state, "GET", "/api/session", Some(&first), None, None).await;
    assert_eq!(answer, json!({"signed_in": true, "name": "Ada"}));
    let (status, _, answer) = send(&state, "GET", "/api/session", None, None, None).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, json!({"signed_in": false}))
    );
    let (status, _, answer) = send(&state, "GET", "/api/me", None, None, None).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("auth/signed_out"))
    );

    // A name that looks like Ada's (a Greek capital alpha, or in lower case) is taken; a
    // short password refused.
    for alike in ["\u{391}da", "ADA"] {
        let alike = json!({"name": alike, "password": "another one"});
        let (status, _, answer) =
            send(&state, "POST", "/api/accounts", None, None, Some(alike)).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::CONFLICT, Some("account/name_taken"))
        );
    }
    let short = json!({"name": "Bea", "password": "short"});
    let (status, _, answer) = send(&state, "POST", "/api/accounts", None, None, Some(short)).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("account/password"))
    );

    // Signing in again (the name in any case) opens a second session; signing out ends
    // only the one it names.
    let (status, second, answer) = sign_in(&state, "ada", "correct horse").await;
    assert_eq!((status, &answer), (StatusCode::OK, &json!({"name": "Ada"})));
    let second = second.expect("a session");
    assert_ne!(second, first);
    let (status, headers, _) =
        send(&state, "DELETE", "/api/session", Some(&first), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        set_cookie(&headers).1.contains("Max-Age=0"),
        "the cookie is forgotten"
    );
    assert_eq!(me(&state, &first).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&state, &second).await.0, StatusCode::OK);

    // Signing out everywhere ends every session of the account.
    let third = sign_in(&state, "Ada", "correct horse")
        .await
        .1
        .expect("a session");
    let (status, _, answer) =
        send(&state, "DELETE", "/api/sessions", Some(&third), None, None).await;
    assert_eq!(
        (status, &answer),
        (
            StatusCode::OK,
            &json!({"signed_out": true, "sessions_ended": 2})
        )
    );
    assert_eq!(me(&state, &second).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&state, &third).await.0, StatusCode::UNAUTHORIZED);

    // A new password needs the old one, and ends every other session.
    let here = sign_in(&state, "Ada", "correct horse")
        .await
        .1
        .expect("a session");
    let there = sign_in(&state, "Ada", "correct horse")
        .await
        .1
        .expect("a session");
    let wrong = json!({"old_password": "not it at all", "password": "battery staple"});
    let (status, _, answer) =
        send(&state, "PATCH", "/api/me", Some(&here), None, Some(wrong)).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("auth/bad_credentials"))
    );
    let right = json!({"old_password": "correct horse", "password": "battery staple"});
    let (status, _, _) = send(&state, "PATCH", "/api/me", Some(&here), None, Some(right)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me(&state, &here).await.0, StatusCode::OK);
    assert_eq!(me(&state, &there).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        sign_in(&state, "Ada", "correct horse").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        sign_in(&state, "Ada", "battery staple").await.0,
        StatusCode::OK
    );
}

on_both_stores!(
    the_cookie_is_secure_over_https,
    "accounts",
    Limits {
        trust_forwarded: true,
        ..roomy()
    }
);

async fn the_cookie_is_secure_over_https(state: AppState) {
    // Behind a trusted proxy: `Secure` when the proxy says the request came over HTTPS.
    for (proto, secure) in [(None, false), (Some("http"), false), (Some("https"), true)] {
        let mut request = Request::builder()
            .method("POST")
            .uri("/api/accounts")
            .header("host", HOST)
            .header("content-type", "application/json");
        if let Some(proto) = proto {
            request = request.header("x-forwarded-proto", proto);
        }
        let name = format!("Ada {}", proto.unwrap_or("none"));
        let body = json!({"name": name, "password": "correct horse"}).to_string();
        let request = request.body(Body::from(body)).expect("request");
        let (status, headers, _) = common::send_raw(&state, request).await;
        assert_eq!(status, StatusCode::CREATED);
        let (_, header) = set_cookie(&headers);
        assert_eq!(header.ends_with("; Secure"), secure, "{proto:?}: {header}");
    }
    // `serve --secure-cookies`: always.
    let store = server::SqliteStore::connect("sqlite::memory:")
        .await
        .expect("sqlite");
    let limits = Limits {
        secure_cookies: true,
        ..roomy()
    };
    let secure = AppState::with_limits(Arc::new(store), limits)
        .await
        .expect("state");
    let body = json!({"name": "Bea", "password": "correct horse"});
    let (_, headers, _) = send(&secure, "POST", "/api/accounts", None, None, Some(body)).await;
    let (cookie, header) = set_cookie(&headers);
    assert!(
        header.contains("HttpOnly; SameSite=Lax; Secure"),
        "{header}"
    );
    let (_, headers, _) = send(&secure, "DELETE", "/api/session", Some(&cookie), None, None).await;
    assert!(
        set_cookie(&headers).1.ends_with("; Secure"),
        "forgotten as it was set"
    );
}

on_both_stores!(
    a_wrong_password_and_an_unknown_name_are_refused_alike,
    "accounts",
    roomy()
);

async fn a_wrong_password_and_an_unknown_name_are_refused_alike(state: AppState) {
    sign_up(&state, "Ada", "correct horse").await;
    let mut wrong = Duration::MAX;
    let mut unknown = Duration::MAX;
    let mut answers = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let (status, _, answer) = sign_in(&state, "Ada", "wrong password").await;
        wrong = wrong.min(started.elapsed());
        answers.push((status, answer));
        let started = Instant::now();
        let (status, _, answer) = sign_in(&state, "Nobody", "wrong password").await;
        unknown = unknown.min(started.elapsed());
        answers.push((status, answer));
    }
    for (status, answer) in &answers {
        assert_eq!(*status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer, &answers[0].1, "the same answer for both");
    }
    assert_eq!(answers[0].1["code"], "auth/bad_credentials");
    // Both check a password against an Argon2id hash (a dummy one for the unknown name):
    // tens of milliseconds each, where a lookup alone takes well under one. (Loose
    // bounds: the machine may be busy with other work.)
    println!("sign-in refused in {wrong:?} (wrong password) and {unknown:?} (unknown name)");
    assert!(
        unknown * 8 >= wrong && wrong * 8 >= unknown,
        "{unknown:?} against {wrong:?}"
    );
}

on_both_stores!(
    sign_in_attempts_are_limited_per_name,
    "accounts",
    common::unlimited()
);

async fn sign_in_attempts_are_limited_per_name(state: AppState) {
    sign_up(&state, "Ada", "correct horse").await;
    let burst = Limits::default().sign_in_burst;
    for _ in 0..burst {
        assert_eq!(
            sign_in(&state, "Ada", "guess").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    // Past the burst even the right password waits, told how long.
    let (status, cookie, answer) = sign_in(&state, "Ada", "correct horse").await;
    assert_eq!((status, cookie), (StatusCode::TOO_MANY_REQUESTS, None));
    assert_eq!(answer["code"], "request/rate_limited");
    assert!(
        answer["retry_after"].as_u64().is_some_and(|s| s >= 1),
        "{answer}"
    );
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("sign in")),
        "{answer}"
    );
    // Another name has its own count.
    sign_up(&state, "Bea", "correct horse").await;
    assert_eq!(
        sign_in(&state, "Bea", "correct horse").await.0,
        StatusCode::OK
    );
}

on_both_stores!(
    a_cross_origin_write_with_the_cookie_changes_nothing,
    "accounts",
    roomy()
);

async fn a_cross_origin_write_with_the_cookie_changes_nothing(state: AppState) {
    let ada = sign_up(&state, "Ada", "correct horse").await;
    let evil = Some("https://evil.example");
    let table = json!({"game": "dropsite", "seats": ["human", "random"]});
    let (status, _, answer) = send(
        &state,
        "POST",
        "/api/tables",
        Some(&ada),
        evil,
        Some(table.clone()),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("auth/cross_origin"))
    );
    let change = json!({"old_password": "correct horse", "password": "taken over"});
    let (status, _, answer) =
        send(&state, "PATCH", "/api/me", Some(&ada), evil, Some(change)).await;
    assert_eq!(answer["code"], "auth/cross_origin", "{status}");
    let (status, _, _) = send(&state, "DELETE", "/api/sessions", Some(&ada), evil, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nothing changed: no table, the password and the session as they were.
    let (_, lobby) = common::get(&state, "/api/tables", None).await;
    assert_eq!(lobby, json!([]));
    assert_eq!(me(&state, &ada).await.1["tables"], json!([]));
    assert_eq!(
        sign_in(&state, "Ada", "correct horse").await.0,
        StatusCode::OK
    );
    // The same call from the site's own page (or from no page) goes through.
    let own = format!("http://{HOST}");
    let (status, _, made) = send(
        &state,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(&own),
        Some(table),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().expect("id").to_string();
    // A WebSocket upgrade with the cookie from another site is refused too.
    let request = Request::builder()
        .uri(format!("/api/tables/{id}/ws"))
        .header("host", HOST)
        .header("origin", "https://evil.example")
        .header("cookie", format!("tabletop_session={ada}"))
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .body(Body::empty())
        .expect("request");
    let (status, json) = common::send(&state, request).await;
    assert_eq!(
        (status, json["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("auth/cross_origin"))
    );
    // A sign-in from another site's page is refused as well.
    let body = json!({"name": "Ada", "password": "correct horse"});
    let (status, _, _) = send(&state, "POST", "/api/session", None, evil, Some(body)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

on_both_stores!(seats_owned_by_accounts, "accounts", roomy());

async fn seats_owned_by_accounts(state: AppState) {
    let ada = sign_up(&state, "Ada", "correct horse").await;
    let bea = sign_up(&state, "Bea", "correct horse").await;
    // Ada sits at seat 1 (JSON counts from 0) and names Bea for seat 0.
    let body = json!({"game": "dropsite", "seat": 1, "seats": [{"player": "human", "account": "Bea"}, "human"]});
    let (status, _, table) =
        send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let id = table["id"].as_str().expect("id").to_string();
    assert_eq!(table["seats"][0]["account"], "Bea");
    assert_eq!(table["seats"][1]["account"], "Ada");
    // Bea's seat opens where Bea is signed in: its token is nobody's.
    assert!(table["seats"][0].get("token").is_none(), "{table}");
    assert!(table["seats"][1]["token"].is_string(), "{table}");
    let first = table["to_act"].as_u64().expect("to act") as usize;
    for (cookie, seat) in [(&bea, 0), (&ada, 1)] {
        let (status, mine) = me(&state, cookie).await;
        assert_eq!(status, StatusCode::OK);
        let listed = &mine["tables"][0];
        assert_eq!(
            (listed["id"].as_str(), listed["seat"].as_u64()),
            (Some(id.as_str()), Some(seat))
        );
        assert_eq!(listed["your_turn"], json!(first == seat as usize), "{mine}");
        // The seat's own view, from the cookie alone.
        let (status, _, view) = send(
            &state,
            "GET",
            &format!("/api/tables/{id}/view"),
            Some(cookie),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(view["seat"], json!(seat), "{view}");
    }
    // A guest cannot sit under an account's name, nor name an account nobody has.
    let guest =
        json!({"game": "dropsite", "seats": [{"player": "human", "name": "Bea"}, "random"]});
    let (status, _, answer) = send(&state, "POST", "/api/tables", None, None, Some(guest)).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("seat/name_taken"))
    );
    let nobody =
        json!({"game": "dropsite", "seats": [{"player": "human", "account": "Cy"}, "random"]});
    let (status, _, answer) = send(&state, "POST", "/api/tables", None, None, Some(nobody)).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("account/not_found"))
    );
    let open = json!({"game": "dropsite", "seats": ["random", "open"]});
    let made = common::create_table(&state, open).await;
    let join = format!(
        "/api/tables/{}/seats/1/join",
        made["id"].as_str().expect("id")
    );
    let (status, _, answer) = send(
        &state,
        "POST",
        &join,
        None,
        None,
        Some(json!({"name": "BEA"})),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("seat/name_taken"))
    );
    // Signed in, Bea takes it under her name, and it is hers.
    let (status, _, answer) = send(&state, "POST", &join, Some(&bea), None, None).await;
    assert_eq!(
        (status, answer["name"].as_str()),
        (StatusCode::CREATED, Some("Bea")),
        "{answer}"
    );
    assert_eq!(
        me(&state, &bea).await.1["tables"].as_array().map(Vec::len),
        Some(2)
    );
}

/// Weng-Lin's Bradley-Terry update with every seat a team of one (the paper's algorithm
/// 1), written here on its own: each seat's (mu, sigma) after a game with these places.
fn weng_lin(before: &[(f64, f64)], places: &[u8]) -> Vec<(f64, f64)> {
    let beta: f64 = 25.0 / 6.0;
    let kappa = 1e-6;
    (0..before.len())
        .map(|i| {
            let (mu_i, sigma_i) = before[i];
            let (mut omega, mut delta) = (0.0, 0.0);
            for q in (0..before.len()).filter(|&q| q != i) {
                let (mu_q, sigma_q) = before[q];
                let c = (sigma_i.powi(2) + sigma_q.powi(2) + 2.0 * beta.powi(2)).sqrt();
                let p = (mu_i / c).exp() / ((mu_i / c).exp() + (mu_q / c).exp());
                let s = match places[i].cmp(&places[q]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                let gamma = sigma_i / c;
                omega += sigma_i.powi(2) / c * (s - p);
                delta += gamma * sigma_i.powi(2) / c.powi(2) * p * (1.0 - p);
            }
            let mu = mu_i + omega;
            let sigma = sigma_i * (1.0 - delta).max(kappa).sqrt();
            (mu, sigma)
        })
        .collect()
}

/// The shown rating (docs/accounts.md): `round(1000 + 40 × (mu − 3 sigma))`.
fn shown(mu: f64, sigma: f64) -> i64 {
    (1000.0 + 40.0 * (mu - 3.0 * sigma)).round() as i64
}

/// `name`'s ratings page once it shows `games` rated games of `game`.
async fn rated_page(state: &AppState, name: &str, game: &str, games: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, page) = common::get(state, &format!("/api/players/{name}"), None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let rating = page["ratings"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["game"] == game))
            .cloned();
        if rating.as_ref().is_some_and(|r| r["games"] == games) {
            return rating.unwrap_or_default();
        }
        assert!(Instant::now() < deadline, "{name} not rated: {page}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Resigns the seat `cookie` owns at table `id`, trying again while bots move on.
async fn resign(state: &AppState, id: &str, cookie: &str) {
    for _ in 0..50 {
        let (status, _, answer) = send(
            state,
            "POST",
            &format!("/api/tables/{id}/resign"),
            Some(cookie),
            None,
            None,
        )
        .await;
        if status == StatusCode::OK {
            return;
        }
        assert_eq!(answer["code"], "action/stale_version", "{answer}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("could not resign at {id}");
}

on_both_stores!(
    a_rated_two_seat_game_moves_both_ratings_by_the_formula,
    "accounts",
    roomy()
);

async fn a_rated_two_seat_game_moves_both_ratings_by_the_formula(state: AppState) {
    let ada = sign_up(&state, "Ada", "correct horse").await;
    let bea = sign_up(&state, "Bea", "correct horse").await;
    let seats = json!(["human", {"player": "human", "account": "Bea"}]);
    // A rated table seats only accounts and bots with a fixed rating (at least one
    // account), and gives no hints.
    for (body, code) in [
        (
            json!({"game": "dropsite", "rated": true, "seats": ["human", "ismcts:5000"]}),
            "table/invalid",
        ),
        (
            json!({"game": "dropsite", "rated": true, "seats": ["medium", "random"]}),
            "table/invalid",
        ),
        (
            json!({"game": "dropsite", "rated": true, "seats": ["human", "human"]}),
            "table/invalid",
        ),
        (
            json!({"game": "dropsite", "rated": true, "seats": seats, "table": {"hints": true}}),
            "table/rated",
        ),
    ] {
        let (status, _, answer) =
            send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
        assert_eq!(answer["code"], code, "{status} {answer}");
    }
    // An unrated game first: it moves nobody's rating.
    let body = json!({"game": "dropsite", "seats": seats});
    let (_, _, unrated) = send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
    resign(&state, unrated["id"].as_str().expect("id"), &ada).await;
    // Then a rated one, which Ada resigns: a loss.
    let body = json!({"game": "dropsite", "rated": true, "seats": seats});
    let (status, _, table) =
        send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    assert_eq!(
        (
            table["table"]["rated"].as_bool(),
            table["table"]["hints"].as_bool()
        ),
        (Some(true), Some(false))
    );
    let id = table["id"].as_str().expect("id").to_string();
    let (_, _, answer) = send(
        &state,
        "POST",
        &format!("/api/tables/{id}/undo"),
        Some(&bea),
        None,
        None,
    )
    .await;
    assert_eq!(answer["code"], "table/rated", "{answer}");
    let (_, _, answer) = send(
        &state,
        "POST",
        &format!("/api/tables/{id}/hint"),
        Some(&bea),
        None,
        None,
    )
    .await;
    assert_eq!(answer["code"], "table/rated", "{answer}");
    resign(&state, &id, &ada).await;
    let expected = weng_lin(&[(25.0, 25.0 / 3.0); 2], &[1, 0]);
    for (name, (mu, sigma)) in ["Ada", "Bea"].iter().zip(&expected) {
        // One game counted: the unrated one moved nothing.
        let rating = rated_page(&state, name, "dropsite", 1).await;
        let got = (
            rating["mu"].as_f64().expect("mu"),
            rating["sigma"].as_f64().expect("sigma"),
        );
        assert!(
            (got.0 - mu).abs() < 1e-9 && (got.1 - sigma).abs() < 1e-9,
            "{name}: {got:?} against {mu}, {sigma}"
        );
        assert_eq!(rating["rating"], shown(*mu, *sigma), "{name}");
    }
    println!(
        "after one rated game: Bea {:?} Ada {:?}",
        expected[1], expected[0]
    );
    // The worked example of docs/accounts.md.
    let example = (
        shown(expected[1].0, expected[1].1),
        shown(expected[0].0, expected[0].1),
    );
    assert_eq!(example, (1138, 927));
    // Bea won: she moved up, Ada down, by as much (equal ratings before).
    assert!(expected[1].0 > 25.0 && expected[0].0 < 25.0);
    assert!((expected[1].0 - 25.0 - (25.0 - expected[0].0)).abs() < 1e-12);
    let (_, board) = common::get(&state, "/api/leaderboard/dropsite", None).await;
    assert_eq!(
        (board[0]["name"].as_str(), board[0]["rank"].as_u64()),
        (Some("Bea"), Some(1)),
        "{board}"
    );
    let (_, page) = common::get(&state, "/api/players/Ada", None).await;
    assert_eq!(page["recent"][0]["table"], json!(id));
    assert_eq!(page["recent"][0]["place"], 1);
    let (_, mine) = me(&state, &ada).await;
    let listed: Vec<&Value> = mine["tables"].as_array().expect("tables").iter().collect();
    assert_eq!(listed.len(), 2);
    assert!(
        listed.iter().all(|t| t["result"]["winners"] == json!([1])),
        "{mine}"
    );
}

on_both_stores!(
    a_rated_game_against_a_bot_counts_against_its_fixed_rating,
    "accounts",
    roomy()
);

/// A rated table of an account and a `medium` bot (docs/accounts.md, "The bots'
/// ratings"): the account, who resigns, moves by the formula against the bot's fixed
/// (25, 1); the bot shows 1880 before and after, and has no history.
async fn a_rated_game_against_a_bot_counts_against_its_fixed_rating(state: AppState) {
    let ada = sign_up(&state, "Ada", "correct horse").await;
    let body = json!({"game": "dropsite", "rated": true, "seats": ["human", "medium"]});
    let (status, _, table) =
        send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let ratings = |t: &Value| -> Vec<Value> {
        (t["seats"].as_array().expect("seats").iter())
            .map(|s| s["rating"].clone())
            .collect()
    };
    assert_eq!(ratings(&table), [json!(1000), json!(1880)], "{table}");
    let id = table["id"].as_str().expect("id").to_string();
    resign(&state, &id, &ada).await;
    let expected = weng_lin(&[(25.0, 25.0 / 3.0), (25.0, 1.0)], &[1, 0]);
    let rating = rated_page(&state, "Ada", "dropsite", 1).await;
    let got = (
        rating["mu"].as_f64().expect("mu"),
        rating["sigma"].as_f64().expect("sigma"),
    );
    assert!(
        (got.0 - expected[0].0).abs() < 1e-9 && (got.1 - expected[0].1).abs() < 1e-9,
        "{got:?} against {:?}",
        expected[0]
    );
    // By hand: c = 10.25508, p = 1/2, mu 25 − 3.38586, sigma 7.75427: 934.
    assert!((got.0 - 21.61414).abs() < 1e-5 && (got.1 - 7.75427).abs() < 1e-5);
    assert_eq!(rating["rating"], 934);
    let (_, after) = common::get(&state, &format!("/api/tables/{id}"), None).await;
    assert_eq!(ratings(&after), [json!(934), json!(1880)], "{after}");
    // The player's page: the history from 1000 to 934, the game with its players.
    let (_, page) = common::get(&state, "/api/players/Ada", None).await;
    let points: Vec<i64> = (page["history"]["dropsite"].as_array().expect("history"))
        .iter()
        .map(|p| p["rating"].as_i64().expect("rating"))
        .collect();
    assert_eq!(points, [1000, 934], "{page}");
    assert_eq!(
        page["recent"][0]["players"],
        json!(["Ada", "Seat 2"]),
        "{page}"
    );
    // The lobby's list shows the same ratings; the game's description the bots'.
    let (_, list) = common::get(&state, "/api/tables?status=finished", None).await;
    assert_eq!(ratings(&list[0]), [json!(934), json!(1880)], "{list}");
    let (_, about) = common::get(&state, "/api/games/dropsite", None).await;
    let medium = &about["bot_ratings"][4];
    assert_eq!(
        (
            medium["bot"].as_str(),
            medium["elo"].as_f64(),
            medium["rating"].as_i64()
        ),
        (Some("medium"), Some(1500.0), Some(1880)),
        "{about}"
    );
}

on_both_stores!(a_rated_four_seat_game_moves_all_four, "accounts", roomy());

async fn a_rated_four_seat_game_moves_all_four(state: AppState) {
    let mut cookies = Vec::new();
    for name in ["Ada", "Bea", "Cy", "Di"] {
        cookies.push(sign_up(&state, name, "correct horse").await);
    }
    let body = json!({
        "game": "dropsite",
        "rated": true,
        "table": {"takeover": "random"},
        "seats": ["human", {"player": "human", "account": "Bea"}, {"player": "human", "account": "Cy"}, {"player": "human", "account": "Di"}],
    });
    let (status, _, table) = send(
        &state,
        "POST",
        "/api/tables",
        Some(&cookies[0]),
        None,
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let id = table["id"].as_str().expect("id").to_string();
    // Ada, Bea and Cy resign in turn: Di wins, the earliest resigner is last.
    for cookie in &cookies[..3] {
        resign(&state, &id, cookie).await;
    }
    let places = [3, 2, 1, 0];
    let expected = weng_lin(&[(25.0, 25.0 / 3.0); 4], &places);
    for (name, (mu, sigma)) in ["Ada", "Bea", "Cy", "Di"].iter().zip(&expected) {
        let rating = rated_page(&state, name, "dropsite", 1).await;
        let got = (
            rating["mu"].as_f64().expect("mu"),
            rating["sigma"].as_f64().expect("sigma"),
        );
        assert!(
            (got.0 - mu).abs() < 1e-9 && (got.1 - sigma).abs() < 1e-9,
            "{name}: {got:?} against {mu}, {sigma}"
        );
        assert!((mu - 25.0).abs() > 0.1, "{name}'s rating moved");
    }
    println!("after one rated 4-seat game: {expected:?}");
}

/// The log lines written while `work` runs on this thread.
struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut all) = self.0.lock() {
            all.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

on_both_stores!(no_secret_reaches_the_log, "accounts", roomy());

async fn no_secret_reaches_the_log(state: AppState) {
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || Captured(writer.clone()))
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    // Over a socket of 127.0.0.1, as a browser would.
    let addr = common::spawn(state.clone()).await;
    let client = reqwest::Client::new();
    let url = |path: &str| format!("http://{addr}{path}");
    let mut secrets = Vec::new();
    let mut cookie = String::new();
    for (path, body) in [
        (
            "/api/accounts",
            json!({"name": "Ada", "password": "first secret"}),
        ),
        (
            "/api/session",
            json!({"name": "Ada", "password": "wrong secret"}),
        ),
        (
            "/api/session",
            json!({"name": "Nobody", "password": "other secret"}),
        ),
        (
            "/api/session",
            json!({"name": "Ada", "password": "first secret"}),
        ),
    ] {
        let answer = client
            .post(url(path))
            .json(&body)
            .send()
            .await
            .expect("answer");
        if let Some(set) = answer.headers().get("set-cookie") {
            cookie = set_cookie(answer.headers()).0;
            secrets.push(cookie.clone());
            assert!(set.to_str().is_ok());
        }
        let text = answer.text().await.expect("body");
        assert!(!text.contains("secret"), "{text}");
    }
    let change = json!({"old_password": "first secret", "password": "second secret"});
    let answer = client
        .patch(url("/api/me"))
        .header("cookie", format!("tabletop_session={cookie}"))
        .json(&change)
        .send()
        .await
        .expect("answer");
    assert_eq!(answer.status(), StatusCode::OK);
    let answer = client
        .get(url("/api/me"))
        .header("cookie", format!("tabletop_session={cookie}"))
        .send()
        .await
        .expect("answer");
    let text = answer.text().await.expect("body");
    let account = state
        .hub
        .store()
        .account_named(&server::domain::account_name("Ada").expect("name").1)
        .await
        .expect("read")
        .expect("Ada");
    secrets.extend([
        account.password.clone(),
        server::domain::token_hash(&cookie),
    ]);
    let passwords = [
        "first secret",
        "wrong secret",
        "other secret",
        "second secret",
    ];
    for word in secrets
        .iter()
        .map(String::as_str)
        .chain(passwords)
        .chain(["argon2"])
    {
        assert!(!text.contains(word), "`{word}` in {text}");
    }
    let written = String::from_utf8_lossy(&log.lock().expect("log")).to_string();
    assert!(
        written.contains("account Ada signed up"),
        "the log is captured: {written}"
    );
    for word in secrets
        .iter()
        .map(String::as_str)
        .chain(passwords)
        .chain(["argon2"])
    {
        assert!(!written.contains(word), "`{word}` in the log:\n{written}");
    }
}

/// In a browser: signing up from the lobby's form, and a table made by the account then
/// opened from "My tables" with no token in its link: the seat is the account's, so the
/// board offers its moves. Not one error in the console.
#[tokio::test]
async fn my_tables_open_in_the_browser_without_a_token() {
    use common::browser::{served, DESKTOP};
    let Some((bench, base)) = served().await else {
        return;
    };
    let s = bench.driver.session(DESKTOP).await.expect("browser");
    s.goto(&format!("{base}/")).await.expect("lobby");
    let name = s.wait_for("#account-name", 20).await.expect("the form");
    s.type_into(&name, "Ada").await.expect("name");
    let password = s.wait_for("#account-password", 5).await.expect("the form");
    s.type_into(&password, "correct horse")
        .await
        .expect("password");
    let sign_up = s.wait_for("#sign-up", 5).await.expect("the button");
    s.click(&sign_up).await.expect("sign up");
    s.wait_for("#sign-out", 20).await.expect("signed in");
    // A table made by Ada from another client (a second session of hers).
    let client = reqwest::Client::new();
    let signed = client
        .post(format!("{base}/api/session"))
        .json(&json!({"name": "Ada", "password": "correct horse"}))
        .send()
        .await
        .expect("sign in");
    let (cookie, _) = set_cookie(signed.headers());
    let made: Value = client
        .post(format!("{base}/api/tables"))
        .header("cookie", format!("tabletop_session={cookie}"))
        .json(&json!({"game": "dropsite", "seats": ["human", "random"]}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("a table");
    let id = made["id"].as_str().expect("id");
    s.goto(&format!("{base}/")).await.expect("lobby");
    let link = s
        .wait_for(&format!("#my-tables a[href='/play/{id}']"), 20)
        .await
        .expect("the table in My tables");
    s.click(&link).await.expect("open it");
    s.wait_for(".board > *", 20).await.expect("the board");
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let body = s.body().await.expect("page");
        if body["myturn"] == "yes" {
            break;
        }
        assert!(
            Instant::now() < end,
            "the seat never came to its turn: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let location = s
        .exec("return location.pathname + location.search", json!([]))
        .await
        .expect("where");
    assert_eq!(
        location,
        json!(format!("/play/{id}")),
        "no token in the link"
    );
    // The seat's own buttons are there too.
    s.wait_for("#resign", 10).await.expect("the resign button");
    assert_eq!(
        s.console_errors().await.expect("console"),
        Vec::<String>::new()
    );
    s.quit().await;
}

on_both_stores!(
    sign_in_attempts_are_limited_per_address,
    "accounts",
    Limits {
        address_sign_in_burst: 4,
        address_sign_ins_per_minute: 1,
        ..roomy()
    }
);

/// Over a socket of 127.0.0.1: sign-ins and sign-ups from one address, whatever names
/// they try, are counted together.
async fn sign_in_attempts_are_limited_per_address(state: AppState) {
    let addr = common::spawn(state).await;
    let client = reqwest::Client::new();
    let mut statuses = Vec::new();
    for (path, name) in [
        ("/api/accounts", "Ada"),
        ("/api/session", "Bea"),
        ("/api/session", "Cy"),
        ("/api/session", "Ada"),
        ("/api/session", "Di"),
        ("/api/accounts", "Eve"),
    ] {
        let answer = client
            .post(format!("http://{addr}{path}"))
            .json(&json!({"name": name, "password": "correct horse"}))
            .send()
            .await
            .expect("answer");
        statuses.push(answer.status().as_u16());
    }
    assert_eq!(statuses, [201, 401, 401, 200, 429, 429]);
}

/// A rated table that finished while its rating was lost (the server stopped between the
/// two) is rated when a server next reads it, and only once.
#[tokio::test]
async fn a_finished_rated_table_is_rated_when_read_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let state = common::open_unlimited(&url).await;
    let ada = sign_up(&state, "Ada", "correct horse").await;
    sign_up(&state, "Bea", "correct horse").await;
    let body = json!({"game": "dropsite", "rated": true, "seats": ["human", {"player": "human", "account": "Bea"}]});
    let (_, _, table) = send(&state, "POST", "/api/tables", Some(&ada), None, Some(body)).await;
    let id = table["id"].as_str().expect("id").to_string();
    resign(&state, &id, &ada).await;
    let rated = rated_page(&state, "Bea", "dropsite", 1).await;
    // The ratings lost, as if the server had stopped before it wrote them.
    let pool = sqlx::SqlitePool::connect(&url).await.expect("the file");
    for sql in ["DELETE FROM rating_history", "DELETE FROM ratings"] {
        sqlx::query(sql).execute(&pool).await.expect("deleted");
    }
    pool.close().await;
    let again = common::open_unlimited(&url).await;
    let (status, _) = common::get(&again, &format!("/api/tables/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rated_page(&again, "Bea", "dropsite", 1).await, rated);
    // Read again by a third server: still one rated game.
    let third = common::open_unlimited(&url).await;
    common::get(&third, &format!("/api/tables/{id}"), None).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(rated_page(&third, "Bea", "dropsite", 1).await, rated);
}
