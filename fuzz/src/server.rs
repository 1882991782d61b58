//! The server targets: its decoders (socket messages, names, chat lines, seats, table
//! rules), and the same inputs at a live table in memory, through the hub and through
//! the HTTP router (no socket): whatever is refused leaves the table as it was.
use async_trait::async_trait;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use engine::Viewer;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use server::domain::By;
use server::domain::{
    ActionRow, Append, ChatRow, GameRow, Notice, Page, SeatChange, Status, Store, StoreError,
};
use server::{AppState, ClientMessage, Limits, Table};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

/// Every error code the API documents (docs/http-api.md); `internal` is left out: no
/// input may cause one.
pub const CODES: &[&str] = &[
    "request/malformed",
    "request/too_large",
    "request/headers_too_large",
    "request/not_found",
    "request/method",
    "request/timeout",
    "server/busy",
    "game/unknown",
    "game/not_found",
    "game/not_over",
    "game/abandoned",
    "request/rate_limited",
    "server/full",
    "config/invalid",
    "seat/invalid",
    "seat/count",
    "seat/name",
    "seat/name_confusable",
    "seat/not_found",
    "seat/taken",
    "seat/name_taken",
    "auth/signed_out",
    "account/not_found",
    "table/rated",
    "table/waiting",
    "chat/invalid",
    "table/invalid",
    "action/not_yours",
    "auth/required",
    "auth/bad_token",
    "action/malformed",
    "action/illegal",
    "action/not_your_turn",
    "action/stale_version",
    "action/game_over",
    "game/over",
    "hint/off",
    "hint/not_seated",
    "lesson/unknown",
    "lesson/no_step",
];

/// A store in memory: what the SQL stores keep, in maps (the fuzz targets make and end
/// thousands of tables; SQLite's group commit would wait for more writes each time).
#[derive(Default)]
pub struct MemoryStore {
    games: Mutex<HashMap<String, Stored>>,
}

#[derive(Clone)]
struct Stored {
    row: GameRow,
    actions: Vec<ActionRow>,
    chat: Vec<ChatRow>,
    review: Option<String>,
}

impl MemoryStore {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Stored>) -> T) -> T {
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut games)
    }

    /// How many games are stored.
    pub fn len(&self) -> usize {
        self.with(|g| g.len())
    }

    /// Whether no game is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// No accounts: the fuzz targets call no account's route with a session. A guest's seat
/// name is checked against the accounts' names (none here), and nobody owns a seat.
#[async_trait]
impl server::domain::Accounts for MemoryStore {
    async fn account_named(
        &self,
        _skeleton: &str,
    ) -> Result<Option<server::domain::AccountRow>, StoreError> {
        Ok(None)
    }
}

/// No tournaments: the fuzz targets make none (a finished table is nobody's).
impl server::domain::Tournaments for MemoryStore {}

#[async_trait]
impl Store for MemoryStore {
    async fn create(&self, game: &GameRow) -> Result<(), StoreError> {
        self.with(|games| {
            if games.contains_key(&game.id) {
                return Err(StoreError::Corrupt(format!("game {} exists", game.id)));
            }
            games.insert(
                game.id.clone(),
                Stored {
                    row: game.clone(),
                    actions: Vec::new(),
                    chat: Vec::new(),
                    review: None,
                },
            );
            Ok(())
        })
    }
    async fn set_seats(&self, game: &str, seats: SeatChange<'_>) -> Result<bool, StoreError> {
        Ok(self.with(|games| match games.get_mut(game) {
            Some(g) if g.row.seats == seats.before => {
                g.row.seats = seats.after.to_vec();
                true
            }
            _ => false,
        }))
    }
    async fn set_rematch(&self, game: &str, rematch: &str) -> Result<String, StoreError> {
        self.with(|games| match games.get_mut(game) {
            Some(g) => Ok(g
                .row
                .rematch
                .get_or_insert_with(|| rematch.to_string())
                .clone()),
            None => Err(StoreError::Corrupt(format!("no game {game}"))),
        })
    }
    async fn chat_add(&self, game: &str, line: &ChatRow) -> Result<(), StoreError> {
        self.with(|games| {
            let g = games
                .get_mut(game)
                .ok_or_else(|| StoreError::Corrupt(format!("no game {game}")))?;
            if g.chat.iter().any(|l| l.seq == line.seq) {
                return Err(StoreError::Conflict {
                    game: game.into(),
                    seq: line.seq,
                });
            }
            g.chat.push(line.clone());
            g.chat.sort_by_key(|l| l.seq);
            Ok(())
        })
    }
    async fn chat(&self, game: &str, from_seq: u64) -> Result<Vec<ChatRow>, StoreError> {
        Ok(self.with(|games| {
            games.get(game).map_or_else(Vec::new, |g| {
                g.chat
                    .iter()
                    .filter(|l| l.seq >= from_seq)
                    .cloned()
                    .collect()
            })
        }))
    }
    async fn append(&self, game: &str, next: Append<'_>) -> Result<(), StoreError> {
        let Append {
            seq,
            seat,
            action,
            status,
        } = next;
        self.with(|games| {
            let g = games
                .get_mut(game)
                .ok_or_else(|| StoreError::Corrupt(format!("no game {game}")))?;
            if g.actions.iter().any(|a| a.seq == seq) {
                return Err(StoreError::Conflict {
                    game: game.into(),
                    seq,
                });
            }
            g.actions.push(ActionRow {
                seq,
                seat,
                action: action.to_string(),
                at: server::domain::now_ms(),
            });
            if g.row.status != Status::Abandoned {
                g.row.status = status;
            }
            Ok(())
        })
    }
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        Ok(self.with(|games| games.get(id).map(|g| g.row.clone())))
    }
    async fn actions(&self, game: &str, from_seq: u64) -> Result<Vec<ActionRow>, StoreError> {
        Ok(self.with(|games| {
            games.get(game).map_or_else(Vec::new, |g| {
                let mut rows: Vec<ActionRow> = g
                    .actions
                    .iter()
                    .filter(|a| a.seq >= from_seq)
                    .cloned()
                    .collect();
                rows.sort_by_key(|a| a.seq);
                rows
            })
        }))
    }
    async fn list(&self, statuses: &[Status], limit: u32) -> Result<Vec<GameRow>, StoreError> {
        Ok(self.with(|games| {
            let mut rows: Vec<GameRow> = (games.values())
                .filter(|g| statuses.contains(&g.row.status))
                .map(|g| g.row.clone())
                .collect();
            rows.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
            rows.truncate(limit as usize);
            rows
        }))
    }
    async fn page(&self, page: &Page) -> Result<Vec<GameRow>, StoreError> {
        Ok(self.with(|games| {
            let mut rows: Vec<GameRow> = (games.values())
                .filter(|g| page.statuses.contains(&g.row.status))
                .filter(|g| page.game.as_ref().is_none_or(|name| *name == g.row.game))
                .filter(|g| {
                    page.before
                        .as_ref()
                        .is_none_or(|(created, id)| (g.row.created, &g.row.id) < (*created, id))
                })
                .map(|g| g.row.clone())
                .collect();
            rows.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
            rows.truncate(page.limit as usize);
            rows
        }))
    }
    async fn abandon(&self, game: &str, seq: u64) -> Result<bool, StoreError> {
        Ok(self.with(|games| match games.get_mut(game) {
            Some(g)
                if matches!(g.row.status, Status::Open | Status::Running)
                    && g.actions.len() as u64 == seq =>
            {
                g.row.status = Status::Abandoned;
                true
            }
            _ => false,
        }))
    }
    async fn review(&self, game: &str) -> Result<Option<String>, StoreError> {
        Ok(self.with(|games| games.get(game).and_then(|g| g.review.clone())))
    }
    async fn upgrade(&self, upgrade: &server::domain::Upgrade) -> Result<bool, StoreError> {
        Ok(self.with(|games| match games.get_mut(&upgrade.game) {
            Some(g) if g.row.format == upgrade.from && g.actions.len() as u64 == upgrade.stored => {
                g.row.format = upgrade.format;
                g.row.config = upgrade.config.clone();
                g.actions = upgrade.actions.clone();
                true
            }
            _ => false,
        }))
    }
    async fn set_review(&self, game: &str, review: &str) -> Result<(), StoreError> {
        self.with(|games| match games.get_mut(game) {
            Some(g) => {
                g.review.get_or_insert_with(|| review.to_string());
                Ok(())
            }
            None => Err(StoreError::Corrupt(format!("no game {game}"))),
        })
    }
    async fn subscribe(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<Notice>>, StoreError> {
        Ok(None)
    }
    /// Memory always answers.
    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A server in memory for one input: its own runtime, hub and store, dropped after it
/// (bots of a table the input made stop with it), so that every input runs alone.
pub struct Fixture {
    runtime: Option<tokio::runtime::Runtime>,
    pub state: AppState,
    pub store: Arc<MemoryStore>,
}

/// The server's limits for fuzzing: no rates (inputs come fast), and bots that think
/// little (a table an input creates may seat them).
pub fn limits() -> Limits {
    Limits {
        rate_limits: false,
        bot_iterations: 20,
        bot_time: std::time::Duration::from_millis(5),
        ..Limits::default()
    }
}

impl Default for Fixture {
    fn default() -> Self {
        Fixture::new()
    }
}

impl Fixture {
    pub fn new() -> Fixture {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a tokio runtime");
        let store = Arc::new(MemoryStore::default());
        let state = runtime
            .block_on(AppState::with_limits(store.clone(), limits()))
            .expect("a hub over the memory store");
        Fixture {
            runtime: Some(runtime),
            state,
            store,
        }
    }

    /// Runs `future` on the fixture's runtime.
    pub fn run<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime
            .as_ref()
            .expect("the runtime lives as long as the fixture")
            .block_on(future)
    }

    /// A new table of `game` (0-2: the catalog's order) for two, seat 1 `open` when
    /// `open`, played on by `moves` legal moves (none at a table still waiting for a
    /// player). Returns the table and the human seats' tokens.
    pub async fn table(
        &self,
        game: u8,
        open: bool,
        moves: u8,
    ) -> (Arc<Table>, Vec<Option<String>>) {
        let name = catalog::GAMES[usize::from(game) % catalog::GAMES.len()];
        let seats = vec![json!("human"), json!(if open { "open" } else { "human" })];
        let hub = &self.state.hub;
        let (table, tokens) = hub
            .create(
                name,
                None,
                Some(u64::from(moves)),
                Some(seats),
                None,
                server::domain::Creator::default(),
            )
            .await
            .unwrap_or_else(|e| panic!("{name}: a table for two is refused: {e:?}"));
        if !open {
            for step in 0..u64::from(moves % 16) {
                let glance = table.glance().await;
                let Some(seat) = glance.to_act else { break };
                let legal = table.legal_now(Viewer::Seat(seat)).await.legal;
                let action = &legal[crate::pick(u64::from(moves), step, legal.len())];
                let played = match hub.parse_move(&table, action, glance.version).await {
                    Ok(mv) => {
                        hub.play(&table, seat, &mv, glance.version, By::Player)
                            .await
                    }
                    Err(e) => Err(e),
                };
                played.unwrap_or_else(|e| panic!("{name}: the legal `{action}` is refused: {e:?}"));
            }
        }
        (table, tokens)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Everything of a table a client can see or that a later move depends on: every
/// viewer's state, the chat, the seats, the version. Equal before and after a refused
/// input.
pub async fn fingerprint(state: &AppState, table: &Table) -> String {
    let mut out = Vec::new();
    let seats = table.seats();
    for viewer in crate::check::viewers(seats.len()) {
        let text = table.state_json(viewer, None).await.unwrap_or_default();
        out.push(serde_json::from_str(&text).unwrap_or_default());
    }
    out.push(serde_json::to_value(table.chat_lines(0)).unwrap_or_default());
    out.push(serde_json::to_value(&*seats).unwrap_or_default());
    out.push(json!({
        "version": table.version().await,
        "rematch": table.rematch(),
        "live_tables": state.hub.live_tables(),
    }));
    Value::Array(out).to_string()
}

/// Whether to print each input's request and answer (`TABLETOP_FUZZ_TRACE=1`), to see
/// what an input does when replayed.
fn trace() -> bool {
    std::env::var_os("TABLETOP_FUZZ_TRACE").is_some()
}

/// An error answer is one of the documented codes, with words.
#[track_caller]
fn documented(code: &str, message: &str, what: &dyn std::fmt::Display) {
    assert!(
        CODES.contains(&code),
        "{what}: answered `{code}` ({message}), which no input may cause"
    );
    assert!(!message.trim().is_empty(), "{what}: `{code}` in no words");
}

/// The socket-message decoder: what it takes is exactly the documented messages
/// (`{"type": "action", "action": A, "version": V}` and `{"type": "sync"}`), each field
/// what the text says; whatever it refuses is `400 request/malformed`.
pub fn check_message(text: &str) -> Option<ClientMessage> {
    let parsed = ClientMessage::parse(text);
    let value: Option<Value> = serde_json::from_str(text).ok();
    match &parsed {
        Err(e) => {
            assert_eq!(e.code, "request/malformed", "{text:?}: {e:?}");
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{text:?}: {e:?}");
        }
        Ok(message) => {
            let object = (value.as_ref())
                .and_then(Value::as_object)
                .unwrap_or_else(|| panic!("{text:?} is taken but is not a JSON object"));
            let canonical = written(message);
            // A field given as `null` counts as left out (serde reads both as `None`).
            let given: serde_json::Map<String, Value> = (object.iter())
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            assert_eq!(
                &Value::Object(given),
                &canonical,
                "{text:?} is read as {message:?}"
            );
        }
    }
    // A message written out as the documentation gives it reads back as itself.
    if let Some(Value::Object(object)) = &value {
        let wanted = match (
            object.get("type"),
            object.get("action"),
            object.get("actions"),
            object.get("version"),
        ) {
            (Some(Value::String(t)), Some(Value::String(a)), None, Some(v)) if t == "action" => {
                v.as_u64().map(|version| ClientMessage::Action {
                    action: a.clone(),
                    version,
                })
            }
            (Some(Value::String(t)), None, Some(Value::Array(list)), Some(v)) if t == "action" => {
                let actions: Option<Vec<String>> = list
                    .iter()
                    .map(|a| a.as_str().map(str::to_string))
                    .collect();
                actions
                    .zip(v.as_u64())
                    .map(|(actions, version)| ClientMessage::Actions { actions, version })
            }
            (Some(Value::String(t)), None, None, None) if t == "sync" => Some(ClientMessage::Sync),
            _ => None,
        };
        if let Some(wanted) = wanted {
            let written = written(&wanted);
            assert_eq!(
                ClientMessage::parse(&written.to_string()).ok(),
                Some(wanted),
                "{written} does not read back"
            );
        }
    }
    parsed.ok()
}

/// One text decoder (`what`: what it reads, in the messages, and its tag in a refusal's):
/// what it takes is 1 to `max` characters with no control character, and taken again
/// it is itself; what it refuses, it refuses with a documented code.
fn clean_text(
    text: &str,
    decode: fn(&str) -> Result<String, server::domain::TableError>,
    max: usize,
    (what, tag): (&str, &str),
) {
    match decode(text) {
        Ok(got) => {
            let chars = got.chars().count();
            assert!(
                (1..=max).contains(&chars),
                "{text:?} is taken as the {what} {got:?} of {chars} characters"
            );
            assert!(
                !got.chars()
                    .any(|c| c.is_control() || is_bidi_or_separator(c)),
                "{text:?} is taken as the {what} {got:?}, with a control character"
            );
            assert_eq!(
                decode(&got).ok().as_ref(),
                Some(&got),
                "the {what} {got:?} (from {text:?}) is not taken as itself"
            );
        }
        Err(e) => {
            let e = server::ApiError::from(e);
            documented(e.code, &e.message, &format!("{tag} {text:?}"))
        }
    }
}

/// The text decoders of the create and join bodies and the chat: names, chat lines,
/// seats and table rules. What they take is what they promise, and taking it again gives
/// the same.
pub fn decoders(data: &[u8]) {
    let [which, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    match which % 5 {
        0 => {
            if let Ok(text) = std::str::from_utf8(rest) {
                let _ = check_message(text);
            }
        }
        1 => clean_text(
            &text,
            server::domain::display_name,
            server::domain::MAX_NAME_CHARS,
            ("name", "name"),
        ),
        2 => clean_text(
            &text,
            server::domain::chat_text,
            server::domain::MAX_CHAT_CHARS,
            ("line", "chat"),
        ),
        3 => {
            let Ok(value) = serde_json::from_slice::<Value>(rest) else {
                return;
            };
            match server::domain::parse_seat(&value) {
                Ok(server::domain::SeatSpec { player, name, .. }) => {
                    assert!(
                        value
                            .as_str()
                            .map_or(value["player"] == json!(player), |p| p == player),
                        "seat {value} is read as the player {player:?}"
                    );
                    if let Some(name) = name {
                        assert_eq!(
                            server::domain::display_name(&name).ok().as_ref(),
                            Some(&name),
                            "seat {value}: the name {name:?} is not taken as itself"
                        );
                    }
                }
                Err(e) => {
                    let e = server::ApiError::from(e);
                    documented(e.code, &e.message, &format!("seat {value}"))
                }
            }
        }
        _ => {
            let Ok(rules) = serde_json::from_slice::<server::domain::TableRules>(rest) else {
                return;
            };
            let written = serde_json::to_value(&rules).unwrap_or_default();
            let back: Result<server::domain::TableRules, _> =
                serde_json::from_value(written.clone());
            assert_eq!(
                back.ok().as_ref(),
                Some(&rules),
                "table rules {written} read back otherwise"
            );
            for seats in 2..=6 {
                if let Err(e) = rules.check(seats) {
                    let e = server::ApiError::from(e);
                    assert_eq!(e.code, "table/invalid", "{rules:?}: {e:?}");
                    documented(e.code, &e.message, &format!("{rules:?}"));
                }
            }
        }
    }
}

/// A move refused by the hub (`what`: the move, in words): with a documented code, and
/// the table as it was (`before`: its fingerprint then).
async fn refused_unchanged(
    e: server::domain::TableError,
    what: &str,
    before: &str,
    state: &AppState,
    table: &Table,
) {
    let e = server::ApiError::from(e);
    documented(e.code, &e.message, &what);
    assert_eq!(
        before,
        fingerprint(state, table).await,
        "the refused {what} ({}) changed the table",
        e.code
    );
}

fn is_bidi_or_separator(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// The socket target. Input: a game, a count of moves played first, a seat, then one
/// text frame. The frame is decoded ([`check_message`]); a decoded action is played for
/// the seat as the socket plays it ([`server::Hub::play`]). Refused, it leaves the table
/// as it was and answers a documented code; taken, the table is one version on and the
/// move stored is the action in its own notation. A `sync` answers the viewer's `state`
/// message: JSON, the same as the viewer's state over HTTP, and nothing changes.
pub fn socket(data: &[u8]) {
    let [game, moves, seat, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Some(message) = check_message(text) else {
        return;
    };
    let fixture = Fixture::new();
    fixture.run(async {
        let state = &fixture.state;
        let hub = &state.hub;
        let (table, _) = fixture.table(*game, false, *moves).await;
        let seat = usize::from(*seat % 2);
        let before = fingerprint(state, &table).await;
        let version = table.version().await;
        match message {
            ClientMessage::Sync => {
                let (_, text) = table.state_message(Viewer::Seat(seat), None).await;
                let pushed: Value = serde_json::from_slice(&text).unwrap_or_else(|e| {
                    panic!(
                        "a state message is not JSON: {e}: {}",
                        String::from_utf8_lossy(&text)
                    )
                });
                assert_eq!(pushed["type"], "state", "{pushed}");
                let answered = table.state_json(Viewer::Seat(seat), None).await;
                let mut answered: Value = answered
                    .ok()
                    .and_then(|text| serde_json::from_str(&text).ok())
                    .unwrap_or_default();
                answered["type"] = json!("state");
                assert_eq!(pushed, answered, "the state message is not the HTTP answer");
                assert_eq!(
                    before,
                    fingerprint(state, &table).await,
                    "a sync changed the table"
                );
            }
            ClientMessage::Action {
                action,
                version: sent,
            } => match traced(match hub.parse_move(&table, &action, sent).await {
                Ok(mv) => hub.play(&table, seat, &mv, sent, By::Player).await,
                Err(e) => Err(e),
            }) {
                Err(e) => refused_unchanged(e, &format!("action {action:?}"), &before, state, &table).await,
                Ok(played) => {
                    assert_eq!(played.version, version + 1, "{action:?}");
                    assert_eq!(sent, version, "{action:?} was taken on another version");
                    let stored = fixture.stored_actions(&table.row.id);
                    let last = stored.last().map(|a| a.action.clone()).unwrap_or_default();
                    let (_, _, position) = table.progress().await;
                    let canonical = notation(&*position, &action);
                    assert_eq!(
                        Some(last.clone()),
                        canonical,
                        "{action:?} is stored as {last:?}"
                    );
                }
            },
            ClientMessage::Actions {
                actions,
                version: sent,
            } => match traced(hub.play_sequence(&table, seat, &actions, sent).await) {
                Err(e) => {
                    let what = format!("actions {actions:?}");
                    refused_unchanged(e, &what, &before, state, &table).await
                }
                Ok(played) => {
                    let n = actions.len() as u64;
                    assert_eq!(played.version, version + n, "{actions:?}");
                    assert_eq!(sent, version, "{actions:?} were taken on another version");
                    let stored = fixture.stored_actions(&table.row.id);
                    assert!(stored.len() as u64 >= n, "{actions:?} are not all stored");
                }
            },
        }
    });
}

/// A client message as the documentation writes it.
fn written(message: &ClientMessage) -> Value {
    match message {
        ClientMessage::Action { action, version } => {
            json!({"type": "action", "action": action, "version": version})
        }
        ClientMessage::Actions { actions, version } => {
            json!({"type": "action", "actions": actions, "version": version})
        }
        ClientMessage::Sync => json!({"type": "sync"}),
    }
}

/// `played`, printed when tracing.
fn traced<T: std::fmt::Debug>(played: T) -> T {
    if trace() {
        eprintln!("played: {played:?}");
    }
    played
}

/// The notation an accepted action is stored in: a table move as `TableMove` writes it,
/// a game action as its game writes it.
fn notation(position: &dyn engine::DynState, action: &str) -> Option<String> {
    let action = action.trim();
    if engine::is_table_move(action) {
        action
            .parse::<engine::TableMove>()
            .ok()
            .map(|m| m.to_string())
    } else {
        position.parse_action(action).ok().map(|a| a.to_string())
    }
}

impl Fixture {
    fn stored_actions(&self, id: &str) -> Vec<ActionRow> {
        self.store
            .with(|games| games.get(id).map(|g| g.actions.clone()).unwrap_or_default())
    }
}

/// The routes the HTTP target sends its input to: a body (`POST`) or a query string
/// (`GET`).
const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/tables"),
    ("POST", "/api/tables/{id}/actions"),
    ("POST", "/api/tables/{id}/undo"),
    ("POST", "/api/tables/{id}/resign"),
    ("POST", "/api/tables/{id}/back"),
    ("POST", "/api/tables/{id}/seats/1/join"),
    ("POST", "/api/tables/{id}/chat"),
    ("POST", "/api/tables/{id}/rematch"),
    ("GET", "/api/tables"),
    ("GET", "/api/tables/{id}/view"),
    ("GET", "/api/tables/{id}/log"),
    ("GET", "/api/tables/{id}/chat"),
    ("GET", "/api/tables/{id}/spectate"),
    ("GET", "/api/tables/{id}/legal"),
];

/// The HTTP target. Input: a route, a game, flags (whose token: the seat to act's, the
/// other's, none; moves played first), then the body of a `POST` or the query string of
/// a `GET`, sent through the router to a live table in memory.
///
/// No input is answered `500` (or anything else undocumented); every answer is JSON, an
/// error `{"code", "message"}` with a documented code. A refused call leaves the table as
/// it was (every viewer's state, the chat, the seats), and so does every `GET`; a
/// refused create leaves no table. An accepted move is one version on; an accepted join
/// seats the player; an accepted chat line is kept; an accepted create makes a table
/// that answers its summary.
pub fn http(data: &[u8]) {
    let [route, game, flags, rest @ ..] = data else {
        return;
    };
    let (method, path) = ROUTES[usize::from(*route) % ROUTES.len()];
    let fixture = Fixture::new();
    fixture.run(async {
        let state = &fixture.state;
        let join = path.ends_with("/join");
        let (table, tokens) = fixture.table(*game, join, *flags >> 3).await;
        let to_act = table.glance().await.to_act.unwrap_or(0);
        let token = match flags % 3 {
            0 => tokens.get(to_act).cloned().flatten(),
            1 => tokens.get(1 - to_act.min(1)).cloned().flatten(),
            _ => None,
        };
        let mut uri = path.replace("{id}", &table.row.id);
        let body = if method == "GET" {
            let Ok(query) = std::str::from_utf8(rest) else {
                return;
            };
            uri.push('?');
            uri.push_str(query);
            Body::empty()
        } else {
            Body::from(rest.to_vec())
        };
        let mut request = Request::builder().method(method).uri(&uri);
        if let Some(token) = &token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let Ok(request) = request
            .header("content-type", "application/json")
            .body(body)
        else {
            // Not a URI: no request a client could send.
            return;
        };
        let before = fingerprint(state, &table).await;
        let version = table.version().await;
        let stored = fixture.store.len();
        let chat = table.chat_lines(0).len();
        let what = format!("{method} {uri} {:?}", String::from_utf8_lossy(rest));
        let response = server::app(state.clone())
            .oneshot(request)
            .await
            .unwrap_or_else(|e| match e {});
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let answer: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "{what}: {status}, not JSON: {}",
                String::from_utf8_lossy(&bytes)
            )
        });
        if trace() {
            eprintln!("{what} -> {status} {answer}");
        }
        assert!(!status.is_server_error(), "{what}: {status} {answer}");
        if !status.is_success() {
            let code = answer["code"].as_str().unwrap_or_default();
            let message = answer["message"].as_str().unwrap_or_default();
            documented(code, message, &what);
        }
        let after = fingerprint(state, &table).await;
        if method == "GET" || !status.is_success() {
            assert_eq!(
                before, after,
                "{what}: answered {status} {answer}, but the table changed"
            );
            if path == "/api/tables" {
                assert_eq!(
                    stored,
                    fixture.store.len(),
                    "{what}: {status}, but a table was stored"
                );
            }
            return;
        }
        match path.rsplit('/').next().unwrap_or_default() {
            "actions" | "undo" | "resign" => {
                assert_eq!(answer["version"], json!(version + 1), "{what}: {answer}");
                assert_eq!(table.version().await, version + 1, "{what}");
            }
            "join" => {
                assert_eq!(status, StatusCode::CREATED, "{what}");
                assert!(
                    table.open_seats().is_empty(),
                    "{what}: the seat is still open"
                );
                assert_eq!(
                    answer["name"].as_str(),
                    table.display_names().get(1).map(String::as_str),
                    "{what}"
                );
            }
            "chat" => {
                assert_eq!(table.chat_lines(0).len(), chat + 1, "{what}: {answer}");
                assert_eq!(
                    table.chat_lines(0).last().map(|l| json!(l.text)),
                    Some(answer["text"].clone()),
                    "{what}"
                );
            }
            "tables" => {
                assert_eq!(status, StatusCode::CREATED, "{what}");
                assert_eq!(fixture.store.len(), stored + 1, "{what}: {answer}");
                let id = answer["id"].as_str().unwrap_or_default();
                let made = state.hub.table(id).await;
                let made = made.unwrap_or_else(|e| panic!("{what}: the new table {id}: {e:?}"));
                assert_eq!(answer["options"], made.row.config, "{what}");
            }
            "rematch" => assert!(table.rematch().is_some(), "{what}: {answer}"),
            // `back`
            _ => assert_eq!(before, after, "{what}: the table changed"),
        }
    });
}
