//! Turn notifications (docs/accounts.md, Notifications): a mail server and a webhook
//! receiver of the test's own on 127.0.0.1, reached by the server's real SMTP client and
//! HTTP client. A days-per-move table between two accounts mails the player to act once
//! per turn and POSTs a signed notice to a webhook; a move made while the mail server is
//! down is kept, and its mail arrives once the server is back.

use crate::common;
use axum::http::{HeaderMap, StatusCode};
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use server::notify::NotifyOptions;
use server::{AppState, Limits};
use sha2::Sha256;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One mail the sink took: its recipients and its text.
#[derive(Clone, Debug)]
struct Mail {
    to: Vec<String>,
    data: String,
}

type Mails = Arc<Mutex<Vec<Mail>>>;

/// The POSTs a webhook receiver took: each signature header and body.
type Posts = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A small SMTP server on `listener`: it greets, takes every sender and recipient, and
/// keeps each message's text.
fn smtp_sink(listener: TcpListener, mails: Mails) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let mails = mails.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 sink.test ESMTP\r\n").await;
                let mut to = Vec::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 sink.test\r\n",
                        "MAIL" => {
                            to.clear();
                            b"250 OK\r\n"
                        }
                        "RCPT" => {
                            let address = line
                                .split_once('<')
                                .and_then(|(_, rest)| rest.split_once('>'))
                                .map(|(address, _)| address.to_string())
                                .unwrap_or_default();
                            to.push(address);
                            b"250 OK\r\n"
                        }
                        "DATA" => {
                            let _ = write.write_all(b"354 go on\r\n").await;
                            let mut data = String::new();
                            while let Ok(Some(line)) = lines.next_line().await {
                                if line == "." {
                                    break;
                                }
                                data.push_str(&line);
                                data.push('\n');
                            }
                            // Read as quoted-printable, should the mail be sent so: soft
                            // line breaks joined, `=3D` an `=` again.
                            let data = data.replace("=\n", "").replace("=3D", "=");
                            mails.lock().expect("mails").push(Mail {
                                to: std::mem::take(&mut to),
                                data,
                            });
                            b"250 kept\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"250 OK\r\n",
                    };
                    if write.write_all(answer).await.is_err() {
                        return;
                    }
                }
            });
        }
    })
}

/// A webhook receiver on 127.0.0.1: each POST's signature header and body.
async fn webhook_receiver() -> (String, Posts) {
    let posts: Posts = Arc::default();
    let kept = posts.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: axum::body::Bytes| {
            let kept = kept.clone();
            async move {
                let signature = headers
                    .get("x-tabletop-signature")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_string();
                kept.lock().expect("posts").push((signature, body.to_vec()));
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/hook"), posts)
}

use common::send_cookie as send;

async fn sign_up(state: &AppState, name: &str) -> String {
    let body = json!({"name": name, "password": "correct horse"});
    let (status, headers, answer) = send(state, "POST", "/api/accounts", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|h| h.split(';').next())
        .and_then(|pair| pair.strip_prefix("tabletop_session="))
        .expect("the session cookie")
        .to_string()
}

async fn patch_me(state: &AppState, cookie: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, answer) = send(state, "PATCH", "/api/me", Some(cookie), Some(body)).await;
    (status, answer)
}

/// Waits (20 s at most) until `mails` holds `n` mails to `to`; answers them.
async fn mails_to(mails: &Mails, to: &str, n: usize) -> Vec<Mail> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found: Vec<Mail> = (mails.lock().expect("mails").iter())
            .filter(|m| m.to.iter().any(|t| t == to))
            .cloned()
            .collect();
        if found.len() >= n {
            return found;
        }
        assert!(Instant::now() < deadline, "no mail {n} to {to}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The value after `key` in a mail's text (a token of hex digits).
fn token_after(text: &str, key: &str) -> String {
    let (_, rest) = text.split_once(key).expect("the link in the mail");
    rest.chars().take_while(char::is_ascii_hexdigit).collect()
}

/// The seat to act at `id` makes moves (as `cookies[seat]`) until another seat is to act;
/// answers that seat.
async fn play_turn(state: &AppState, id: &str, cookies: &[&str; 2]) -> usize {
    let (_, _, legal) = send(
        state,
        "GET",
        &format!("/api/tables/{id}/legal"),
        Some(cookies[0]),
        None,
    )
    .await;
    let mover = legal["to_act"].as_u64().expect("a seat to act") as usize;
    for _ in 0..50 {
        let uri = format!("/api/tables/{id}/legal");
        let (_, _, legal) = send(state, "GET", &uri, Some(cookies[mover]), None).await;
        let to_act = legal["to_act"].as_u64().expect("a seat to act") as usize;
        if to_act != mover {
            return to_act;
        }
        let action = legal["legal"][0]
            .as_str()
            .expect("a legal move")
            .to_string();
        let body = json!({"action": action, "version": legal["version"]});
        let started = Instant::now();
        let uri = format!("/api/tables/{id}/actions");
        let (status, _, answer) = send(state, "POST", &uri, Some(cookies[mover]), Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        // The move never waits on the mail server or the webhook.
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    panic!("seat {} never passed the turn at {id}", mover + 1);
}

fn with_webhooks() -> Limits {
    Limits {
        allow_private_webhooks: true,
        ..common::unlimited()
    }
}

#[tokio::test]
async fn a_days_per_move_table_mails_and_posts_once_a_turn_and_waits_out_a_mail_server_down() {
    let mails: Mails = Arc::default();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let smtp = listener.local_addr().expect("addr");
    let sink = smtp_sink(listener, mails.clone());
    let (hook, posts) = webhook_receiver().await;
    let store = server::SqliteStore::connect("sqlite::memory:")
        .await
        .expect("sqlite");
    let state = AppState::with_limits(Arc::new(store), with_webhooks())
        .await
        .expect("state");
    let sender = server::notify::start(
        state.hub.clone(),
        NotifyOptions {
            smtp: Some(format!("smtp://{smtp}")),
            public_url: "http://tabletop.test".into(),
            poll: Duration::from_millis(100),
            ..NotifyOptions::default()
        },
    )
    .expect("the sender");

    let ada = sign_up(&state, "Ada").await;
    let bea = sign_up(&state, "Bea").await;
    // A bad address and a bad webhook are refused with codes, and change nothing.
    let (status, answer) = patch_me(&state, &bea, json!({"email": "bea at home"})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("account/email"))
    );
    let (status, answer) = patch_me(
        &state,
        &bea,
        json!({"webhook": "ftp://127.0.0.1/x", "email": "bea@example.org"}),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("account/webhook"))
    );
    let (_, answer) = patch_me(&state, &bea, json!({})).await;
    assert_eq!(answer["email"], Value::Null, "{answer}");

    // Addresses are mailed a verification link; the webhook's secret is answered once.
    let (status, answer) = patch_me(
        &state,
        &bea,
        json!({"email": "bea@example.org", "webhook": hook}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["email_verified"], false);
    let secret = answer["webhook_secret"]
        .as_str()
        .expect("the webhook's secret")
        .to_string();
    assert_eq!(secret.len(), 64);
    let (_, again) = patch_me(&state, &bea, json!({"notifications": true})).await;
    assert!(again.get("webhook_secret").is_none(), "{again}");
    let (status, answer) = patch_me(
        &state,
        &ada,
        json!({"email": "ada@example.org", "webhook": hook}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let secrets = [
        answer["webhook_secret"]
            .as_str()
            .expect("Ada's secret")
            .to_string(),
        secret,
    ];
    for address in ["bea@example.org", "ada@example.org"] {
        let mail = mails_to(&mails, address, 1).await;
        let token = token_after(&mail[0].data, "/api/verify?token=");
        let uri = format!("/api/verify?token={token}");
        let (status, _, answer) = send(&state, "GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (status, _, answer) = send(&state, "GET", &uri, None, None).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::NOT_FOUND, Some("account/link_unknown"))
        );
    }

    // A table of three days a move between Ada (seat 1) and Bea (seat 2).
    let body = json!({
        "game": "dropsite",
        "seats": ["human", {"player": "human", "account": "Bea"}],
        "table": {"clock": {"kind": "correspondence", "days": 3}},
    });
    let (status, _, table) = send(&state, "POST", "/api/tables", Some(&ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let id = table["id"].as_str().expect("id").to_string();
    let cookies = [ada.as_str(), bea.as_str()];
    let addresses = ["ada@example.org", "bea@example.org"];
    // Whoever starts plays a turn; the other is told, once, by mail and by webhook.
    let to_act = play_turn(&state, &id, &cookies).await;
    let mail = mails_to(&mails, addresses[to_act], 2).await;
    let turn = &mail[1].data;
    assert!(
        turn.contains(&format!("http://tabletop.test/play/{id}")),
        "{turn}"
    );
    assert!(
        turn.contains("http://tabletop.test/api/unsubscribe?token="),
        "{turn}"
    );
    {
        let deadline = Instant::now() + Duration::from_secs(20);
        while posts.lock().expect("posts").is_empty() {
            assert!(Instant::now() < deadline, "no POST to the webhook");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (signature, body) = posts.lock().expect("posts")[0].clone();
        let mut mac = Hmac::<Sha256>::new_from_slice(secrets[to_act].as_bytes()).expect("a key");
        mac.update(&body);
        assert_eq!(
            signature,
            format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
        );
        let notice: Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(notice["table"], id.as_str());
        assert_eq!(notice["link"], format!("http://tabletop.test/play/{id}"));
    }
    // A few more looks at the outbox send nothing more for that turn.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(mails_to(&mails, addresses[to_act], 2).await.len(), 2);
    assert_eq!(posts.lock().expect("posts").len(), 1);

    // The mail server goes down: the next turn's move is kept all the same...
    sink.abort();
    let _ = sink.await;
    let back = play_turn(&state, &id, &cookies).await;
    assert_eq!(back, 1 - to_act);
    // ...its mail is tried (and fails) a while...
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(mails_to(&mails, addresses[back], 1).await.len(), 1);
    // ...and arrives once the server is back, once.
    let listener = TcpListener::bind(smtp).await.expect("the same port again");
    let sink = smtp_sink(listener, mails.clone());
    let mail = mails_to(&mails, addresses[back], 2).await;
    assert!(mail[1].data.contains(&format!("/play/{id}")));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(mails_to(&mails, addresses[back], 2).await.len(), 2);

    // The unsubscribe link turns notifications off.
    let token = token_after(&mail[1].data, "/api/unsubscribe?token=");
    let uri = format!("/api/unsubscribe?token={token}");
    let (status, _, _) = send(&state, "GET", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK);
    let (_, me) = patch_me(&state, cookies[back], json!({})).await;
    assert_eq!(me["notifications"], false, "{me}");
    sink.abort();
    sender.abort();
}

#[tokio::test]
async fn a_webhook_to_loopback_is_refused_without_the_flag() {
    let state = common::memory_state().await;
    let bea = sign_up(&state, "Bea").await;
    for hook in [
        "http://127.0.0.1:9/hook",
        "http://[::1]/hook",
        "https://localhost/x",
        "http://169.254.169.254/",
    ] {
        let body = json!({"webhook": hook, "email": "bea@example.org"});
        let (status, answer) = patch_me(&state, &bea, body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("account/webhook_private")),
            "{hook}: {answer}"
        );
    }
    // Nothing was kept of the refused changes.
    let (_, answer) = patch_me(&state, &bea, json!({})).await;
    assert_eq!(
        (answer["webhook"].clone(), answer["email"].clone()),
        (Value::Null, Value::Null)
    );
}

#[tokio::test]
async fn two_servers_on_one_postgresql_send_a_turn_once() {
    if !common::pg_up().await {
        return;
    }
    let schema = common::unique_schema("notify");
    let mails: Mails = Arc::default();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let smtp = listener.local_addr().expect("addr");
    let sink = smtp_sink(listener, mails.clone());
    let mut states = Vec::new();
    let mut senders = Vec::new();
    for _ in 0..2 {
        let store = common::pg_store(&schema).await;
        let state = AppState::with_limits(Arc::new(store), with_webhooks())
            .await
            .expect("state");
        // Both look at the outbox often: they race for every row.
        senders.push(
            server::notify::start(
                state.hub.clone(),
                NotifyOptions {
                    smtp: Some(format!("smtp://{smtp}")),
                    public_url: "http://tabletop.test".into(),
                    poll: Duration::from_millis(10),
                    ..NotifyOptions::default()
                },
            )
            .expect("the sender"),
        );
        states.push(state);
    }
    let state = &states[0];
    let ada = sign_up(state, "Ada").await;
    let bea = sign_up(state, "Bea").await;
    let cookies = [ada.as_str(), bea.as_str()];
    let addresses = ["ada@example.org", "bea@example.org"];
    for (cookie, address) in cookies.iter().zip(addresses) {
        let (status, _) = patch_me(state, cookie, json!({"email": address})).await;
        assert_eq!(status, StatusCode::OK);
        let mail = mails_to(&mails, address, 1).await;
        let token = token_after(&mail[0].data, "/api/verify?token=");
        let (status, _, _) = send(
            &states[1],
            "GET",
            &format!("/api/verify?token={token}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let body = json!({
        "game": "dropsite",
        "seats": ["human", {"player": "human", "account": "Bea"}],
        "table": {"clock": {"kind": "correspondence", "days": 1}},
    });
    let (status, _, table) = send(state, "POST", "/api/tables", Some(&ada), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let id = table["id"].as_str().expect("id").to_string();
    let to_act = play_turn(state, &id, &cookies).await;
    mails_to(&mails, addresses[to_act], 2).await;
    // Many looks of both servers later, still one mail of each kind.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for address in addresses {
        let n = mails_to(&mails, address, 1).await.len();
        assert_eq!(
            n,
            if address == addresses[to_act] { 2 } else { 1 },
            "{address}"
        );
    }
    for sender in senders {
        sender.abort();
    }
    sink.abort();
    common::drop_schema(&schema).await;
}
