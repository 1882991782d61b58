//! The lobby's Tournaments panel in the browser: Ada signs up, is told in words why a
//! tournament without a name is refused, makes a round robin of Distop-IA from the panel;
//! Bea joins through the API; Ada starts it from its page, which then shows round 1's
//! table linked to `/play/ID` and the standings with their caption. The lobby lists it,
//! and axe-core finds nothing serious on either page.

use serde_json::{json, Value};

use super::a11y::{axe, axe_source};
use super::ratings::{sign_up, text};
use crate::common::browser::{eventually, served, DESKTOP};

#[tokio::test]
async fn a_tournament_is_made_started_and_shown_from_the_lobby() {
    let Some((bench, base)) = served().await else {
        return;
    };
    let ada = bench.driver.session(DESKTOP).await.expect("Ada's browser");
    sign_up(&ada, &base, "Ada").await.expect("Ada signs up");
    // The panel asks who is signed in when the lobby opens.
    ada.goto(&format!("{base}/")).await.expect("lobby");
    ada.wait_for("#tournament-create", 20)
        .await
        .expect("the form");
    ada.wait_for("#tournament-game option[value='distopia']", 5)
        .await
        .expect("the game, from the catalog");
    ada.exec(
        "document.getElementById('tournament-game').value = 'distopia'; \
         document.getElementById('tournament-name').value = '';",
        json!([]),
    )
    .await
    .expect("no name");
    let create = ada.wait_for("#tournament-create", 5).await.expect("create");
    ada.click(&create).await.expect("create it");
    let refused = eventually(20, || async {
        let t = text(&ada, "#tournament-error")
            .await
            .map_err(|e| e.to_string())?;
        if t.is_empty() {
            Err("no error shown".to_string())
        } else {
            Ok(t)
        }
    })
    .await;
    println!("refused in words: {refused}");
    assert!(!refused.starts_with("HTTP"), "{refused}");

    let name = ada.wait_for("#tournament-name", 5).await.expect("name");
    ada.type_into(&name, "Friday cup").await.expect("a name");
    ada.click(&create).await.expect("create it");
    ada.wait_for("#tournament-start", 20)
        .await
        .expect("its page, with Start");
    let id = ada
        .exec("return location.pathname.split('/')[2]", json!([]))
        .await
        .expect("its id");
    let id = id.as_str().expect("id").to_string();
    let about = text(&ada, "#tournament-about").await.expect("about");
    assert!(
        about.starts_with("Distop-IA · Round robin · open"),
        "{about}"
    );

    // Bea joins through the API, with her own session.
    let http = reqwest::Client::new();
    let signed = http
        .post(format!("{base}/api/accounts"))
        .json(&json!({"name": "Bea", "password": "correct horse"}))
        .send()
        .await
        .expect("Bea signs up");
    let cookie = (signed.headers().get("set-cookie"))
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.split(';').next())
        .expect("her session")
        .to_string();
    let joined = http
        .post(format!("{base}/api/tournaments/{id}/join"))
        .header("cookie", cookie)
        .send()
        .await
        .expect("join");
    assert!(joined.status().is_success(), "{}", joined.status());

    // Ada starts it: round 1's table, linked, and the standings.
    ada.goto(&format!("{base}/tournaments/{id}"))
        .await
        .expect("page");
    ada.wait_for("#tournament-players li:nth-child(2)", 20)
        .await
        .expect("Bea listed");
    let start = ada.wait_for("#tournament-start", 5).await.expect("start");
    ada.click(&start).await.expect("start it");
    if let Err(e) = ada.wait_for("#round-1 a.board-link", 20).await {
        let page = text(&ada, "#tournament").await.expect("page");
        panic!("round 1's table: {e}: {page}");
    }
    let detail: Value = reqwest::get(format!("{base}/api/tournaments/{id}"))
        .await
        .expect("detail")
        .json()
        .await
        .expect("detail");
    let table = detail["pairings"][0]["boards"][0]["table"]
        .as_str()
        .expect("a table")
        .to_string();
    let link = ada
        .exec(
            "return document.querySelector('#round-1 a.board-link').getAttribute('href')",
            json!([]),
        )
        .await
        .expect("href");
    assert_eq!(link, json!(format!("/play/{table}")));
    let board = text(&ada, "#round-1 li").await.expect("board");
    assert!(board.contains("Ada") && board.contains("Bea"), "{board}");
    ada.wait_for("#tournament-standings caption", 5)
        .await
        .expect("the standings' caption");
    let rows = ada
        .exec(
            "return document.querySelectorAll('#tournament-standings tbody tr').length",
            json!([]),
        )
        .await
        .expect("rows");
    assert_eq!(rows, json!(2), "a line for each player");
    assert!(
        ada.find("#tournament-start").await.expect("find").is_none(),
        "no Start once it runs"
    );
    let source = axe_source();
    let mut found = Vec::new();
    if let Some(source) = &source {
        found.extend(axe(&ada, source, "a tournament").await.expect("axe"));
    }

    // The lobby's panel lists it, linked to its page.
    ada.goto(&format!("{base}/")).await.expect("lobby");
    let row = format!("#tournament-list a[href='/tournaments/{id}']");
    ada.wait_for(&row, 20).await.expect("listed");
    let line = text(&ada, &format!("#tournament-list tr[data-id='{id}']"))
        .await
        .expect("its line");
    assert_eq!(line, "Friday cupDistop-IARound robinrunning2");
    if let Some(source) = &source {
        ada.wait_for("#tournament-create", 20).await.expect("form");
        found.extend(
            axe(&ada, source, "the lobby, signed in")
                .await
                .expect("axe"),
        );
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The one error the console may hold: the refusal of the nameless tournament.
    let errors = ada.console_errors().await.expect("console");
    let others: Vec<_> = (errors.iter())
        .filter(|e| !e.contains("/api/tournaments - Failed to load resource: the server responded with a status of 400"))
        .collect();
    assert!(others.is_empty(), "{others:?}");
    ada.quit().await;
}
