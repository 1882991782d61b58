//! Issue 55's browser test: two friends, each in a browser of their own (a fresh profile
//! each), sign up from the lobby; Ada creates a rated Distop-IA table naming Bea's
//! account, Bea opens it from "My tables", they play it to the end by clicks, and both
//! profiles show the ratings the API gives, moved from a newcomer's 1000. On the way the
//! table page and the lobby show each name with its rating, linked to its profile, and
//! the leaderboard lists both.

use serde_json::{json, Value};
use std::time::{Duration, Instant};

use super::{click_turn, Lcg, Turn};
use crate::common::browser::{eventually, served, Res, Session, DESKTOP, ELEMENT};

/// Signs `name` up from the lobby's account panel.
pub(super) async fn sign_up(s: &Session, base: &str, name: &str) -> Res<()> {
    s.goto(&format!("{base}/")).await?;
    let field = s.wait_for("#account-name", 20).await?;
    s.type_into(&field, name).await?;
    let password = s.wait_for("#account-password", 5).await?;
    s.type_into(&password, "correct horse").await?;
    let button = s.wait_for("#sign-up", 5).await?;
    s.click(&button).await?;
    s.wait_for("#sign-out", 20).await?;
    Ok(())
}

/// Clicks the link `css` finds (once it is there) and waits for `ready` on the page it
/// opens.
async fn follow(s: &Session, css: &str, ready: &str) -> Res<()> {
    let link = s.wait_for(css, 20).await?;
    s.click(&link).await?;
    s.wait_for(ready, 20).await.map(drop)
}

/// The text of the first element `css` finds (empty when none).
pub(super) async fn text(s: &Session, css: &str) -> Res<String> {
    let v = s
        .exec(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''",
            json!([css]),
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// `name`'s Distop-IA rating as the API gives it, once it counts a rated game.
async fn rated(base: &str, name: &str) -> i64 {
    eventually(20, || async {
        let page: Value = reqwest::get(format!("{base}/api/players/{name}"))
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        (page["ratings"].as_array().into_iter().flatten())
            .find(|r| r["game"] == "distopia" && r["games"] == 1)
            .and_then(|r| r["rating"].as_i64())
            .ok_or_else(|| format!("{name} was not rated: {page}"))
    })
    .await
}

#[tokio::test]
async fn friends_play_a_rated_game_and_both_profiles_show_the_new_ratings() {
    let Some((bench, base)) = served().await else {
        return;
    };
    let driver = &bench.driver;
    let bea = driver.session(DESKTOP).await.expect("Bea's browser");
    sign_up(&bea, &base, "Bea").await.expect("Bea signs up");
    let ada = driver.session(DESKTOP).await.expect("Ada's browser");
    sign_up(&ada, &base, "Ada").await.expect("Ada signs up");

    // Ada's rated table: her seat, and Bea's account named for seat 2.
    let pick = ada.wait_for("#game-distopia", 20).await.expect("the game");
    ada.click(&pick).await.expect("pick it");
    ada.wait_for("#seat-1", 5).await.expect("the seats");
    ada.exec(
        "const s = document.getElementById('seat-1'); s.value = 'account'; \
         s.dispatchEvent(new Event('change'));",
        json!([]),
    )
    .await
    .expect("an account's seat");
    let name = ada.wait_for("#seat-name-1", 5).await.expect("its name box");
    ada.type_into(&name, "Bea").await.expect("Bea");
    let rated_box = ada.wait_for("#rated", 5).await.expect("the Rated box");
    ada.click(&rated_box).await.expect("rated");
    let create = ada.wait_for("#create", 5).await.expect("create");
    ada.click(&create).await.expect("create it");
    let mine = ada.wait_for("#play-seat-0", 20).await.expect("Ada's seat");
    let href = ada
        .exec("return arguments[0].href", json!([{ ELEMENT: mine }]))
        .await
        .expect("its link");
    let id = href
        .as_str()
        .and_then(|h| h.split("/play/").nth(1))
        .and_then(|rest| rest.split('?').next())
        .expect("the table's id")
        .to_string();
    // The lobby lists it with both names linked to their profiles, each rated 1000.
    let row = "#tables-playing .table-row a.player-link[href='/players/Bea']";
    ada.wait_for(row, 20).await.expect("the lobby's row");
    let who = text(&ada, "#tables-playing .table-row .who")
        .await
        .expect("who");
    assert_eq!(who, "Ada (rating 1000) · Bea (rating 1000)", "the lobby");
    ada.click(&mine).await.expect("Ada opens her seat");

    // Bea opens it from "My tables", with no link of her own.
    bea.goto(&format!("{base}/")).await.expect("lobby");
    let mine = format!("#my-tables a[href='/play/{id}']");
    follow(&bea, &mine, ".board > *")
        .await
        .expect("Bea opens the table from her list");
    let pages = [ada, bea];
    for s in &pages {
        s.wait_for(".board > *", 20).await.expect("the board");
        s.wait_for("#players a.player-link[href='/players/Ada']", 10)
            .await
            .expect("the players' line");
        let line = text(s, "#players").await.expect("players");
        assert!(
            line.contains("Ada (rating 1000)") && line.contains("Bea (rating 1000)"),
            "{line}"
        );
    }

    // They play to the end by clicks (each on its own turn).
    let mut rng = Lcg(55);
    let started = Instant::now();
    let end = started + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < end, "the game did not end in time");
        if let Turn::Over = click_turn(&pages, &mut rng).await.expect("a turn") {
            break;
        }
    }
    println!("played to the end in {:?}", started.elapsed());

    // Both are rated; each profile, opened from the table's players' line, shows it.
    let ratings = [rated(&base, "Ada").await, rated(&base, "Bea").await];
    assert!(ratings.iter().all(|&r| r != 1000), "{ratings:?}");
    println!(
        "ratings after the game: Ada {} Bea {}",
        ratings[0], ratings[1]
    );
    for (s, (name, rating)) in pages.iter().zip(["Ada", "Bea"].into_iter().zip(ratings)) {
        // The table's line shows the new ratings once they are written.
        let want = format!("{name} (rating {rating})");
        eventually(20, || async {
            let line = text(s, "#players").await.map_err(|e| e.to_string())?;
            if line.contains(&want) {
                Ok(())
            } else {
                Err(format!("the table shows `{want}`: {line}"))
            }
        })
        .await;
        let link = format!("#players a[href='/players/{name}']");
        follow(s, &link, "#profile-ratings")
            .await
            .expect("the profile, from the name");
        let shown = text(s, "#profile-ratings tr[data-game='distopia'] .rating-value")
            .await
            .expect("the rating");
        assert_eq!(shown, rating.to_string(), "{name}'s profile");
        // The chart and its text alternative, and the game with its replay.
        s.wait_for("#chart-distopia polyline", 5)
            .await
            .expect("the chart");
        let summary = text(s, "#chart-summary-distopia").await.expect("summary");
        assert!(
            summary.contains(&format!("from 1000 to {rating} over 1 rated game")),
            "{summary}"
        );
        s.wait_for(&format!("#recent-games a[href='/replay/{id}']"), 5)
            .await
            .expect("the game with its replay");
    }
    // The leaderboard lists both, best first, and the bots' fixed ratings.
    let s = &pages[0];
    s.goto(&format!("{base}/leaderboard/distopia"))
        .await
        .expect("leaderboard");
    s.wait_for("#leaders tbody tr", 20).await.expect("its rows");
    let first = text(s, "#leaders tbody tr th").await.expect("first");
    let best = match ratings[0].cmp(&ratings[1]) {
        std::cmp::Ordering::Greater => vec!["Ada"],
        std::cmp::Ordering::Less => vec!["Bea"],
        std::cmp::Ordering::Equal => vec!["Ada", "Bea"],
    };
    assert!(best.contains(&first.as_str()), "{first} first: {ratings:?}");
    let medium = text(s, "#bot-ratings tbody tr:nth-child(5)")
        .await
        .expect("bots");
    assert!(medium.starts_with("medium bot1880"), "{medium}");
    for s in &pages {
        assert_eq!(
            s.console_errors().await.expect("console"),
            Vec::<String>::new()
        );
    }
    for s in pages {
        s.quit().await;
    }
}
