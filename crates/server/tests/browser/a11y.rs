//! Issue 56 in the browser: the tables played by keys alone, and axe-core's audit.
//!
//! A whole Distop-IA game and a Euphoria turn are played from the keyboard (WebDriver key
//! actions to whatever has the focus: Tab and Shift+Tab between the board's rows and the
//! buttons, the arrow keys within a row, Enter to choose, Escape to put a die back, `?`
//! for the list of keys); nothing is clicked. axe-core (installed from npm into
//! `target/axe` by `.ci/run`, or found through `AXE_CORE_JS`) is injected into each page
//! by the test, never served by the server, and must find no serious or critical
//! violation on the lobby, the rules, the lessons, a table of each game at two seats and
//! at its most, the review and the replay. The cues that stand beside colour (a card
//! type's letter, a faction's letter, a seat's shape) are checked on every table.
//! docs/accessibility.md describes the keys and these choices.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{api_log, created, start_coached_server, summary, Lcg};
use crate::common::browser::{bench, eventually, key, served, Res, Session, DESKTOP};

/// On this browser's turn, the next key to press towards a playable element chosen at
/// random (kept in `window.__target` until it is chosen): `enter` when it has the focus,
/// `right` when the focus is in its row, else `tab` or `shifttab` towards it. `wait` when
/// it is not this browser's turn. Trading is left alone (it makes random games long).
const KEY_STEP: &str = r#"
const r = arguments[0];
const d = document.body.dataset;
if (d.myturn !== 'yes') { window.__target = null; return ['wait']; }
const id = (e) => (e.dataset.key ? `k:${e.dataset.key}` : `a:${e.dataset.action}`);
const live = () => [...document.querySelectorAll('.board .pick, .board .drop, .board .selected, .actions .act-btn')];
let target = window.__target ? live().find((e) => id(e) === window.__target) : null;
if (!target) {
  let c = [...document.querySelectorAll('.board .drop')];
  if (!c.length) c = [...document.querySelectorAll('.board .pick, .actions .act-btn')];
  const slow = /^(trade|offer|give|ask|propose|cancel|decline)\b/;
  const quick = c.filter((e) => !slow.test(e.dataset.action || ''));
  if (quick.length) c = quick;
  if (!c.length) return ['wait'];
  target = c[Math.floor(r * c.length)];
  window.__target = id(target);
}
const a = document.activeElement;
if (a === target) { window.__target = null; return ['enter', id(target)]; }
if (a && a.closest('.board') && a.parentElement === target.parentElement) return ['right'];
const before = a && a !== document.body && (target.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
return [before ? 'shifttab' : 'tab'];
"#;

/// What the focus is on, for a failure's message.
const FOCUS: &str = "const a = document.activeElement; \
    return a ? `${a.tagName.toLowerCase()}${a.id ? '#' + a.id : ''} ${a.dataset.key || a.dataset.action || ''} ${a.getAttribute('aria-label') || a.textContent.slice(0, 40)}` : 'nothing'";

/// The board's stops that a screen reader could not name in words (their `aria-label`,
/// or else their text, screen readers' words included, is a character or two at most),
/// or that do not say what choosing them does (`aria-description`).
const UNNAMED: &str = "return [...document.querySelectorAll('.board [data-key][tabindex]')]\
    .filter((e) => (e.getAttribute('aria-label') || e.textContent).trim().length < 4 \
      || !e.getAttribute('aria-description')).map((e) => e.dataset.key)";

/// Keys pressed and moves chosen by [`play_by_keys`].
#[derive(Default, Debug)]
struct Played {
    keys: usize,
    moves: usize,
    escapes: usize,
}

/// Plays this browser's turns by keys until `done` says so (given the page's body state),
/// or `limit` passes. With `escape`, the first die picked is put back by Escape (and must
/// be) before it is picked again.
async fn play_by_keys(
    s: &Session,
    rng: &mut Lcg,
    limit: Duration,
    escape: bool,
    mut done: impl AsyncFnMut(&Value) -> Res<bool>,
) -> Res<Played> {
    let end = Instant::now() + limit;
    let mut p = Played::default();
    let mut toward = 0;
    let mut r = rng.next();
    while Instant::now() < end {
        let body = s.body().await?;
        if done(&body).await? {
            return Ok(p);
        }
        let step = s.exec(KEY_STEP, json!([r])).await?;
        match step[0].as_str().unwrap_or("wait") {
            "wait" => {
                tokio::time::sleep(Duration::from_millis(30)).await;
                continue;
            }
            "enter" => {
                let unnamed = s.exec(UNNAMED, json!([])).await?;
                anyhow::ensure!(
                    unnamed.as_array().is_some_and(Vec::is_empty),
                    "board stops without a name in words: {unnamed}"
                );
                s.keys(key::ENTER).await?;
                let chosen = step[1].as_str().unwrap_or_default().to_string();
                if escape && p.escapes == 0 && chosen.starts_with("k:die:") {
                    let picked = s.find(".board .selected").await?;
                    anyhow::ensure!(picked.is_some(), "Enter on {chosen} picked nothing");
                    s.keys(key::ESCAPE).await?;
                    anyhow::ensure!(
                        s.find(".board .selected").await?.is_none(),
                        "Escape left {chosen} picked"
                    );
                    p.escapes += 1;
                    // The same die again, then on as before.
                    s.keys(key::ENTER).await?;
                }
                p.moves += 1;
                toward = 0;
                r = rng.next();
            }
            "right" => s.keys(key::RIGHT).await?,
            "tab" => s.keys(key::TAB).await?,
            _ => s.shift_keys(key::TAB).await?,
        }
        p.keys += 1;
        toward += 1;
        anyhow::ensure!(
            toward < 120,
            "120 keys did not reach the move chosen (the focus: {})",
            s.exec(FOCUS, json!([])).await?
        );
    }
    anyhow::bail!("not done after {limit:?} by keys ({p:?})")
}

/// Whether anything matches `css`.
async fn has(s: &Session, css: &str) -> Res<bool> {
    Ok(s.find(css).await?.is_some())
}

/// Waits (bounded) until nothing matches `css`.
async fn gone(s: &Session, css: &str, secs: u64) -> Res<()> {
    let end = Instant::now() + Duration::from_secs(secs);
    while s.find(css).await?.is_some() {
        anyhow::ensure!(Instant::now() < end, "`{css}` still there after {secs} s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_distopia_game_is_played_by_keys_alone() {
    let Some((bench, base)) = served().await else {
        return;
    };
    let table = created(
        &base,
        json!({"game": "distopia", "seed": 5, "seats": [{"player": "human", "name": "Ann"}, "random"]}),
    )
    .await;
    let link = format!(
        "{base}{}",
        table["seats"][0]["invite"].as_str().expect("invite")
    );
    let s = bench.driver.session(DESKTOP).await.expect("browser");
    s.goto(&link).await.expect("table");
    s.wait_for(".board > *", 20).await.expect("board");

    // `?` lists the keys in a dialog that holds the focus; Escape closes it and the focus
    // goes back where it was.
    s.keys(key::TAB).await.expect("tab");
    let before = s.exec(FOCUS, json!([])).await.expect("focus");
    s.keys("?").await.expect("?");
    s.wait_for("#keys-help[open]", 5)
        .await
        .expect("the keys' list");
    let inside = s
        .exec(
            "return !!document.activeElement.closest('#keys-help')",
            json!([]),
        )
        .await
        .expect("focus");
    assert_eq!(inside, json!(true), "the dialog does not hold the focus");
    s.keys(key::ESCAPE).await.expect("escape");
    gone(&s, "#keys-help", 5)
        .await
        .expect("the keys' list closed");
    assert_eq!(
        s.exec(FOCUS, json!([])).await.expect("focus"),
        before,
        "the focus did not come back"
    );

    let started = Instant::now();
    let played = play_by_keys(
        &s,
        &mut Lcg(11),
        Duration::from_secs(150),
        false,
        async |b| Ok(b["end"] == json!(true) && b["status"] == "finished"),
    )
    .await
    .expect("played by keys");
    eprintln!(
        "Distop-IA by keys: {} moves, {} keys ({:.1} a move), {:.1} s",
        played.moves,
        played.keys,
        played.keys as f64 / played.moves.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    let id = table["id"].as_str().expect("id");
    assert_eq!(
        summary(&base, id).await.expect("summary")["status"],
        "finished"
    );
    assert!(played.moves > 5, "{played:?}");
    // The turns were said to a screen reader through the polite live region.
    let said = s
        .exec(
            "const a = document.getElementById('announcer'); \
             return a ? [a.getAttribute('aria-live'), a.textContent] : null",
            json!([]),
        )
        .await
        .expect("announcer");
    assert_eq!(said[0], "polite", "{said}");
    assert!(said[1].as_str().is_some_and(|t| !t.is_empty()), "{said}");
    s.quit().await;
}

/// A 2-seat Euphoria table of two people whose first seat, at its first placement, holds
/// dice of two values (the recruits kept face up by the API, the first choice each):
/// seat 1's link.
async fn euphoria_with_two_values(base: &str) -> String {
    let http = reqwest::Client::new();
    for seed in 1..40 {
        let table = created(
            base,
            json!({"game": "euphoria", "seed": seed, "options": {"players": 2},
                   "seats": [{"player": "human", "name": "Ann"}, "human"]}),
        )
        .await;
        let id = table["id"].as_str().expect("id");
        let token = |k: usize| table["seats"][k]["token"].as_str().expect("token");
        let view = |k: usize| {
            let req = http
                .get(format!("{base}/api/tables/{id}/view"))
                .bearer_auth(token(k));
            async move {
                req.send()
                    .await
                    .expect("view")
                    .json::<Value>()
                    .await
                    .expect("view")
            }
        };
        for _ in 0..10 {
            let first = view(0).await;
            let ready: Vec<u64> = first["view"]["players"][0]["dice"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| d["ready"].as_u64())
                .collect();
            let Some(seat) = first["to_act"].as_u64().map(|s| s as usize) else {
                break;
            };
            if seat == 0 && !ready.is_empty() {
                if ready.iter().any(|v| *v != ready[0]) {
                    return format!(
                        "{base}{}",
                        table["seats"][0]["invite"].as_str().expect("invite")
                    );
                }
                break;
            }
            let mine = view(seat).await;
            http.post(format!("{base}/api/tables/{id}/actions"))
                .bearer_auth(token(seat))
                .json(&json!({"action": mine["legal"][0], "version": mine["version"]}))
                .send()
                .await
                .expect("play")
                .error_for_status()
                .expect("a legal move");
        }
    }
    panic!("no seed under 40 deals two values")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_euphoria_turn_is_played_by_keys_alone() {
    let Some((bench, base)) = served().await else {
        return;
    };
    let link = euphoria_with_two_values(&base).await;
    let s = bench.driver.session(DESKTOP).await.expect("browser");
    s.goto(&link).await.expect("table");
    s.wait_for(".board > *", 20).await.expect("board");
    let started = Instant::now();
    // Done when this seat has placed a die or retrieved and the turn has gone on.
    let (base_, link_) = (base.as_str(), link.as_str());
    let played = play_by_keys(
        &s,
        &mut Lcg(3),
        Duration::from_secs(60),
        true,
        async move |b| {
            if b["myturn"] == "yes" {
                return Ok(false);
            }
            let log = api_log(base_, link_).await?;
            Ok((log["entries"].as_array().into_iter().flatten())
                .filter(|e| e["seat"] == json!(0))
                .flat_map(|e| e["events"].as_array().cloned().unwrap_or_default())
                .any(|ev| {
                    ev["text"]
                        .as_str()
                        .is_some_and(|t| t.contains("placed a die") || t.contains("retriev"))
                }))
        },
    )
    .await
    .expect("played by keys");
    eprintln!(
        "a Euphoria turn by keys: {} moves, {} keys, {:.1} s",
        played.moves,
        played.keys,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        played.escapes, 1,
        "no die was put back by Escape: {played:?}"
    );
    // The whole board as text, opened by keys: the API's text for this seat, in a
    // dialog that holds the focus and gives it back when Escape closes it.
    s.exec(
        "document.getElementById('board-text-open').focus()",
        json!([]),
    )
    .await
    .expect("focus");
    s.keys(key::ENTER).await.expect("enter");
    s.wait_for("#board-text[data-version]", 10)
        .await
        .expect("the board as text");
    let shown = s
        .exec(
            "const d = document.getElementById('board-text'); \
             return [d.querySelector('pre').textContent, d.dataset.version, \
                     !!document.activeElement.closest('#board-text')]",
            json!([]),
        )
        .await
        .expect("text");
    let board = api_board(&base, &link).await.expect("board");
    assert_eq!(shown[1], board["version"].to_string(), "{shown}");
    let text = board["text"].as_str().expect("text");
    assert!(
        !text.is_empty() && shown[0].as_str().is_some_and(|t| t.ends_with(text)),
        "{shown}"
    );
    assert_eq!(shown[2], json!(true), "the dialog does not hold the focus");
    s.keys(key::ESCAPE).await.expect("escape");
    gone(&s, "#board-text", 5).await.expect("closed");
    let back = s
        .exec("return document.activeElement.id", json!([]))
        .await
        .expect("focus");
    assert_eq!(
        back,
        json!("board-text-open"),
        "the focus did not come back"
    );
    s.quit().await;
}

/// The seat's board as text from the API (`GET /board`), for the seat of `link`.
async fn api_board(base: &str, link: &str) -> Res<Value> {
    let (id, token) = link
        .split_once("/play/")
        .and_then(|(_, rest)| rest.split_once("?token="))
        .ok_or_else(|| anyhow::anyhow!("not a seat link: {link}"))?;
    Ok(reqwest::Client::new()
        .get(format!("{base}/api/tables/{id}/board"))
        .bearer_auth(token)
        .send()
        .await?
        .json()
        .await?)
}

/// axe-core's script: `AXE_CORE_JS`, else where `.ci/run` installs it
/// (`target/axe/node_modules/axe-core/axe.min.js`); `None` (said loudly, a failure under
/// `CI`) when it is in neither.
pub(super) fn axe_source() -> Option<String> {
    let path = std::env::var_os("AXE_CORE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/axe/node_modules/axe-core/axe.min.js")
        });
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            server::testkit::skip::skip_unless_ci(
                "THE AXE-CORE AUDIT",
                &format!(
                    "axe-core is not at {} ({e}): npm install --prefix target/axe axe-core, \
                     or set AXE_CORE_JS",
                    path.display()
                ),
            );
            None
        }
    }
}

/// Runs axe-core (injected into the page on show) and returns its serious and critical
/// violations, each as "rule (impact): help — where".
pub(super) async fn axe(s: &Session, source: &str, page: &str) -> Res<Vec<String>> {
    s.exec(&format!("{source}\n;return true;"), json!([]))
        .await?;
    let got = s
        .exec_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations \
               .filter((v) => v.impact === 'serious' || v.impact === 'critical') \
               .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4) \
                 .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 400)} ${n.any.map((c) => c.message).join('; ')}`).join(' | ')}`)), (e) => done([`axe failed: ${e}`]))",
            json!([]),
        )
        .await?;
    Ok(got
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(|t| format!("{page}: {t}")))
        .collect())
}

/// The cues beside colour on a table page that are missing: a Distop-IA card without
/// its type's letter, a recruit without its faction's letter, a star or a player's name
/// without its seat's shape, and dice of two seats whose pips are drawn alike.
const CUES: &str = r#"
const out = [];
for (const c of document.querySelectorAll('.dcard:not(.swatch)')) {
  const k = c.querySelector('.klet');
  const letter = k ? getComputedStyle(k, '::before').content.replace(/"/g, '') : '';
  if (!/^[A-Z]$/.test(letter)) out.push(`a ${c.className} card without its letter`);
}
for (const r of document.querySelectorAll('.recruit[class*="f-"]')) {
  if (!r.querySelector('.fmark')) out.push(`recruit ${r.textContent.slice(0, 30)} without its faction's letter`);
}
for (const s of document.querySelectorAll('.star[class*="seat-"]')) {
  if (!s.querySelector('.seat-mark')) out.push('a star without its seat\'s shape');
}
for (const p of document.querySelectorAll('.dplayer, .ds-player, .eplayer')) {
  if (!p.querySelector('.seat-mark')) out.push(`${p.textContent.slice(0, 30)} without its seat's shape`);
}
const shapes = new Map();
for (const d of document.querySelectorAll('.die')) {
  const seat = [...d.classList].find((c) => c.startsWith('seat-'));
  const pip = d.querySelector('.pip');
  if (!seat || !pip) continue;
  const cs = getComputedStyle(pip);
  shapes.set(seat, [cs.borderRadius, cs.clipPath, cs.transform, cs.backgroundColor].join(' '));
}
const seen = new Map();
for (const [seat, shape] of shapes) {
  if (seen.has(shape)) out.push(`the dice of ${seat} and ${seen.get(shape)} have the same pips`);
  seen.set(shape, seat);
}
return out;
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_finds_no_serious_violation_on_any_page() {
    let Some(source) = axe_source() else {
        return;
    };
    let Some(bench) = bench().await else {
        return;
    };
    let addr = start_coached_server(bench.dir.path())
        .await
        .expect("server");
    let base = format!("http://{addr}");
    let http = reqwest::Client::new();
    const GAMES: [&str; 3] = ["dropsite", "distopia", "euphoria"];
    let s = bench.driver.session(DESKTOP).await.expect("browser");
    let mut found = Vec::new();
    let mut missing = Vec::new();
    let mut pages = 0;
    let started = Instant::now();
    // Each game played to its end by bots, in the server while the pages are audited.
    let mut finished = Vec::new();
    for game in GAMES {
        let table = created(
            &base,
            json!({"game": game, "seed": 3, "seats": ["random", "random"]}),
        )
        .await;
        finished.push(table["id"].as_str().expect("id").to_string());
    }
    for (game, finished) in GAMES.into_iter().zip(&finished) {
        let about: Value = http
            .get(format!("{base}/api/games/{game}"))
            .send()
            .await
            .expect("about")
            .json()
            .await
            .expect("about");
        let most = about["players"]["max"].as_u64().expect("players") as usize;
        // A table at two seats and one at the most, seat 1 a person, the others bots.
        for n in [2, most]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
        {
            let mut seats = vec![json!({"player": "human", "name": "Ann"})];
            seats.extend(std::iter::repeat_n(json!("random"), n - 1));
            let mut body = json!({"game": game, "seed": 5, "seats": seats});
            if n != 2 || game == "euphoria" {
                body["options"] = json!({"players": n});
            }
            let table = created(&base, body).await;
            let invite = table["seats"][0]["invite"]
                .as_str()
                .unwrap_or_else(|| panic!("{game} at {n}: {table}"));
            s.goto(&format!("{base}{invite}")).await.expect("table");
            s.wait_for("body[data-myturn=yes]", 30)
                .await
                .expect("my turn");
            let page = format!("a {game} table of {n}");
            found.extend(axe(&s, &source, &page).await.expect("axe"));
            let cues = s.exec(CUES, json!([])).await.expect("cues");
            missing.extend(
                (cues.as_array().into_iter().flatten())
                    .map(|m| format!("{page}: {}", m.as_str().unwrap_or_default())),
            );
            pages += 1;
            // A move begun by keys: a card of the hand picked (Drop Site: its targets
            // lit), or a district picked up (Distop-IA: the hand to play).
            if n == 2 && has(&s, ".board .pick").await.expect("find") {
                let version = s.body().await.expect("body")["version"].clone();
                s.exec("document.querySelector('.board .pick').focus()", json!([]))
                    .await
                    .expect("focus");
                s.keys(key::ENTER).await.expect("enter");
                let picked = async || -> Res<bool> {
                    let b = s.body().await?;
                    Ok(has(&s, ".board .selected").await?
                        || (b["version"] != version && b["myturn"] == "yes"))
                };
                let end = Instant::now() + Duration::from_secs(20);
                while !picked().await.expect("page") {
                    assert!(Instant::now() < end, "{page}: Enter picked nothing");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                found.extend(
                    axe(&s, &source, &format!("{page}, a move begun"))
                        .await
                        .expect("axe"),
                );
                pages += 1;
            }
            // The keys' list, open.
            if n == 2 {
                s.keys("?").await.expect("?");
                s.wait_for("#keys-help[open]", 5).await.expect("keys");
                found.extend(
                    axe(&s, &source, &format!("{page}, the keys' list"))
                        .await
                        .expect("axe"),
                );
                s.keys(key::ESCAPE).await.expect("close");
                gone(&s, "#keys-help", 5).await.expect("closed");
                pages += 1;
            }
        }
        // The finished game's pages.
        let id = finished.as_str();
        let base_ = base.as_str();
        eventually(120, move || async move {
            match summary(base_, id).await.expect("summary")["status"] == json!("finished") {
                true => Ok(()),
                false => Err(format!("the bots did not finish table {id}")),
            }
        })
        .await;
        for (page, path, ready) in [
            ("the lobby", "/".to_string(), "#tables-finished li"),
            ("the rules", format!("/rules/{game}"), ".rules-section"),
            (
                "the replay",
                format!("/replay/{finished}"),
                "#replay-board > *",
            ),
            (
                "the leaderboard",
                format!("/leaderboard/{game}"),
                "#bot-ratings tr",
            ),
            ("the lessons", format!("/learn/{game}"), ".lesson-list a"),
        ] {
            if page == "the lobby" && game != "dropsite" {
                continue;
            }
            s.goto(&format!("{base}{path}")).await.expect("page");
            s.wait_for(ready, 20).await.expect(page);
            found.extend(
                axe(&s, &source, &format!("{page} of {game}"))
                    .await
                    .expect("axe"),
            );
            pages += 1;
        }
        // The first lesson, as the list (the last page audited) links it.
        let first = s
            .exec(
                "return document.querySelector('.lesson-list a').getAttribute('href')",
                json!([]),
            )
            .await
            .expect("a lesson");
        s.goto(&format!("{base}{}", first.as_str().expect("href")))
            .await
            .expect("lesson");
        s.wait_for(".board > *", 20).await.expect("lesson board");
        found.extend(
            axe(&s, &source, &format!("a lesson of {game}"))
                .await
                .expect("axe"),
        );
        // The end of the finished game and its review.
        s.goto(&format!("{base}/play/{finished}"))
            .await
            .expect("end");
        let open = s.wait_for("#review-open", 20).await.expect("end screen");
        found.extend(
            axe(&s, &source, &format!("the end of {game}"))
                .await
                .expect("axe"),
        );
        s.click(&open).await.expect("review");
        s.wait_for("#review-chart circle", 120)
            .await
            .expect("review");
        found.extend(
            axe(&s, &source, &format!("the review of {game}"))
                .await
                .expect("axe"),
        );
        pages += 3;
    }
    s.quit().await;
    eprintln!(
        "axe-core: {pages} pages audited in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        found.is_empty(),
        "serious or critical violations:\n{}",
        found.join("\n")
    );
    assert!(
        missing.is_empty(),
        "cues beside colour missing:\n{}",
        missing.join("\n")
    );
}
