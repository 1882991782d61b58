//! One storage conformance suite, run on SQLite and on PostgreSQL.

use crate::common;

use server::domain::{
    AccountRow, ActionRow, Append, BoardRow, Channel, ContactRow, EntrantRow, GameRow, HistoryRow,
    NoteRow, Notice, Player, RatedGame, RatingChange, RatingRow, RoundRow, SeatRow, SessionRow,
    Status, Store, StoreError, TournamentRow, Upgrade,
};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// Action `seq` of a game, by `seat`, leaving the game `status`.
fn next(seq: u64, seat: usize, action: &str, status: Status) -> Append<'_> {
    Append {
        seq,
        seat,
        action,
        status,
    }
}

fn game_row(id: &str, created: i64) -> GameRow {
    let seats = vec![
        common::human_seat(Some("ab".repeat(32)), Some("Ada <b>".into())),
        SeatRow {
            player: Player::Bot(bots::BotSpec::Random),
            token_sha256: None,
            name: None,
            joined: None,
            account: None,
        },
    ];
    let config = serde_json::json!({"players": 2, "target": 50});
    common::open_row(id, "dropsite", config, u64::MAX - 5, seats, created)
}

/// A table rewritten in a newer format: only while it is as it was read.
async fn upgrades_conform(store: &Arc<dyn Store>) {
    let mut row = game_row("old-format", 500);
    row.format = 1;
    store.create(&row).await.expect("create");
    for seq in 0..3 {
        (store.append(
            "old-format",
            next(seq, 0, &format!("old {seq}"), Status::Running),
        ))
        .await
        .expect("append");
    }
    let kept = |seq: u64, action: &str| ActionRow {
        seq,
        seat: 1,
        action: action.into(),
        at: 99,
    };
    let mut upgrade = Upgrade {
        game: "old-format".into(),
        from: 1,
        stored: 2,
        format: 2,
        config: serde_json::json!({"players": 2, "target": 60}),
        actions: vec![kept(0, "new 0"), kept(1, "new 2")],
    };
    // It has 3 actions, not 2: another server moved meanwhile.
    assert!(!store.upgrade(&upgrade).await.expect("upgrade"));
    row.status = Status::Running;
    assert_eq!(
        store.game("old-format").await.expect("read"),
        Some(row.clone())
    );
    upgrade.stored = 3;
    assert!(store.upgrade(&upgrade).await.expect("upgrade"));
    let now = store.game("old-format").await.expect("read").expect("row");
    assert_eq!((now.format, &now.config), (2, &upgrade.config));
    assert_eq!(
        store.actions("old-format", 0).await.expect("read"),
        upgrade.actions
    );
    // Once: it is no longer in format 1.
    upgrade.stored = 2;
    assert!(!store.upgrade(&upgrade).await.expect("upgrade"));
    (store.append("old-format", next(2, 0, "next", Status::Running)))
        .await
        .expect("the next move goes after the rewritten ones");
}

/// A Euphoria table of before issue 16 (the notation, config and decisions of that time,
/// stored before formats were kept) is brought up to today's format when a server loads
/// it, once, and written back; it is the record the game's step makes.
async fn an_old_euphoria_table_is_upgraded_at_load(store: Arc<dyn Store>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../euphoria/tests/fixtures/main-record-5.json"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let record: engine::GameRecord = serde_json::from_str(&text).expect("a record");
    assert_eq!(record.format, 1);
    assert!(record
        .actions
        .iter()
        .any(|a| a == "offer 0" || a == "offer 1" || a == "offer 2"));
    let seats = (0..3)
        .map(|_| common::human_seat(Some("ab".repeat(32)), None))
        .collect();
    let id = "00000000000e0de1";
    let mut row = common::open_row(id, "euphoria", record.config.clone(), record.seed, seats, 7);
    row.format = 1;
    store.create(&row).await.expect("create");
    let n = record.actions.len();
    for (seq, action) in record.actions.iter().enumerate() {
        let status = if seq + 1 == n {
            Status::Finished
        } else {
            Status::Running
        };
        (store.append(id, next(seq as u64, seq % 3, action, status)))
            .await
            .expect("append");
    }
    let stored = store.actions(id, 0).await.expect("read");
    let (upgraded, sources) = catalog::game("euphoria")
        .expect("game")
        .upgrade_record(&record)
        .expect("the game upgrades it");
    for _server in 0..2 {
        let state = server::AppState::with_limits(store.clone(), common::unlimited())
            .await
            .expect("state");
        let (status, summary) = common::get(&state, &format!("/api/tables/{id}"), None).await;
        assert_eq!(status, axum::http::StatusCode::OK, "{summary}");
        assert_eq!(summary["status"], "finished", "{summary}");
        let now = store.game(id).await.expect("read").expect("row");
        assert_eq!(now.format, 2);
        assert_eq!(now.config, upgraded.config);
        assert_eq!(now.config["trading"], "one_offer_before_placing");
        let actions = store.actions(id, 0).await.expect("read");
        let texts: Vec<&str> = actions.iter().map(|a| a.action.as_str()).collect();
        assert_eq!(texts, upgraded.actions);
        // Each action kept keeps its seat and time.
        for (a, &from) in actions.iter().zip(&sources) {
            assert_eq!((a.seat, a.at), (stored[from].seat, stored[from].at));
        }
    }
}

async fn conformance(store: Arc<dyn Store>) {
    // Games round-trip, seeds above i64::MAX included.
    assert!(store.game("missing").await.expect("read").is_none());
    let a = game_row("game-a", 1000);
    let b = game_row("game-b", 2000);
    store.create(&a).await.expect("create a");
    store.create(&b).await.expect("create b");
    assert_eq!(store.game("game-a").await.expect("read"), Some(a.clone()));
    assert!(store.create(&a).await.is_err(), "ids are unique");

    // Actions append in order; a second row at a taken seq is a conflict.
    assert!(store.actions("game-a", 0).await.expect("read").is_empty());
    store
        .append("game-a", next(0, 0, "first", Status::Running))
        .await
        .expect("append 0");
    store
        .append("game-a", next(1, 1, "second", Status::Running))
        .await
        .expect("append 1");
    match store
        .append("game-a", next(1, 0, "rival", Status::Running))
        .await
    {
        Err(StoreError::Conflict { seq: 1, .. }) => {}
        other => panic!("a taken seq must conflict, got {other:?}"),
    }
    let rows = store.actions("game-a", 0).await.expect("read");
    let texts: Vec<(u64, usize, &str)> = rows
        .iter()
        .map(|r| (r.seq, r.seat, r.action.as_str()))
        .collect();
    assert_eq!(texts, vec![(0, 0, "first"), (1, 1, "second")]);
    assert!(rows.iter().all(|r| r.at > 0));
    let tail = store.actions("game-a", 1).await.expect("read");
    assert_eq!(tail.len(), 1);
    assert_eq!(tail[0].action, "second");
    assert!(store.actions("game-a", 2).await.expect("read").is_empty());
    assert!(store.actions("game-b", 0).await.expect("read").is_empty());
    // The same seq in another game is no conflict.
    store
        .append("game-b", next(0, 1, "first-b", Status::Finished))
        .await
        .expect("append b");

    // Status moves with the appends; lists filter by it, oldest first.
    let status = |id: &'static str| {
        let store = store.clone();
        async move { store.game(id).await.expect("read").expect("exists").status }
    };
    assert_eq!(status("game-a").await, Status::Running);
    assert_eq!(status("game-b").await, Status::Finished);
    let ids = |rows: Vec<GameRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.list(&[Status::Running], 10).await.expect("list")),
        vec!["game-a"]
    );
    assert_eq!(
        ids(store
            .list(&[Status::Open, Status::Running, Status::Finished], 10)
            .await
            .expect("list")),
        vec!["game-a", "game-b"]
    );
    assert_eq!(
        ids(store
            .list(&[Status::Running, Status::Finished], 1)
            .await
            .expect("list")),
        vec!["game-a"]
    );
    assert!(store.list(&[], 10).await.expect("list").is_empty());

    // Concurrent appends at one seq: exactly one wins.
    let c = game_row("game-c", 3000);
    store.create(&c).await.expect("create c");
    let mut handles = Vec::new();
    for i in 0..8 {
        let store = store.clone();
        handles.push(tokio::spawn(async move {
            store
                .append("game-c", next(0, 0, &format!("racer-{i}"), Status::Running))
                .await
        }));
    }
    let mut won = 0;
    for handle in handles {
        match handle.await.expect("task") {
            Ok(()) => won += 1,
            Err(StoreError::Conflict { .. }) => {}
            Err(e) => panic!("a racer failed otherwise: {e}"),
        }
    }
    assert_eq!(won, 1, "exactly one of the conflicting appends is accepted");
    assert_eq!(store.actions("game-c", 0).await.expect("read").len(), 1);

    // A finished game's review is kept once: the first one stands.
    assert_eq!(store.review("game-b").await.expect("read"), None);
    store
        .set_review("game-b", r#"{"moves":[1]}"#)
        .await
        .expect("keep");
    store
        .set_review("game-b", r#"{"moves":[2]}"#)
        .await
        .expect("keep again");
    assert_eq!(
        store.review("game-b").await.expect("read").as_deref(),
        Some(r#"{"moves":[1]}"#)
    );
    assert_eq!(store.review("game-a").await.expect("read"), None);

    // Strange text is stored as given.
    store
        .append("game-c", next(1, 0, "quote ' \" ; -- é", Status::Running))
        .await
        .expect("append text");
    assert_eq!(
        store.actions("game-c", 1).await.expect("read")[0].action,
        "quote ' \" ; -- é"
    );

    upgrades_conform(&store).await;
    accounts_conform(&store).await;
    tournaments_conform(&store).await;
}

/// Every row of the accounts' tables (docs/accounts.md): accounts unique by skeleton,
/// sessions, seat owners, ratings written once per table and only over the rating read.
async fn accounts_conform(store: &Arc<dyn Store>) {
    let account = |id: &str, name: &str, skeleton: &str| AccountRow {
        id: id.into(),
        name: name.into(),
        skeleton: skeleton.into(),
        password: format!("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$hash-of-{id}"),
        created: 7,
    };
    let ada = account("acc-ada", "Ada", "ada-skeleton");
    let bea = account("acc-bea", "Bea", "bea-skeleton");
    assert!(store.create_account(&ada).await.expect("create"));
    assert!(store.create_account(&bea).await.expect("create"));
    // Unique by skeleton: nothing written for a name that looks like one taken.
    let again = account("acc-other", "Αda", "ada-skeleton");
    assert!(!store.create_account(&again).await.expect("create"));
    assert_eq!(store.account("acc-other").await.expect("read"), None);
    assert_eq!(
        store.account_named("ada-skeleton").await.expect("read"),
        Some(ada.clone())
    );
    assert_eq!(
        store.account("acc-bea").await.expect("read"),
        Some(bea.clone())
    );
    assert_eq!(store.account_named("nobody").await.expect("read"), None);

    // Sessions: read with their account, ended one by one or all at once.
    let session = |hash: &str, account: &str| SessionRow {
        id_sha256: hash.into(),
        account: account.into(),
        created: 11,
    };
    for (hash, who) in [
        ("s1", "acc-ada"),
        ("s2", "acc-ada"),
        ("s3", "acc-ada"),
        ("s4", "acc-bea"),
    ] {
        store
            .add_session(&session(hash, who))
            .await
            .expect("session");
    }
    let (found, owner) = store.session("s1").await.expect("read").expect("s1");
    assert_eq!(
        (found.account.as_str(), found.created, owner),
        ("acc-ada", 11, ada.clone())
    );
    store.end_session("s1").await.expect("end");
    assert!(store.session("s1").await.expect("read").is_none());
    // A new password ends every other session of the account, not the one kept.
    store
        .set_password("acc-ada", "new-hash", "s2")
        .await
        .expect("password");
    let (_, owner) = store.session("s2").await.expect("read").expect("s2 kept");
    assert_eq!(owner.password, "new-hash");
    assert!(store.session("s3").await.expect("read").is_none());
    assert_eq!(store.end_sessions("acc-ada").await.expect("end all"), 1);
    assert!(store.session("s2").await.expect("read").is_none());
    assert!(
        store.session("s4").await.expect("read").is_some(),
        "Bea's stays"
    );

    // Seat owners: the tables of an account, newest first, with its seat.
    let mut old = game_row("owned-old", 10);
    old.seats[0].account = Some("acc-ada".into());
    let new = game_row("owned-new", 20);
    store.create(&old).await.expect("create");
    store.create(&new).await.expect("create");
    store
        .add_owners("owned-old", &[(0, "acc-ada".into())])
        .await
        .expect("owners");
    store
        .add_owners("owned-new", &[(1, "acc-ada".into()), (0, "acc-bea".into())])
        .await
        .expect("owners");
    let mine = store.owned_seats("acc-ada", 10).await.expect("read");
    let listed: Vec<(&str, usize)> = mine.iter().map(|o| (o.table.as_str(), o.seat)).collect();
    assert_eq!(listed, [("owned-new", 1), ("owned-old", 0)]);
    assert_eq!(store.game("owned-old").await.expect("read"), Some(old));
    assert_eq!(
        store.owned_seats("acc-ada", 1).await.expect("read").len(),
        1
    );

    // A rated game: history rows and ratings, once per table.
    let change = |account: &str, seat: usize, place: u8, games: u64, mu: f64| RatingChange {
        account: account.into(),
        seat,
        place,
        mu_before: 25.0,
        sigma_before: 8.0,
        games_before: games,
        mu_after: mu,
        sigma_after: 7.5,
    };
    let first = RatedGame {
        game_id: "owned-new".into(),
        game: "dropsite".into(),
        at: 30,
        seats: vec![
            change("acc-bea", 0, 1, 0, 22.5),
            change("acc-ada", 1, 0, 0, 27.5),
        ],
    };
    assert!(store.rate(&first).await.expect("rate"));
    assert!(
        !store.rate(&first).await.expect("rate again"),
        "once per table"
    );
    let ratings = store.ratings("acc-ada").await.expect("read");
    assert_eq!(
        ratings,
        [RatingRow {
            account: "acc-ada".into(),
            game: "dropsite".into(),
            mu: 27.5,
            sigma: 7.5,
            games: 1,
            at: 30,
        }]
    );
    let board = store.leaderboard("dropsite", 10).await.expect("read");
    let names: Vec<&str> = board.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Ada", "Bea"]);
    assert!(store
        .leaderboard("euphoria", 10)
        .await
        .expect("read")
        .is_empty());
    // A rating read before another game moved it is not written over.
    let stale = RatedGame {
        game_id: "owned-old".into(),
        game: "dropsite".into(),
        at: 40,
        seats: vec![change("acc-ada", 0, 0, 0, 30.0)],
    };
    assert!(!store.rate(&stale).await.expect("rate"));
    assert_eq!(store.ratings("acc-ada").await.expect("read")[0].mu, 27.5);
    assert_eq!(store.history("acc-ada", 10).await.expect("read").len(), 1);
    let fresh = RatedGame {
        seats: vec![change("acc-ada", 0, 0, 1, 30.0)],
        ..stale
    };
    assert!(store.rate(&fresh).await.expect("rate"));
    let now = &store.ratings("acc-ada").await.expect("read")[0];
    assert_eq!((now.mu, now.games, now.at), (30.0, 2, 40));
    let history = store.history("acc-ada", 10).await.expect("read");
    assert_eq!(
        history[1],
        HistoryRow {
            game_id: "owned-new".into(),
            game: "dropsite".into(),
            seat: 1,
            place: 0,
            mu_before: 25.0,
            sigma_before: 8.0,
            mu_after: 27.5,
            sigma_after: 7.5,
            at: 30,
        }
    );
    assert_eq!(history[0].game_id, "owned-old", "newest first");
    notifications_conform(store, &ada.id).await;
}

/// The contacts and the notifications' outbox (docs/accounts.md, Notifications): a
/// contact written and read, the links' tokens, a turn queued once, and a row claimed by
/// one worker at a time, put back for a retry and marked sent.
async fn notifications_conform(store: &Arc<dyn Store>, account: &str) {
    let contact = ContactRow {
        account: account.into(),
        email: Some("ada@example.org".into()),
        email_verified: false,
        verify_token: Some("v0".into()),
        webhook: Some("https://hooks.example.org/ada".into()),
        webhook_secret: Some("s3cret".into()),
        notifications: true,
        unsubscribe_token: "u0".into(),
    };
    assert!(store.contact(account).await.expect("read").is_none());
    store.set_contact(&contact).await.expect("write");
    assert_eq!(
        store.contact(account).await.expect("read"),
        Some(contact.clone())
    );
    assert_eq!(store.verify_email("nope").await.expect("verify"), None);
    assert_eq!(
        store.verify_email("v0").await.expect("verify").as_deref(),
        Some(account)
    );
    assert_eq!(
        store.verify_email("v0").await.expect("verify"),
        None,
        "used up"
    );
    let read = store
        .contact(account)
        .await
        .expect("read")
        .expect("a contact");
    assert!(read.email_verified && read.verify_token.is_none());
    assert_eq!(
        store.unsubscribe("u0").await.expect("off").as_deref(),
        Some(account)
    );
    assert!(
        !store
            .contact(account)
            .await
            .expect("read")
            .expect("a contact")
            .notifications
    );

    let note = |id: &str, channel| NoteRow {
        id: id.into(),
        account: account.into(),
        game_id: "owned-old".into(),
        seq: 3,
        channel,
        target: "ada@example.org".into(),
        created: 1_000,
        attempts: 0,
    };
    let queued = store
        .queue_notes(&[note("n1", Channel::Email), note("n2", Channel::Webhook)])
        .await
        .expect("queue");
    assert_eq!(queued, 2);
    // The same turn again: nothing added.
    assert_eq!(
        store
            .queue_notes(&[note("n3", Channel::Email)])
            .await
            .expect("queue"),
        0
    );
    let claimed = store
        .claim_notes("w1", 2_000, 62_000, 1)
        .await
        .expect("claim");
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].attempts, 1);
    let first = claimed[0].id.clone();
    // Another worker gets the other row only; then nothing while the claims hold.
    let other = store
        .claim_notes("w2", 2_000, 62_000, 10)
        .await
        .expect("claim");
    assert_eq!(other.len(), 1);
    assert_ne!(other[0].id, first);
    assert!(store
        .claim_notes("w2", 3_000, 63_000, 10)
        .await
        .expect("claim")
        .is_empty());
    // A worker without the claim marks nothing; the holder puts it back for later.
    store
        .note_done(&first, "w2", 3_000, None)
        .await
        .expect("mark");
    store
        .note_done(&first, "w1", 3_000, Some(10_000))
        .await
        .expect("mark");
    assert!(store
        .claim_notes("w2", 9_000, 69_000, 10)
        .await
        .expect("claim")
        .is_empty());
    let retried = store
        .claim_notes("w2", 10_000, 70_000, 10)
        .await
        .expect("claim");
    assert_eq!((retried.len(), retried[0].attempts), (1, 2));
    store
        .note_done(&first, "w2", 10_000, None)
        .await
        .expect("sent");
    // A claim that ran out (its worker died) is taken by another.
    let late = store
        .claim_notes("w3", 70_000, 130_000, 10)
        .await
        .expect("claim");
    assert_eq!(late.len(), 1);
    assert_ne!(late[0].id, first, "a sent row is not claimed again");
}

#[tokio::test]
async fn sqlite_store_conforms() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let store = server::SqliteStore::connect(&url).await.expect("sqlite");
    conformance(Arc::new(store)).await;
    // Reopening the file keeps everything (migrations run once).
    let again = server::SqliteStore::connect(&url).await.expect("reopen");
    assert_eq!(again.actions("game-a", 0).await.expect("read").len(), 2);
    assert!(again.subscribe().await.expect("subscribe").is_none());
}

#[tokio::test]
async fn postgres_store_conforms() {
    if !common::pg_up().await {
        return;
    }
    let schema = common::unique_schema("store");
    let store = Arc::new(common::pg_store(&schema).await);
    conformance(store.clone()).await;
    let again = common::pg_store(&schema).await;
    assert_eq!(again.actions("game-a", 0).await.expect("read").len(), 2);
    common::drop_schema(&schema).await;
}

#[tokio::test]
async fn sqlite_old_euphoria_tables_are_upgraded_at_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("t.sqlite").display());
    let store = server::SqliteStore::connect(&url).await.expect("sqlite");
    an_old_euphoria_table_is_upgraded_at_load(Arc::new(store)).await;
}

#[tokio::test]
async fn postgres_old_euphoria_tables_are_upgraded_at_load() {
    if !common::pg_up().await {
        return;
    }
    let schema = common::unique_schema("upgrade");
    an_old_euphoria_table_is_upgraded_at_load(Arc::new(common::pg_store(&schema).await)).await;
    common::drop_schema(&schema).await;
}

#[tokio::test]
async fn postgres_tells_other_servers_of_new_actions() {
    if !common::pg_up().await {
        return;
    }
    let schema = common::unique_schema("notify");
    let writer = common::pg_store(&schema).await;
    let reader = common::pg_store(&schema).await;
    let mut notices = reader
        .subscribe()
        .await
        .expect("subscribe")
        .expect("PostgreSQL sends notices");
    writer.create(&game_row("g", 1)).await.expect("create");
    writer
        .append("g", next(0, 0, "x", Status::Running))
        .await
        .expect("append");
    let notice = tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .expect("a notice within 10 s");
    assert_eq!(notice, Some(Notice::Actions("g".into())));
    // A conflicting append commits nothing and tells nobody.
    assert!(writer
        .append("g", next(0, 1, "y", Status::Running))
        .await
        .is_err());
    assert!(
        tokio::time::timeout(Duration::from_millis(300), notices.recv())
            .await
            .is_err(),
        "no notice for a refused append"
    );
    common::drop_schema(&schema).await;
}

/// A database as the first release left it: only the first migration, one table with
/// one action. The newer migrations must take it over, its table marked `seed_chosen`
/// (its seed was published) and its bots seeded as before (no secret).
const OLD_ROWS: [&str; 2] = [
    "INSERT INTO games (id, game, config, seed, seats, created, status) VALUES \
     ('old1', 'distopia', '{}', 42, '[{\"player\":\"human\",\"token_sha256\":\"ab\"},{\"player\":\"random\"}]', 5, 'open')",
    "INSERT INTO actions (game_id, seq, seat, action, at) VALUES ('old1', 0, 0, 'x', 6)",
];

async fn first_migration() -> (tempfile::TempDir, sqlx::migrate::Migrator) {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/0001_tables.sql");
    std::fs::copy(first, dir.path().join("0001_tables.sql")).expect("copy");
    let migrator = sqlx::migrate::Migrator::new(dir.path())
        .await
        .expect("migrator");
    (dir, migrator)
}

async fn check_old_table(store: Arc<dyn Store>) {
    let row = store.game("old1").await.expect("read").expect("old row");
    assert!(row.seed_chosen, "a table from before secrets was published");
    assert!(row.bot_secret.is_empty());
    assert_eq!(row.seed, 42);
    assert_eq!(
        row.format, 1,
        "a table stored before formats were kept is format 1"
    );
    assert_eq!(store.actions("old1", 0).await.expect("read").len(), 1);
}

#[tokio::test]
async fn sqlite_tables_stored_before_the_secrets_still_load() {
    let (_migrations, migrator) = first_migration().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("old.sqlite").display());
    {
        let options = sqlx::sqlite::SqliteConnectOptions::from_str(&url)
            .expect("url")
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(options).await.expect("pool");
        migrator.run(&pool).await.expect("old schema");
        for sql in OLD_ROWS {
            sqlx::query(sql).execute(&pool).await.expect("old rows");
        }
        pool.close().await;
    }
    let store = server::SqliteStore::connect(&url).await.expect("migrates");
    check_old_table(Arc::new(store)).await;
}

#[tokio::test]
async fn postgres_tables_stored_before_the_secrets_still_load() {
    if !common::pg_up().await {
        return;
    }
    let (_migrations, migrator) = first_migration().await;
    let schema = common::unique_schema("old");
    {
        let options = sqlx::postgres::PgConnectOptions::from_str(&common::pg_url()).expect("url");
        let pool = sqlx::PgPool::connect_with(options.clone())
            .await
            .expect("pool");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&pool)
            .await
            .expect("schema");
        pool.close().await;
        let pool = sqlx::PgPool::connect_with(options.options([("search_path", schema.as_str())]))
            .await
            .expect("pool");
        migrator.run(&pool).await.expect("old schema");
        for sql in OLD_ROWS {
            sqlx::query(sql).execute(&pool).await.expect("old rows");
        }
        pool.close().await;
    }
    let store = common::pg_store(&schema).await;
    check_old_table(Arc::new(store)).await;
    common::drop_schema(&schema).await;
}

/// A SQLite store on a fresh file in its own directory, with one game and one move.
async fn sqlite_with_a_move(dir: &tempfile::TempDir) -> (std::path::PathBuf, Arc<dyn Store>) {
    let path = dir.path().join("tables.sqlite");
    let store: Arc<dyn Store> = Arc::new(
        server::store::SqliteStore::connect(&format!("sqlite://{}", path.display()))
            .await
            .expect("sqlite file"),
    );
    store.create(&game_row("g", 1)).await.expect("create");
    store
        .append("g", next(0, 0, "first", Status::Running))
        .await
        .expect("a move on the file the server opened is acknowledged");
    (path, store)
}

async fn refused_for_good(store: &Arc<dyn Store>, what: &str) {
    for seq in 1..3 {
        match store
            .append("g", next(seq, 0, "lost", Status::Running))
            .await
        {
            Err(e @ StoreError::FileGone(_)) => {
                assert!(e.to_string().contains("tables.sqlite"), "{what}: {e}");
            }
            other => panic!("{what}: a move must be refused, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn sqlite_file_removed_under_the_server_refuses_moves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, store) = sqlite_with_a_move(&dir).await;
    std::fs::remove_file(&path).expect("remove");
    refused_for_good(&store, "removed").await;
}

#[tokio::test]
async fn sqlite_file_replaced_under_the_server_refuses_moves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, store) = sqlite_with_a_move(&dir).await;
    let other = dir.path().join("other.sqlite");
    std::fs::copy(&path, &other).expect("copy");
    std::fs::rename(&other, &path).expect("replace");
    refused_for_good(&store, "replaced").await;
}

#[tokio::test]
async fn sqlite_file_truncated_under_the_server_refuses_moves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, store) = sqlite_with_a_move(&dir).await;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open")
        .set_len(0)
        .expect("truncate");
    refused_for_good(&store, "truncated").await;
}

#[tokio::test]
async fn sqlite_file_left_alone_keeps_acknowledging_moves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_path, store) = sqlite_with_a_move(&dir).await;
    for seq in 1..200 {
        store
            .append("g", next(seq, 0, "next", Status::Running))
            .await
            .expect("the file grows and stays the same file");
    }
}

/// Every row of the tournaments' tables (docs/accounts.md, Tournaments): a tournament and
/// its status, players joining while it is open and has room, once each, leaving, rounds
/// made once, boards with their tables, and a board's result kept once.
async fn tournaments_conform(store: &Arc<dyn Store>) {
    let row = TournamentRow {
        id: "t-1".into(),
        name: "Friday cup ' é".into(),
        game: "dropsite".into(),
        format: "swiss".into(),
        rounds: 3,
        table_size: 2,
        max_players: 0,
        settings: r#"{"fill":"easy"}"#.into(),
        creator: "acc-ada".into(),
        status: "open".into(),
        created: 50,
        players: 0,
    };
    store.create_tournament(&row).await.expect("create");
    let older = TournamentRow {
        id: "t-0".into(),
        created: 40,
        ..row.clone()
    };
    store.create_tournament(&older).await.expect("create");
    let listed: Vec<String> = (store.tournaments(10).await.expect("list"))
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(listed, ["t-1", "t-0"], "newest first");
    assert_eq!(store.tournaments(1).await.expect("list").len(), 1);
    // Joining: once each, up to the most players, only while open.
    assert!(store
        .join_tournament("t-1", "acc-bea", 60, 2)
        .await
        .expect("join"));
    assert!(!store
        .join_tournament("t-1", "acc-bea", 61, 2)
        .await
        .expect("again"));
    assert!(store
        .join_tournament("t-1", "acc-ada", 62, 2)
        .await
        .expect("join"));
    assert!(!store
        .join_tournament("t-1", "acc-other", 63, 2)
        .await
        .expect("full"));
    assert!(store
        .leave_tournament("t-1", "acc-ada")
        .await
        .expect("leave"));
    assert!(!store
        .leave_tournament("t-1", "acc-ada")
        .await
        .expect("not in"));
    assert!(store
        .join_tournament("t-1", "acc-ada", 64, 2)
        .await
        .expect("back"));
    let data = store.tournament("t-1").await.expect("read").expect("there");
    assert_eq!(
        data.row,
        TournamentRow {
            players: 2,
            ..row.clone()
        }
    );
    assert_eq!(
        data.entrants,
        [
            EntrantRow {
                account: "acc-bea".into(),
                name: "Bea".into(),
                joined: 60
            },
            EntrantRow {
                account: "acc-ada".into(),
                name: "Ada".into(),
                joined: 64
            }
        ],
        "in the order they joined"
    );
    assert!(store.tournament("t-none").await.expect("read").is_none());
    // Started: from open only; no more joining or leaving.
    assert!(store
        .set_tournament_status("t-1", "open", "running", 3)
        .await
        .expect("start"));
    assert!(!store
        .set_tournament_status("t-1", "open", "running", 3)
        .await
        .expect("twice"));
    assert!(!store
        .leave_tournament("t-1", "acc-ada")
        .await
        .expect("started"));
    assert!(!store
        .join_tournament("t-0", "acc-ada", 65, 0)
        .await
        .expect("no room at 0"));
    // A round is made once; its boards name their tables.
    let round = RoundRow {
        round: 0,
        pairing: r#"[["acc-bea","acc-ada"]]"#.into(),
        created: 70,
    };
    assert!(store.add_round("t-1", &round).await.expect("round"));
    let other = RoundRow {
        pairing: "[]".into(),
        ..round.clone()
    };
    assert!(!store.add_round("t-1", &other).await.expect("round again"));
    let board = BoardRow {
        round: 0,
        board: 0,
        table: "owned-new".into(),
        result: None,
    };
    store.add_board("t-1", &board).await.expect("board");
    assert_eq!(
        store
            .tournament_of("owned-new")
            .await
            .expect("read")
            .as_deref(),
        Some("t-1")
    );
    assert_eq!(store.tournament_of("owned-old").await.expect("read"), None);
    store
        .set_board_result("owned-new", r#"{"places":[1,0]}"#)
        .await
        .expect("result");
    store
        .set_board_result("owned-new", r#"{"places":[0,1]}"#)
        .await
        .expect("result again");
    let data = store.tournament("t-1").await.expect("read").expect("there");
    assert_eq!(data.rounds, [round]);
    assert_eq!(
        data.boards,
        [BoardRow {
            result: Some(r#"{"places":[1,0]}"#.into()),
            ..board
        }],
        "the first result stands"
    );
    assert!(store
        .set_tournament_status("t-1", "running", "finished", 3)
        .await
        .expect("finish"));
    let done = store.tournament("t-1").await.expect("read").expect("there");
    assert_eq!((done.row.status.as_str(), done.row.rounds), ("finished", 3));
}
