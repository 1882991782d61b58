//! Server-side bots never give up: a store that fails for a while and then recovers does
//! not leave a bot table stuck.

use crate::common;

use common::{get, Flaky};
use serde_json::json;
use server::AppState;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_table_goes_on_after_the_store_recovers() {
    let store = Arc::new(Flaky::memory().await);
    store.failing.store(true, Ordering::SeqCst);
    let state = AppState::with_limits(store.clone(), common::unlimited())
        .await
        .expect("state");
    let body = json!({"game": "distopia", "seats": ["random", "random"]});
    let table = common::create_table(&state, body).await;
    let uri = format!("/api/tables/{}", table["id"].as_str().expect("id"));
    // The store fails for 3 s: the bots cannot move, and keep trying.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, summary) = get(&state, &uri, None).await;
    assert_eq!(summary["version"], 0);
    let tries = store.refused.load(Ordering::SeqCst);
    assert!(tries >= 5, "the bot tried {tries} times");
    // Back: the game goes on by itself to its end.
    store.failing.store(false, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, summary) = get(&state, &uri, None).await;
        if summary["status"] == "finished" {
            break;
        }
        assert!(Instant::now() < deadline, "stuck at {summary}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Finished: its GETs answer from memory, with no replay from the store.
    let reads = store.reads.load(Ordering::SeqCst);
    for path in ["", "/spectate", "/record"] {
        for _ in 0..5 {
            let (status, body) = get(&state, &format!("{uri}{path}"), None).await;
            assert_eq!(status.as_u16(), 200, "{path}: {body}");
        }
    }
    assert_eq!(
        store.reads.load(Ordering::SeqCst),
        reads,
        "a finished table's GET replays nothing"
    );
    // A new server replays it once, on its first GET, then answers from memory too.
    let again = AppState::with_limits(store.clone(), common::unlimited())
        .await
        .expect("state");
    let reads = store.reads.load(Ordering::SeqCst);
    for _ in 0..5 {
        let (status, body) = get(&again, &format!("{uri}/record"), None).await;
        assert_eq!(status.as_u16(), 200, "{body}");
    }
    assert_eq!(store.reads.load(Ordering::SeqCst), reads + 1, "one replay");
}
