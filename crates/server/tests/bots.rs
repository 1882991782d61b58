//! Server-side bots never give up: a store that fails for a while and then recovers does
//! not leave a bot table stuck.

mod common;

use async_trait::async_trait;
use common::{call, post_json};
use serde_json::json;
use server::store::{ActionRow, GameRow, Notice, Page, Status, Store, StoreError};
use server::{AppState, SqliteStore};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A store whose appends fail while `failing` is set.
struct Flaky {
    inner: SqliteStore,
    failing: AtomicBool,
    refused: AtomicUsize,
}

#[async_trait]
impl Store for Flaky {
    async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        self.inner.create(game).await
    }
    async fn append(
        &self,
        game: &str,
        seq: u64,
        seat: usize,
        action: &str,
        status: Status,
    ) -> Result<(), StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            self.refused.fetch_add(1, Ordering::SeqCst);
            return Err(StoreError::WriterGone);
        }
        self.inner.append(game, seq, seat, action, status).await
    }
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.inner.game(id).await
    }
    async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError> {
        self.inner.actions(game, from_seq).await
    }
    async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError> {
        self.inner.list(statuses, limit).await
    }
    async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError> {
        self.inner.page(page).await
    }
    async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError> {
        self.inner.abandon(game, seq).await
    }
    async fn subscribe(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        self.inner.subscribe().await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_table_goes_on_after_the_store_recovers() {
    let store = Arc::new(Flaky {
        inner: SqliteStore::connect("sqlite::memory:")
            .await
            .expect("sqlite"),
        failing: AtomicBool::new(true),
        refused: AtomicUsize::new(0),
    });
    let state = AppState::with_limits(store.clone(), common::unlimited())
        .await
        .expect("state");
    let (status, table) = post_json(
        &state,
        "/api/tables",
        None,
        &json!({"game": "distopia", "seats": ["random", "random"]}),
    )
    .await;
    assert_eq!(status.as_u16(), 201, "{table}");
    let uri = format!("/api/tables/{}", table["id"].as_str().expect("id"));
    // The store fails for 3 s: the bots cannot move, and keep trying.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, summary) = call(&state, "GET", &uri, None, None).await;
    assert_eq!(summary["version"], 0);
    let tries = store.refused.load(Ordering::SeqCst);
    assert!(tries >= 5, "the bot tried {tries} times");
    // Back: the game goes on by itself to its end.
    store.failing.store(false, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, summary) = call(&state, "GET", &uri, None, None).await;
        if summary["status"] == "finished" {
            break;
        }
        assert!(Instant::now() < deadline, "stuck at {summary}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
