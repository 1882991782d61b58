//! The live tables of one server process: their states in memory, rebuilt from the store
//! by replay, moves committed to the store before they are acknowledged, bots, and pushes.

use crate::clock::{ClockView, Clocks, OnTimeout};
use crate::error::{truncate, ApiError};
use crate::limits::{rate_limited, Limits, RateLimiter};
use crate::store::{
    ActionRow, ChatKind, ChatRow, GameRow, Notice, Player, SeatRow, Series, Status, Store,
    StoreError,
};
use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use engine::{
    is_table_move, DynState, GameRecord, LogEntry, Names, Outcome, Seat, Session, TableMove, Viewer,
};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex};
use unicode_normalization::UnicodeNormalization;

/// How long a bot waits after its first failure (doubling after each next one).
const BOT_RETRY_FIRST: Duration = Duration::from_millis(50);
/// The longest a bot waits between two tries.
const BOT_RETRY_MAX: Duration = Duration::from_secs(2);

/// The longest action text accepted.
pub const MAX_ACTION_LEN: usize = 200;

/// The longest display name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The seats of `seats` nobody has taken yet.
pub fn open_seats(seats: &[SeatRow]) -> Vec<Seat> {
    (seats.iter().enumerate())
        .filter(|(_, s)| s.player == Player::Open)
        .map(|(seat, _)| seat)
        .collect()
}

/// The longest chat line accepted, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// How many chat lines of a table are kept in memory (and served by `GET …/chat`).
pub const CHAT_KEPT: usize = 200;

/// Bidirectional embedding, override and isolate controls (U+202A-U+202E,
/// U+2066-U+2069): they reorder the text around them, so that a name could show as
/// another ("Ada\u{202e}gnp.exe" reads "Adaexe.png") or turn a whole log line round. The
/// plain marks (LRM, RLM) stay allowed.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The line and paragraph separators (U+2028, U+2029): a line break by another name.
fn is_line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Characters that show nothing by themselves: spaces, zero-width characters and joiners,
/// direction marks and controls, variation selectors, fillers and the blank braille cell.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
        )
}

/// Why `text` (a name or a chat line, already trimmed) cannot be shown as one line that
/// reads as written, if it cannot: it shows nothing, holds a control character or a line
/// separator, or a bidirectional control.
fn unshowable(text: &str, what: &str) -> Option<String> {
    if text.chars().all(is_invisible) {
        return Some(format!("{what} needs at least one visible character"));
    }
    if text.chars().any(|c| c.is_control() || is_line_separator(c)) {
        return Some(format!(
            "{what} is one line of text: no line breaks, line or paragraph separators or control characters"
        ));
    }
    if text.chars().any(is_bidi_control) {
        return Some(format!(
            "{what} may not hold a bidirectional embedding, override or isolate control (U+202A to U+202E, U+2066 to U+2069): it would reorder the text around it"
        ));
    }
    None
}

/// Checks a display name given for a seat: trimmed, 1 to [`MAX_NAME_CHARS`] characters,
/// at least one visible, no control characters, line separators or bidirectional
/// controls. The name is stored as given otherwise; every page shows it as text
/// (escaped), never as markup.
///
/// # Errors
/// `seat/name` with the reason.
pub fn display_name(given: &str) -> Result<String, ApiError> {
    let bad = |why: String| ApiError::new(StatusCode::BAD_REQUEST, "seat/name", why);
    // One spelling of each name: "é" typed as one character or as "e" and an accent. The
    // name is checked as it is stored: NFC may make it longer (U+0F73 is two characters
    // in NFC), so a name measured before would be stored past the limit.
    let name: String = given.trim().nfc().collect();
    if name.is_empty() {
        return Err(bad("a name needs at least one visible character".into()));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(bad(format!(
            "a name has at most {MAX_NAME_CHARS} characters; this one has {chars}"
        )));
    }
    if let Some(why) = unshowable(&name, "a name") {
        return Err(bad(why));
    }
    Ok(name)
}

/// A name or chat line as stored, made fit to show: without the bidirectional controls
/// that [`display_name`] and [`chat_text`] refuse now but that a table stored before
/// those checks may hold ("Ada\u{202e}gnp.exe" would read "Adaexe.png"). Every name and
/// chat line the server serves (the API, the socket's pushes, the log's texts, the
/// pages) passes through here, so none is shown reordered; the stored row is left as it
/// is. `None` when nothing visible is left (the caller falls back to "Seat N").
pub fn stored_text(stored: &str) -> Option<String> {
    let text: String = stored.chars().filter(|&c| !is_bidi_control(c)).collect();
    (!text.chars().all(is_invisible)).then_some(text)
}

/// The confusable skeleton of a name (Unicode's UTS #39): two names with the same one
/// look alike ("Ada" and "Аda" with a Cyrillic А).
fn skeleton(name: &str) -> String {
    unicode_security::confusable_detection::skeleton(name.trim()).collect()
}

/// Checks that the name given to each of `seats` cannot be taken for another seat's
/// display name among `rows` (a seat with no given name shows as "Seat N").
///
/// # Errors
/// `seat/name_confusable`, naming the seat it looks like.
pub fn check_confusable(
    rows: &[SeatRow],
    seats: impl IntoIterator<Item = Seat>,
) -> Result<(), ApiError> {
    let names = crate::store::display_names(rows);
    let skeletons: Vec<String> = names.iter().map(|n| skeleton(n)).collect();
    for seat in seats {
        if rows.get(seat).is_none_or(|row| row.name.is_none()) {
            continue;
        }
        let alike = (skeletons.iter().enumerate())
            .find(|(other, s)| *other != seat && **s == skeletons[seat]);
        if let Some((other, _)) = alike {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "seat/name_confusable",
                format!(
                    "the name `{}` of seat {} looks like the name of seat {} (the same letters to the eye, as Unicode's confusables have it); choose another",
                    truncate(&names[seat], MAX_NAME_CHARS),
                    seat + 1,
                    other + 1
                ),
            ));
        }
    }
    Ok(())
}

/// One seat as a table's creator gives it: `"human"`, a bot spec such as `"medium"`, or
/// an object `{"player": "human", "name": "Ada"}` (the name is optional).
///
/// # Errors
/// `seat/invalid` for any other shape, `seat/name` for a bad name.
pub fn parse_seat(given: &serde_json::Value) -> Result<(String, Option<String>), ApiError> {
    let invalid = |why: String| ApiError::new(StatusCode::BAD_REQUEST, "seat/invalid", why);
    match given {
        serde_json::Value::String(player) => Ok((player.clone(), None)),
        serde_json::Value::Object(map) => {
            if let Some(key) = map.keys().find(|k| *k != "player" && *k != "name") {
                return Err(invalid(format!(
                    "unknown seat field `{}`: expected `player` and `name`",
                    truncate(key, 40)
                )));
            }
            let player = match map.get("player") {
                Some(serde_json::Value::String(p)) => p.clone(),
                _ => return Err(invalid("a seat object needs a `player` string".into())),
            };
            let name = match map.get("name") {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::String(n)) => Some(display_name(n)?),
                Some(_) => return Err(invalid("a seat's `name` must be a string".into())),
            };
            Ok((player, name))
        }
        _ => Err(invalid(
            "a seat is a string (`human` or a bot) or {\"player\": …, \"name\": …}".into(),
        )),
    }
}

/// Checks a chat line: trimmed, 1 to [`MAX_CHAT_CHARS`] characters, at least one
/// visible, no control characters, line separators or bidirectional controls (one line
/// that reads as written). Stored as written; every page shows it as text.
///
/// # Errors
/// `chat/invalid` with the reason.
pub fn chat_text(given: &str) -> Result<String, ApiError> {
    let bad = |why: String| ApiError::new(StatusCode::BAD_REQUEST, "chat/invalid", why);
    let text = given.trim();
    if text.is_empty() {
        return Err(bad(
            "a chat line needs at least one visible character".into()
        ));
    }
    let chars = text.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(bad(format!(
            "a chat line has at most {MAX_CHAT_CHARS} characters; this one has {chars}"
        )));
    }
    if let Some(why) = unshowable(text, "a chat line") {
        return Err(bad(why));
    }
    Ok(text.to_string())
}

/// The token of the seat that `old_hash` (the SHA-256 of a seat's token at the table
/// before) gets at its rematch, whose bot secret is `secret`: only this server can work
/// it out, and the player gets it by asking for the rematch with the old token.
fn rematch_token(secret: &str, old_hash: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"tabletop rematch token\0");
    hasher.update(secret.as_bytes());
    hasher.update(b"\0");
    hasher.update(old_hash.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a viewer sees of a table at one version (the HTTP view and every push).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    pub table: String,
    pub game: String,
    /// The number of actions played so far.
    pub version: u64,
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    pub to_act: Option<Seat>,
    pub status: Status,
    /// The viewer's legal actions: empty unless the viewer's seat is to act.
    pub legal: Vec<String>,
    /// The same actions as the game describes them: each with its label in words and
    /// where it goes on the board ([`engine::Game::describe`]).
    pub moves: Vec<engine::LegalMove>,
    /// `view_json` of the game for this viewer.
    pub view: serde_json::Value,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
    /// Each seat's display name, in seat order ("Seat N" where none was given).
    pub names: Vec<String>,
    /// The seats nobody has taken yet: the game starts once there are none.
    pub open_seats: Vec<Seat>,
    /// The id of this finished table's rematch, once a player asked for one.
    pub rematch: Option<String>,
    /// The series this table continues (set on a rematch).
    pub series: Option<Series>,
    /// The clocks, at a table that has one.
    pub clock: Option<ClockView>,
    /// The seats a bot plays for until their players are back.
    pub away: Vec<Seat>,
    /// The seats that resigned, in the order they did.
    pub resigned: Vec<Seat>,
    /// Why the table is paused (no person has been at it for the away time: its bots
    /// wait), while it is.
    pub paused: Option<String>,
    /// Whether the viewer may take back its last move now (`POST …/undo`).
    pub can_undo: bool,
    /// What this viewer may know of every action since the version the client last
    /// received (the last action alone when it named none), oldest first.
    pub events: Vec<LogEntry>,
}

/// How many states before the latest actions a table keeps, to tell those moves without
/// replaying the game (bots move in bursts; a client that fell further behind gets its
/// events from a replay).
const RECENT: usize = 32;

/// One table in memory.
pub struct Table {
    /// The table as created (its seats as they were then: see [`Table::seats`]).
    pub row: GameRow,
    live: Mutex<Live>,
    changed: broadcast::Sender<u64>,
    /// Who sits where now (open seats get taken).
    seats: StdMutex<Seating>,
    /// The last [`CHAT_KEPT`] chat lines.
    chat: StdMutex<VecDeque<ChatRow>>,
    /// Every new chat line.
    chat_tx: broadcast::Sender<ChatRow>,
    /// The rematch's id, once named.
    rematch: StdMutex<Option<String>>,
    /// Paused: nobody has been at the table for the away time, so its bots wait (see
    /// [`Table::nobody_present`]). Read without the table's lock (the lobby lists it).
    paused: AtomicBool,
}

/// Who sits where, and the names the log gives them (worked out when the seats change,
/// not for every push).
struct Seating {
    rows: Arc<Vec<SeatRow>>,
    log_names: Arc<[String]>,
    /// The names shown by seat (see [`Table::display_names`]).
    display: Vec<String>,
}

impl Seating {
    fn new(rows: Vec<SeatRow>) -> Seating {
        let players: Vec<String> = rows.iter().map(|s| s.player.to_string()).collect();
        let display = crate::store::display_names(&rows);
        // A given name wins; otherwise "seat N" or "seat N (bot)". The same function names
        // the seats of this table's published record in `tabletop log`.
        let log_names = engine::log::table_names(&players, &display);
        Seating {
            rows: Arc::new(rows),
            log_names,
            display,
        }
    }
}

struct Live {
    /// The game with the table's moves (undo, resign).
    session: Session,
    actions: Vec<String>,
    bot_running: bool,
    /// Expired: takes no more moves.
    abandoned: bool,
    /// When the last move was made (or the table created), in ms since the Unix epoch.
    moved: i64,
    /// The states before the latest actions, oldest first: `recent[k]` is the state at
    /// version `version() - recent.len() + k`.
    recent: VecDeque<Box<dyn DynState>>,
    /// The socket `state` messages written at version `pushes_version`, by viewer and the
    /// version their events start from: sockets of one viewer share one serialization.
    pushes: Vec<(Viewer, u64, Utf8Bytes)>,
    pushes_version: u64,
    /// How many times something besides the moves changed (a seat taken, a rematch).
    touches: u64,
    /// The clocks, at a table that has one.
    clocks: Option<Clocks>,
    /// By seat: a bot plays for it until its player is back.
    away: Vec<bool>,
    /// By seat: when its player was last heard of (ms), and its open sockets.
    seen: Vec<i64>,
    sockets: Vec<u32>,
    /// Spectators: their open sockets, and when one was last heard of (ms).
    watchers: u32,
    watched: i64,
    /// By seat: what its bot remembers of its turn (a bot is made for each decision;
    /// this keeps it from going round in circles, see `bots::Guarded`). Not stored: a
    /// restarted server starts the turn's memory afresh.
    bot_memory: Vec<bots::TurnMemory>,
}

impl Live {
    /// Records that `action`, by `seat` at `at`, took `before` to the current state.
    fn advanced(&mut self, before: Box<dyn DynState>, action: String, seat: Seat, at: i64) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(before);
        // Taking back or resigning starts no new turn on the clock.
        if let (Some(clocks), false) = (&mut self.clocks, is_table_move(&action)) {
            clocks.moved(seat, at);
        }
        self.actions.push(action);
        self.moved = at;
    }

    /// Whether the actions from `since` on are told from a replay of the record: some
    /// are further back than the states kept, or one is a table move (they are rare; a
    /// replay knows who undid).
    fn told_by_replay(&self, since: u64) -> bool {
        let version = self.version();
        since + (self.recent.len() as u64) < version
            || (since..version).any(|i| is_table_move(&self.actions[i as usize]))
    }

    /// Action `index` (one of the last `recent.len()`): the state before it, the action
    /// and the state after.
    fn step(&self, index: u64) -> (&dyn DynState, &str, &dyn DynState) {
        let at = (index + self.recent.len() as u64 - self.version()) as usize;
        let after: &dyn DynState = match self.recent.get(at + 1) {
            Some(next) => next.as_ref(),
            None => self.session.state(),
        };
        (
            self.recent[at].as_ref(),
            &self.actions[index as usize],
            after,
        )
    }

    fn can_undo(&self, viewer: Viewer) -> bool {
        viewer.seat().is_some() && self.session.undoer() == viewer.seat()
    }

    fn away_seats(&self) -> Vec<Seat> {
        (0..self.away.len()).filter(|&s| self.away[s]).collect()
    }

    /// Whether `viewer` is the seat to act, still playing: the one viewer given the legal
    /// moves.
    fn acting(&self, viewer: Viewer) -> bool {
        let to_act = self.session.to_act();
        matches!(viewer.seat(), Some(seat) if to_act == Some(seat) && !self.session.is_resigned(seat))
    }

    fn version(&self) -> u64 {
        self.actions.len() as u64
    }
    fn status(&self) -> Status {
        if self.abandoned {
            Status::Abandoned
        } else if self.session.outcome().is_some() {
            Status::Finished
        } else if self.actions.is_empty() {
            Status::Open
        } else {
            Status::Running
        }
    }
}

/// SHA-256 of a token, in hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `n` random bytes from the operating system's secure random source, in hex.
///
/// # Errors
/// The operating system cannot give random bytes (an internal error).
pub fn random_hex(n: usize) -> Result<String, ApiError> {
    let mut bytes = vec![0u8; n];
    secure_fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// Fills `bytes` from the operating system's secure random source.
fn secure_fill(bytes: &mut [u8]) -> Result<(), ApiError> {
    use rand::TryRngCore;
    rand::rngs::OsRng
        .try_fill_bytes(bytes)
        .map_err(|e| ApiError::internal(format!("the OS random source failed: {e}")))
}

/// A new table's id: 16 hex digits, the first 8 the creation time in seconds and the
/// last 8 from the operating system's secure random source. Ids are public (the lobby
/// lists them) and need not be unguessable; ordered by time, the live tables' rows sit
/// together at the end of every index keyed by the id, so that a commit of many moves
/// writes a few index pages instead of one a move (the SQLite WAL frames and
/// PostgreSQL's full-page writes that cost most of a commit).
///
/// # Errors
/// The operating system cannot give random bytes (an internal error).
pub fn table_id(created_ms: i64) -> Result<String, ApiError> {
    let seconds = u32::try_from(created_ms.div_euclid(1000)).unwrap_or(u32::MAX);
    Ok(format!("{seconds:08x}{}", random_hex(4)?))
}

/// A table seed from the operating system's secure random source.
fn secure_seed() -> Result<u64, ApiError> {
    let mut bytes = [0u8; 8];
    secure_fill(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

/// The seed of the bot deciding for `seat` at `version` of a table: from the table's
/// secret, so no client can predict it, and the same after a restart and on every server.
/// Tables stored before secrets existed keep seeding from their (published) table seed.
pub fn bot_seed(row: &GameRow, seat: Seat, version: u64) -> u64 {
    if row.bot_secret.is_empty() {
        return engine::derive_seed(engine::derive_seed(row.seed, seat as u64), version);
    }
    let mut hasher = Sha256::new();
    hasher.update(b"tabletop bot seed\0");
    hasher.update(row.bot_secret.as_bytes());
    hasher.update((seat as u64).to_le_bytes());
    hasher.update(version.to_le_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

impl Table {
    /// Who sits where now.
    pub fn seats(&self) -> Arc<Vec<SeatRow>> {
        self.seating(|s| s.rows.clone())
    }

    /// `read` of the seating now.
    fn seating<T>(&self, read: impl FnOnce(&Seating) -> T) -> T {
        match self.seats.lock() {
            Ok(s) => read(&s),
            Err(e) => read(&e.into_inner()),
        }
    }

    fn set_seats(&self, seats: Vec<SeatRow>) {
        let seats = Seating::new(seats);
        match self.seats.lock() {
            Ok(mut s) => *s = seats,
            Err(e) => *e.into_inner() = seats,
        }
    }

    /// The seats nobody has taken yet.
    pub fn open_seats(&self) -> Vec<Seat> {
        open_seats(&self.seats())
    }

    /// The rematch's id, once named.
    pub fn rematch(&self) -> Option<String> {
        self.rematch.lock().ok().and_then(|r| r.clone())
    }

    /// The away time: how long nobody may be at the table before it pauses (the table's
    /// `away_seconds`, or [`crate::clock::AWAY_DEFAULT`] where it turned the take-over of
    /// a player who left off), in ms.
    fn away_ms(&self) -> i64 {
        let seconds = match self.row.rules.away_seconds {
            0 => crate::clock::AWAY_DEFAULT,
            s => s,
        };
        i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX)
    }

    /// Whether no person has been at the table for the away time at `now`: no socket
    /// open on it (a seat's or a spectator's), no call with a seat's token and no
    /// spectator's call, while the game goes on with every seat taken.
    fn nobody_present(&self, live: &Live, now: i64) -> bool {
        let last = live.seen.iter().copied().fold(live.watched, i64::max);
        live.session.to_act().is_some()
            && !live.abandoned
            && self.open_seats().is_empty()
            && live.watchers == 0
            && live.sockets.iter().all(|&n| n == 0)
            && now - last >= self.away_ms()
    }

    /// Whether the table is paused (see [`Table::nobody_present`]).
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    /// Why the table is paused, in words, while it is.
    pub fn paused_reason(&self) -> Option<String> {
        self.is_paused().then(|| {
            let seconds = self.away_ms() / 1000;
            let away = if seconds % 60 == 0 {
                let minutes = seconds / 60;
                format!("{minutes} minute{}", if minutes == 1 { "" } else { "s" })
            } else {
                format!("{seconds} second{}", if seconds == 1 { "" } else { "s" })
            };
            format!(
                "paused: nobody has been at the table for {away}; the bots wait until a player comes back"
            )
        })
    }

    /// The chat lines kept, oldest first, from `since` on.
    pub fn chat_lines(&self, since: u64) -> Vec<ChatRow> {
        self.chat
            .lock()
            .map(|c| c.iter().filter(|l| l.seq >= since).cloned().collect())
            .unwrap_or_default()
    }

    /// A receiver told every new chat line.
    pub fn subscribe_chat(&self) -> broadcast::Receiver<ChatRow> {
        self.chat_tx.subscribe()
    }

    fn keep_chat(&self, line: ChatRow) -> bool {
        let Ok(mut chat) = self.chat.lock() else {
            return false;
        };
        if chat.back().is_some_and(|l| l.seq >= line.seq) {
            return false;
        }
        if chat.len() == CHAT_KEPT {
            chat.pop_front();
        }
        chat.push_back(line.clone());
        drop(chat);
        let _ = self.chat_tx.send(line);
        true
    }

    fn next_chat_seq(&self) -> u64 {
        self.chat
            .lock()
            .ok()
            .and_then(|c| c.back().map(|l| l.seq + 1))
            .unwrap_or(0)
    }

    /// Tells every client that something besides the moves changed (a seat taken, a
    /// rematch named): their `state` is written anew.
    async fn touched(&self) {
        let mut live = self.live.lock().await;
        live.pushes.clear();
        live.touches += 1;
        let version = live.version();
        drop(live);
        let _ = self.changed.send(version);
    }

    /// The seat whose token this is.
    ///
    /// # Errors
    /// `auth/bad_token` when no seat has it.
    pub fn authenticate(&self, token: &str) -> Result<Seat, ApiError> {
        let hash = token_hash(token);
        let mut found = None;
        // Compare with every seat, in constant time per comparison.
        for (seat, row) in self.seats().iter().enumerate() {
            if let Some(stored) = &row.token_sha256 {
                if constant_time_eq(stored.as_bytes(), hash.as_bytes()) {
                    found = Some(seat);
                }
            }
        }
        found.ok_or_else(ApiError::bad_token)
    }

    /// A receiver told (with the new version) after every change.
    pub fn subscribe(&self) -> broadcast::Receiver<u64> {
        self.changed.subscribe()
    }

    /// What `viewer` sees now, with the events of the last action.
    pub async fn snapshot(&self, viewer: Viewer) -> Snapshot {
        self.snapshot_since(viewer, None).await
    }

    /// What `viewer` sees now, with the events of every action after version `since`
    /// (the last action alone when `None`).
    pub async fn snapshot_since(&self, viewer: Viewer, since: Option<u64>) -> Snapshot {
        let live = self.live.lock().await;
        self.snapshot_of(&live, viewer, since)
    }

    /// How event texts name this table's seats for `viewer`.
    /// How the log names the seats for `viewer`: "you", a given display name, or "seat N"
    /// (with the bot's spec for a bot).
    fn log_names(&self, viewer: Viewer) -> Names {
        Names::for_viewer(viewer).with_shared_names(self.seating(|s| s.log_names.clone()))
    }

    /// The game so far as a record. Tables are written in their game's current format.
    pub(crate) fn record(&self, actions: &[String]) -> GameRecord {
        GameRecord {
            game: self.row.game.clone(),
            config: self.row.config.clone(),
            seed: self.row.seed,
            actions: actions.to_vec(),
            format: catalog::game(&self.row.game).map_or(1, |g| g.format()),
        }
    }

    /// `viewer`'s log from action `since` on (every action from 0 for the whole log).
    pub async fn log(&self, viewer: Viewer, since: u64) -> (u64, Vec<LogEntry>) {
        let live = self.live.lock().await;
        (live.version(), self.entries(&live, viewer, since))
    }

    fn entries(&self, live: &Live, viewer: Viewer, since: u64) -> Vec<LogEntry> {
        let version = live.version();
        let since = since.min(version);
        let names = self.log_names(viewer);
        if live.told_by_replay(since) {
            return catalog::game(&self.row.game)
                .ok()
                .and_then(|game| {
                    game.log(&self.record(&live.actions), viewer, &names, since as usize)
                        .ok()
                })
                .unwrap_or_default();
        }
        (since..version)
            .map(|index| {
                let (before, action, after) = live.step(index);
                LogEntry {
                    index: index as usize,
                    seat: before.to_act().unwrap_or_default(),
                    events: before
                        .events(action, after, viewer, &names)
                        .unwrap_or_default(),
                }
            })
            .collect()
    }

    /// The socket's `state` message for `viewer` now, with the events of every action
    /// after version `since` (the last action alone when `None`), and its version: the [`Snapshot`] with `"type": "state"`
    /// first, serialized once per viewer, `since` and version straight from the game's
    /// view (no `Value` tree).
    pub async fn state_message(
        &self,
        viewer: Viewer,
        since: Option<u64>,
    ) -> ((u64, u64), Utf8Bytes) {
        let mut live = self.live.lock().await;
        let version = live.version();
        let stamp = (version, live.touches);
        let since = since.unwrap_or_else(|| version.saturating_sub(1));
        if live.pushes_version != version {
            live.pushes.clear();
            live.pushes_version = version;
        }
        if let Some((_, _, text)) =
            (live.pushes.iter()).find(|(v, s, _)| *v == viewer && *s == since)
        {
            return (stamp, text.clone());
        }
        let mut out = Vec::with_capacity(2048);
        let text = match self.write_state(&live, viewer, since, &mut out) {
            Ok(()) => String::from_utf8(out).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let text = Utf8Bytes::from(text.unwrap_or_else(|e| {
            tracing::error!("table {}: a view does not serialize: {e}", self.row.id);
            r#"{"type":"error","code":"internal","message":"the view does not serialize"}"#
                .to_string()
        }));
        live.pushes.push((viewer, since, text.clone()));
        (stamp, text)
    }

    /// Writes `{"type":"state", ...}` with the fields of [`Snapshot`], in its order.
    fn write_state(
        &self,
        live: &Live,
        viewer: Viewer,
        since: u64,
        out: &mut Vec<u8>,
    ) -> serde_json::Result<()> {
        let to_act = live.session.to_act();
        out.extend_from_slice(br#"{"type":"state","table":"#);
        serde_json::to_writer(&mut *out, &self.row.id)?;
        out.extend_from_slice(br#","game":"#);
        serde_json::to_writer(&mut *out, &self.row.game)?;
        out.extend_from_slice(br#","version":"#);
        serde_json::to_writer(&mut *out, &live.version())?;
        out.extend_from_slice(br#","seat":"#);
        serde_json::to_writer(&mut *out, &viewer.seat())?;
        out.extend_from_slice(br#","to_act":"#);
        serde_json::to_writer(&mut *out, &to_act)?;
        out.extend_from_slice(br#","status":"#);
        serde_json::to_writer(&mut *out, &live.status())?;
        out.extend_from_slice(br#","legal":"#);
        if live.acting(viewer) {
            live.session.state().write_legal_json(out)?;
            out.extend_from_slice(br#","moves":"#);
            live.session.state().write_moves_json(out)?;
        } else {
            out.extend_from_slice(br#"[],"moves":[]"#);
        }
        out.extend_from_slice(br#","view":"#);
        live.session.state().write_view_json(viewer, out)?;
        out.extend_from_slice(br#","outcome":"#);
        serde_json::to_writer(&mut *out, &live.session.outcome())?;
        out.extend_from_slice(br#","names":"#);
        self.seating(|s| serde_json::to_writer(&mut *out, &s.display))?;
        out.extend_from_slice(br#","open_seats":"#);
        serde_json::to_writer(&mut *out, &self.open_seats())?;
        out.extend_from_slice(br#","rematch":"#);
        serde_json::to_writer(&mut *out, &self.rematch())?;
        out.extend_from_slice(br#","series":"#);
        serde_json::to_writer(&mut *out, &self.row.series)?;
        out.extend_from_slice(br#","clock":"#);
        serde_json::to_writer(&mut *out, &live.clocks.as_ref().map(|c| c.view(to_act)))?;
        out.extend_from_slice(br#","away":"#);
        serde_json::to_writer(&mut *out, &live.away_seats())?;
        out.extend_from_slice(br#","resigned":"#);
        serde_json::to_writer(&mut *out, &live.session.resigned())?;
        out.extend_from_slice(br#","paused":"#);
        serde_json::to_writer(&mut *out, &self.paused_reason())?;
        out.extend_from_slice(br#","can_undo":"#);
        serde_json::to_writer(&mut *out, &live.can_undo(viewer))?;
        out.extend_from_slice(br#","events":"#);
        self.write_entries(live, viewer, since, out)?;
        out.push(b'}');
        Ok(())
    }

    /// [`Table::entries`] written straight to JSON text: the moves still in `recent`
    /// without building their events as `Value` trees, others as `entries` has them.
    fn write_entries(
        &self,
        live: &Live,
        viewer: Viewer,
        since: u64,
        out: &mut Vec<u8>,
    ) -> serde_json::Result<()> {
        let version = live.version();
        let since = since.min(version);
        if live.told_by_replay(since) {
            return serde_json::to_writer(&mut *out, &self.entries(live, viewer, since));
        }
        let names = self.log_names(viewer);
        out.push(b'[');
        for index in since..version {
            let (before, action, after) = live.step(index);
            if index > since {
                out.push(b',');
            }
            out.extend_from_slice(br#"{"index":"#);
            serde_json::to_writer(&mut *out, &index)?;
            out.extend_from_slice(br#","seat":"#);
            serde_json::to_writer(&mut *out, &before.to_act().unwrap_or_default())?;
            out.extend_from_slice(br#","events":"#);
            if !before.write_events_json(action, after, viewer, &names, out)? {
                out.extend_from_slice(b"[]");
            }
            out.push(b'}');
        }
        out.push(b']');
        Ok(())
    }

    fn snapshot_of(&self, live: &Live, viewer: Viewer, since: Option<u64>) -> Snapshot {
        let to_act = live.session.to_act();
        let (legal, moves) = if live.acting(viewer) {
            let state = live.session.state();
            (state.legal(), state.moves())
        } else {
            (Vec::new(), Vec::new())
        };
        Snapshot {
            table: self.row.id.clone(),
            game: self.row.game.clone(),
            version: live.version(),
            seat: viewer.seat(),
            to_act,
            status: live.status(),
            legal,
            moves,
            view: live.session.state().view_json(viewer),
            outcome: live.session.outcome(),
            names: self.display_names(),
            open_seats: self.open_seats(),
            rematch: self.rematch(),
            series: self.row.series.clone(),
            clock: live.clocks.as_ref().map(|c| c.view(to_act)),
            away: live.away_seats(),
            resigned: live.session.resigned(),
            paused: self.paused_reason(),
            can_undo: live.can_undo(viewer),
            events: self.entries(
                live,
                viewer,
                since.unwrap_or_else(|| live.version().saturating_sub(1)),
            ),
        }
    }

    /// Each seat's display name, in seat order.
    pub fn display_names(&self) -> Vec<String> {
        self.seating(|s| s.display.clone())
    }

    /// The number of entries played so far (the version).
    pub async fn version(&self) -> u64 {
        self.live.lock().await.version()
    }

    /// The actions so far (table moves among them), the current status, and a copy of
    /// the game's state.
    pub async fn progress(&self) -> (Vec<String>, Status, Box<dyn DynState>) {
        let live = self.live.lock().await;
        (
            live.actions.clone(),
            live.status(),
            live.session.state().clone_box(),
        )
    }

    /// The result, once over (resignations counted), and the status.
    pub async fn outcome(&self) -> (Status, Option<Outcome>) {
        let live = self.live.lock().await;
        (live.status(), live.session.outcome())
    }

    /// The bot spec of `seat`, if a bot sits there or plays for its player who is away
    /// (and every seat is taken).
    fn bot_spec(&self, live: &Live, seat: Seat) -> Option<String> {
        let seats = self.seats();
        if seats.iter().any(|s| s.player == Player::Open) {
            return None;
        }
        if live.away.get(seat) == Some(&true) || live.session.is_resigned(seat) {
            return Some(self.row.rules.takeover.clone());
        }
        match &seats.get(seat)?.player {
            Player::Bot(spec) => Some(spec.to_string()),
            Player::Human | Player::Open => None,
        }
    }
}

/// The tables of one server process.
pub struct Hub {
    store: Arc<dyn Store>,
    limits: Limits,
    /// Table creations by client address.
    creates: RateLimiter<IpAddr>,
    /// Actions by table and seat (one seat, one token).
    actions: RateLimiter<(String, Seat)>,
    /// Chat lines by table and writer (a seat, or a spectator's address).
    chats: RateLimiter<(String, String)>,
    /// Held while a rematch is named.
    rematches: Mutex<()>,
    tables: StdMutex<HashMap<String, Arc<Table>>>,
    /// Finished and abandoned tables, with their final state: no replay per GET.
    ended: StdMutex<Ended>,
    /// Set once the tables live at start are rebuilt.
    rebuilt: tokio::sync::watch::Sender<bool>,
    /// Whether the store tells of other writers' moves (PostgreSQL): then rows may come
    /// in while a table is loaded, from another server or from a killed one's last commit.
    notified: bool,
}

/// How often clocks and players' presence are looked at.
pub const CLOCK_TICK: Duration = Duration::from_millis(250);

/// Chat lines one writer may send at once, and then per second.
pub const CHAT_BURST: u32 = 5;
pub const CHAT_PER_SECOND: f64 = 0.5;

/// How many tables are rebuilt at once at start.
const REBUILD_AT_ONCE: usize = 16;

/// The most ended tables kept in memory (the oldest kept is dropped first).
pub const ENDED_CACHE: usize = 500;

/// The ended tables in memory, in the order they were kept.
#[derive(Default)]
struct Ended {
    tables: HashMap<String, Arc<Table>>,
    order: std::collections::VecDeque<String>,
}

impl Ended {
    fn insert(&mut self, table: Arc<Table>) {
        let id = table.row.id.clone();
        if self.tables.insert(id.clone(), table).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > ENDED_CACHE {
            if let Some(old) = self.order.pop_front() {
                self.tables.remove(&old);
            }
        }
    }
}

/// Who sends a move: a seat's player, or a bot (which also moves for a resigned seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Player,
    Bot,
}

/// What [`Hub::play`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub version: u64,
}

impl Hub {
    /// A hub over `store`: replays every open and running game, starts their bots, and
    /// listens to other servers' moves where the store can tell them.
    ///
    /// # Errors
    /// The store cannot list or load its games.
    pub async fn start(store: Arc<dyn Store>, limits: Limits) -> anyhow::Result<Arc<Hub>> {
        // Listening starts before anything is read: a move stored after a read is told.
        let notices = store.subscribe().await?;
        let hub = Arc::new(Hub {
            notified: notices.is_some(),
            store,
            creates: RateLimiter::new(
                limits.create_burst,
                f64::from(limits.creates_per_minute) / 60.0,
            ),
            actions: RateLimiter::new(limits.action_burst, f64::from(limits.actions_per_second)),
            chats: RateLimiter::new(CHAT_BURST, CHAT_PER_SECOND),
            rematches: Mutex::new(()),
            limits,
            tables: StdMutex::new(HashMap::new()),
            ended: StdMutex::new(Ended::default()),
            rebuilt: tokio::sync::watch::Sender::new(false),
        });
        let rows = hub
            .store
            .list(&[Status::Open, Status::Running], u32::MAX)
            .await?;
        // The live tables are rebuilt in the background, several at once: the server
        // answers meanwhile, and a request for a table not rebuilt yet loads that one.
        // Each table's bots and expiry resume as soon as it is in memory.
        let weak = Arc::downgrade(&hub);
        let rebuilt = hub.rebuilt.clone();
        tokio::spawn(async move {
            use futures_util::StreamExt;
            let started = std::time::Instant::now();
            let total = rows.len();
            let loads = futures_util::stream::iter(rows).map(|row| {
                let weak = weak.clone();
                async move {
                    let Some(hub) = weak.upgrade() else {
                        return false;
                    };
                    match hub.table(&row.id).await {
                        Ok(_) => true,
                        Err(e) => {
                            tracing::error!("table {} cannot be rebuilt: {e}", row.id);
                            false
                        }
                    }
                }
            });
            let count = loads
                .buffer_unordered(REBUILD_AT_ONCE)
                .filter(|ok| std::future::ready(*ok))
                .count()
                .await;
            tracing::info!(
                "rebuilt {count} of {total} live tables by replay in {:?}",
                started.elapsed()
            );
            rebuilt.send_replace(true);
        });
        hub.spawn_expiry();
        hub.spawn_clocks();
        if let Some(mut notices) = notices {
            let weak = Arc::downgrade(&hub);
            tokio::spawn(async move {
                while let Some(notice) = notices.recv().await {
                    let Some(hub) = weak.upgrade() else { return };
                    hub.on_notice(notice).await;
                }
            });
        }
        Ok(hub)
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Waits until every table that was live at start is back in memory (or failed).
    pub async fn wait_rebuilt(&self) {
        let mut rebuilt = self.rebuilt.subscribe();
        let _ = rebuilt.wait_for(|done| *done).await;
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Counts a table creation from `client` (none when the address is unknown).
    ///
    /// # Errors
    /// `429 request/rate_limited` over the per-address rate.
    pub fn count_create(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        match client {
            Some(ip) if self.limits.rate_limits => self.creates.take(&ip).map_err(|wait| {
                rate_limited(
                    "tables created from your address",
                    wait,
                    "--creates-per-minute",
                )
            }),
            _ => Ok(()),
        }
    }

    /// Counts an action sent with the token of `seat` at `table`.
    ///
    /// # Errors
    /// `429 request/rate_limited` over the per-token rate.
    pub fn count_action(&self, table: &Table, seat: Seat) -> Result<(), ApiError> {
        if !self.limits.rate_limits {
            return Ok(());
        }
        self.actions
            .take(&(table.row.id.clone(), seat))
            .map_err(|wait| rate_limited("actions with this token", wait, "--actions-per-second"))
    }

    /// Abandons the tables in memory whose time ran out (see [`Limits::expire_unstarted`]
    /// and [`Limits::expire_idle`]); returns how many.
    pub async fn expire(self: &Arc<Self>) -> usize {
        let now = crate::store::now_ms();
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let mut count = 0;
        for table in self.all_cached() {
            let mut live = table.live.lock().await;
            let limit = if live.actions.is_empty() {
                ms(self.limits.expire_unstarted)
            } else {
                ms(self.limits.expire_idle)
            };
            // A started table with a clock goes by its clock (the take-over bot moves when
            // time runs out), never by the idle limit.
            let clocked = table.row.rules.clock.is_some() && !live.actions.is_empty();
            if live.abandoned
                || clocked
                || live.session.outcome().is_some()
                || now - live.moved < limit
            {
                continue;
            }
            match self.store.abandon(&table.row.id, live.version()).await {
                Ok(true) => {
                    live.abandoned = true;
                    count += 1;
                    let version = live.version();
                    drop(live);
                    tracing::info!("table {} abandoned: no move in time", table.row.id);
                    let _ = table.changed.send(version);
                    self.forget(&table.row.id);
                }
                // Another server moved it on: read its moves.
                Ok(false) => {
                    if let Err(e) = self.catch_up(&table, &mut live).await {
                        tracing::warn!("catching up table {}: {e}", table.row.id);
                    }
                }
                Err(e) => tracing::warn!("abandoning table {}: {e}", table.row.id),
            }
        }
        count
    }

    /// Runs [`Hub::expire`] every so often while the hub lives.
    fn spawn_expiry(self: &Arc<Self>) {
        let shortest = self.limits.expire_unstarted.min(self.limits.expire_idle);
        let every = (shortest / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(hub) = weak.upgrade() else { return };
                hub.expire().await;
            }
        });
    }

    fn cached(&self, id: &str) -> Option<Arc<Table>> {
        self.tables.lock().ok().and_then(|t| t.get(id).cloned())
    }

    /// Why the table `id` is paused, if it is in memory and paused.
    pub fn paused_reason(&self, id: &str) -> Option<String> {
        self.cached(id).and_then(|t| t.paused_reason())
    }

    fn all_cached(&self) -> Vec<Arc<Table>> {
        self.tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Drops a finished table from memory (clients that hold it keep their copy).
    fn forget(&self, id: &str) {
        let table = self.tables.lock().ok().and_then(|mut t| t.remove(id));
        if let Some(table) = table {
            self.keep_ended(table);
        }
    }

    /// Keeps an ended table in the bounded cache of ended tables.
    fn keep_ended(&self, table: Arc<Table>) {
        if let Ok(mut ended) = self.ended.lock() {
            ended.insert(table);
        }
    }

    fn ended(&self, id: &str) -> Option<Arc<Table>> {
        self.ended
            .lock()
            .ok()
            .and_then(|e| e.tables.get(id).cloned())
    }

    /// The number of tables in memory.
    pub fn live_tables(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }

    /// The table with this id, loaded from the store and replayed if not in memory.
    ///
    /// # Errors
    /// `game/not_found`, or an internal error when the store fails or the log does not
    /// replay.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if let Some(table) = self.cached(id) {
            self.kick_if_due(&table);
            return Ok(table);
        }
        if let Some(table) = self.ended(id) {
            return Ok(table);
        }
        if id.len() > 64 {
            return Err(ApiError::table_not_found(id));
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::table_not_found(id))?;
        let rows = self
            .store
            .actions(id, 0)
            .await
            .map_err(ApiError::internal)?;
        let chat = self.store.chat(id, 0).await.map_err(ApiError::internal)?;
        let table = self.build(row, rows, chat).await?;
        if self.notified {
            // A row stored between the read above and the table's entry among the live
            // ones was told while no table could take the notice: read it now. (On
            // PostgreSQL the last commit of a server killed with a move in flight may
            // land after the next server has read the table.)
            let mut live = table.live.lock().await;
            if matches!(live.status(), Status::Open | Status::Running) {
                self.catch_up(&table, &mut live).await?;
            }
        }
        Ok(table)
    }

    /// The table of `row` in memory with its stored actions and chat, among the live
    /// tables (or the ended ones), its bots started.
    async fn build(
        self: &Arc<Self>,
        row: GameRow,
        rows: Vec<ActionRow>,
        chat: Vec<ChatRow>,
    ) -> Result<Arc<Table>, ApiError> {
        let id = row.id.as_str();
        let game = catalog::game(&row.game).map_err(ApiError::internal)?;
        let state = game
            .new_state(&row.config, row.seed)
            .map_err(|e| ApiError::internal(format!("table {id}: {e}")))?;
        let mut actions = Vec::with_capacity(rows.len());
        let mut recent = VecDeque::with_capacity(RECENT);
        let moved = rows.last().map_or(row.created, |a| a.at);
        let keep_from = rows.len().saturating_sub(RECENT);
        let n = row.seats.len();
        let started = (row.seats.iter().filter_map(|s| s.joined)).fold(row.created, i64::max);
        let mut clocks = row.rules.clock.map(|c| Clocks::new(c, n, started));
        let mut session = Session::new(state);
        for (index, action) in rows.into_iter().enumerate() {
            if index >= keep_from {
                recent.push_back(session.state().clone_box());
            }
            if action.seq != index as u64 {
                return Err(ApiError::internal(format!(
                    "table {id}: action rows skip from {index} to {}",
                    action.seq
                )));
            }
            session.apply(&action.action).map_err(|e| {
                ApiError::internal(format!("table {id}: action {index} does not replay: {e}"))
            })?;
            if let Some(clocks) = &mut clocks {
                clocks.moved(action.seat, action.at);
            }
            actions.push(action.action);
        }
        // Who a bot plays for: the table's last note on each seat says.
        let mut away = vec![false; n];
        for line in &chat {
            if let Some(seat) = line.seat.filter(|&s| s < n) {
                match line.kind {
                    ChatKind::TookOver => away[seat] = true,
                    ChatKind::Back => away[seat] = false,
                    ChatKind::Chat => {}
                }
            }
        }
        let chat: VecDeque<ChatRow> = chat.into_iter().rev().take(CHAT_KEPT).rev().collect();
        let (changed, _) = broadcast::channel(64);
        let (chat_tx, _) = broadcast::channel(64);
        let abandoned = row.status == Status::Abandoned;
        let table = Arc::new(Table {
            seats: StdMutex::new(Seating::new(row.seats.clone())),
            chat: StdMutex::new(chat),
            chat_tx,
            rematch: StdMutex::new(row.rematch.clone()),
            paused: AtomicBool::new(false),
            row,
            live: Mutex::new(Live {
                session,
                actions,
                bot_running: false,
                abandoned,
                moved,
                recent,
                pushes: Vec::new(),
                pushes_version: 0,
                touches: 0,
                clocks,
                away,
                seen: vec![moved; n],
                sockets: vec![0; n],
                watchers: 0,
                watched: moved,
                bot_memory: vec![bots::TurnMemory::default(); n],
            }),
            changed,
        });
        if matches!(
            table.live.lock().await.status(),
            Status::Finished | Status::Abandoned
        ) {
            // Finished and abandoned games change no more: they go to the bounded cache
            // of ended tables, not among the live ones.
            self.keep_ended(table.clone());
            return Ok(table);
        }
        let table = {
            let mut tables = self
                .tables
                .lock()
                .map_err(|_| ApiError::internal("table cache poisoned"))?;
            tables
                .entry(table.row.id.clone())
                .or_insert_with(|| table.clone())
                .clone()
        };
        self.kick_bots(&table);
        Ok(table)
    }

    /// Creates a table and stores it; returns it with the human seats' tokens (in seat
    /// order, `None` for bots).
    ///
    /// # Errors
    /// Unknown game, invalid options or seats, or the store fails.
    pub async fn create(
        self: &Arc<Self>,
        game_name: &str,
        options: Option<serde_json::Value>,
        seed: Option<u64>,
        seats: Option<Vec<serde_json::Value>>,
        rules: Option<crate::clock::TableRules>,
    ) -> Result<(Arc<Table>, Vec<Option<String>>), ApiError> {
        let game = catalog::game(game_name)?;
        if self.live_tables() >= self.limits.max_tables {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "server/full",
                format!(
                    "this server holds {} open tables, its most (serve --max-tables); try again once some have ended",
                    self.limits.max_tables
                ),
            ));
        }
        let mut config = game.default_config();
        let mut players_given = false;
        match options {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::Object(given)) => {
                // Options not given keep their defaults.
                players_given = given.contains_key("players");
                if let serde_json::Value::Object(defaults) = &mut config {
                    defaults.extend(given);
                } else {
                    config = serde_json::Value::Object(given);
                }
            }
            Some(_) => return Err(ApiError::malformed("`options` must be a JSON object")),
        }
        // A seat list without a player count sets it.
        if let (Some(seats), serde_json::Value::Object(map), false) =
            (&seats, &mut config, players_given)
        {
            game.with_players(map, seats.len())
                .map_err(engine::EngineError::from)?;
        }
        let seed_chosen = seed.is_some();
        let seed = match seed {
            Some(seed) => seed,
            None => secure_seed()?,
        };
        let state = game.new_state(&config, seed)?;
        let config = state.config_json();
        let seats = match seats {
            Some(given) => given
                .iter()
                .map(parse_seat)
                .collect::<Result<Vec<_>, _>>()?,
            None => vec![("human".to_string(), None); state.seats()],
        };
        if seats.len() != state.seats() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "seat/count",
                format!(
                    "{} with these options has {} seats, but {} were given",
                    game.name(),
                    state.seats(),
                    seats.len()
                ),
            ));
        }
        let rules = rules.unwrap_or_default();
        rules.check(seats.len())?;
        let takeover: bots::BotSpec = rules.takeover.parse().map_err(|e: bots::BotError| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "table/invalid",
                format!("take-over bot: {}", truncate(&e.to_string(), 300)),
            )
        })?;
        if takeover == bots::BotSpec::Human {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "table/invalid",
                "the take-over player must be a bot, such as `medium`",
            ));
        }
        // The take-over bot is held to the server's limits when it plays (`clamp_bot`),
        // like every bot of a table stored before the limits changed.
        let mut rows = Vec::with_capacity(seats.len());
        let mut tokens = Vec::with_capacity(seats.len());
        for (text, name) in &seats {
            let name = name.clone();
            if text.trim().eq_ignore_ascii_case("open") {
                rows.push(SeatRow {
                    player: Player::Open,
                    token_sha256: None,
                    name: None,
                    joined: None,
                });
                tokens.push(None);
                continue;
            }
            let spec: bots::BotSpec = text.parse().map_err(|e: bots::BotError| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "seat/invalid",
                    truncate(&e.to_string(), 300),
                )
            })?;
            if spec == bots::BotSpec::Human {
                let token = random_hex(32)?;
                rows.push(SeatRow {
                    player: Player::Human,
                    token_sha256: Some(token_hash(&token)),
                    name,
                    joined: None,
                });
                tokens.push(Some(token));
            } else {
                self.limits.check_bot(&spec)?;
                catalog::bot(game.name(), &spec, 0).map_err(|e| {
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "seat/invalid",
                        truncate(&e.to_string(), 300),
                    )
                })?;
                rows.push(SeatRow {
                    player: Player::Bot(spec),
                    token_sha256: None,
                    name,
                    joined: None,
                });
                tokens.push(None);
            }
        }
        check_confusable(&rows, 0..rows.len())?;
        let created = crate::store::now_ms();
        let row = GameRow {
            id: table_id(created)?,
            game: game.name().to_string(),
            config,
            seed,
            seats: rows,
            created,
            status: Status::Open,
            seed_chosen,
            bot_secret: random_hex(32)?,
            rematch: None,
            series: None,
            rules: crate::clock::TableRules {
                takeover: takeover.to_string(),
                ..rules
            },
        };
        self.store.create(&row).await.map_err(ApiError::internal)?;
        // Just stored, nothing played or said yet: nothing to read back.
        let table = self.build(row, Vec::new(), Vec::new()).await?;
        Ok((table, tokens))
    }

    /// Reads `table`'s seats, rematch and chat again from the store (another server may
    /// have changed them).
    ///
    /// # Errors
    /// The store fails.
    pub async fn refresh(&self, table: &Arc<Table>) -> Result<(), ApiError> {
        let row = self
            .store
            .game(&table.row.id)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::table_not_found(&table.row.id))?;
        let mut touched = false;
        if *table.seats() != row.seats {
            table.set_seats(row.seats);
            touched = true;
        }
        if row.rematch.is_some() && table.rematch() != row.rematch {
            if let Ok(mut r) = table.rematch.lock() {
                *r = row.rematch;
            }
            touched = true;
        }
        let lines = self
            .store
            .chat(&table.row.id, table.next_chat_seq())
            .await
            .map_err(ApiError::internal)?;
        for line in lines {
            table.keep_chat(line);
        }
        if touched {
            table.touched().await;
        }
        Ok(())
    }

    /// Takes open seat `seat` of `table` for a person named `name` (or "Seat N");
    /// returns the seat's new token. The game starts once no seat is open.
    ///
    /// # Errors
    /// `seat/not_found` for a seat the table does not have, `seat/taken` when nobody
    /// may take it (or someone just did), or the store fails.
    pub async fn join(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        name: Option<String>,
    ) -> Result<String, ApiError> {
        let count = table.seats().len();
        if seat >= count {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "seat/not_found",
                format!(
                    "this table has seats 0 to {} (seat numbers in the API count from 0)",
                    count - 1
                ),
            ));
        }
        let token = random_hex(32)?;
        // Two tries: the second after reading seats another server may have taken.
        for attempt in 0..2 {
            let before = table.seats();
            if before[seat].player != Player::Open {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "seat/taken",
                    format!("seat {} is not open: someone sits there", seat + 1),
                ));
            }
            let mut after = (*before).clone();
            let now = crate::store::now_ms();
            after[seat] = SeatRow {
                player: Player::Human,
                token_sha256: Some(token_hash(&token)),
                name: name.clone(),
                joined: Some(now),
            };
            check_confusable(&after, [seat])?;
            let stored = self
                .store
                .set_seats(&table.row.id, &before, &after)
                .await
                .map_err(ApiError::internal)?;
            if stored {
                let full = after.iter().all(|s| s.player != Player::Open);
                table.set_seats(after);
                if full {
                    // The clocks start when the last seat is taken.
                    let mut live = table.live.lock().await;
                    live.moved = live.moved.max(now);
                    if let Some(clocks) = &mut live.clocks {
                        clocks.started(now);
                    }
                }
                table.touched().await;
                self.kick_bots(table);
                return Ok(token);
            }
            if attempt == 0 {
                self.refresh(table).await?;
            }
        }
        Err(ApiError::new(
            StatusCode::CONFLICT,
            "seat/taken",
            format!("seat {} was just taken by someone else", seat + 1),
        ))
    }

    /// Adds a chat line to `table` from `seat` (its display name) or from a spectator
    /// under the name given.
    ///
    /// # Errors
    /// `chat/invalid` for a bad line, `seat/name` for a spectator without a good name,
    /// `request/rate_limited` over the chat rate, or the store fails.
    pub async fn chat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Option<Seat>,
        name: Option<&str>,
        client: Option<IpAddr>,
        text: &str,
    ) -> Result<ChatRow, ApiError> {
        let text = chat_text(text)?;
        let name = match seat {
            Some(seat) => table.display_names()[seat].clone(),
            None => display_name(name.unwrap_or_default())?,
        };
        if self.limits.rate_limits {
            let who = match (seat, client) {
                (Some(seat), _) => format!("seat {seat}"),
                (None, Some(ip)) => ip.to_string(),
                (None, None) => "spectators".into(),
            };
            self.chats
                .take(&(table.row.id.clone(), who))
                .map_err(|wait| rate_limited("chat lines", wait, "--no-rate-limits"))?;
        }
        self.add_line(table, seat, name, text, ChatKind::Chat).await
    }

    /// Stores and pushes a chat line at the next place of `table`'s chat.
    async fn add_line(
        &self,
        table: &Arc<Table>,
        seat: Option<Seat>,
        name: String,
        text: String,
        kind: ChatKind,
    ) -> Result<ChatRow, ApiError> {
        for attempt in 0..3 {
            let line = ChatRow {
                seq: table.next_chat_seq(),
                at: crate::store::now_ms(),
                seat,
                name: name.clone(),
                text: text.clone(),
                kind,
            };
            match self.store.chat_add(&table.row.id, &line).await {
                Ok(()) => {
                    table.keep_chat(line.clone());
                    return Ok(line);
                }
                Err(StoreError::Conflict { .. }) if attempt < 2 => self.refresh(table).await?,
                Err(e) => return Err(ApiError::internal(e)),
            }
        }
        Err(ApiError::internal("the chat line could not be placed"))
    }

    /// The player of `seat` was heard from (a request or a socket with its token): a bot
    /// playing for it hands the seat back, and the log says so.
    ///
    /// # Errors
    /// The store fails to keep the note.
    pub async fn seen(self: &Arc<Self>, table: &Arc<Table>, seat: Seat) -> Result<(), ApiError> {
        let back = {
            let mut live = table.live.lock().await;
            if let Some(at) = live.seen.get_mut(seat) {
                *at = crate::store::now_ms();
            }
            live.away.get(seat) == Some(&true)
        };
        self.set_paused(table, false).await;
        if back {
            let name = table.display_names()[seat].clone();
            self.add_line(
                table,
                Some(seat),
                "table".into(),
                format!("{name} is back and plays again"),
                ChatKind::Back,
            )
            .await?;
            let mut live = table.live.lock().await;
            live.away[seat] = false;
            drop(live);
            table.touched().await;
        }
        Ok(())
    }

    /// A spectator was heard from: a socket opened (`Some(true)`) or closed
    /// (`Some(false)`), or a call (`None`). A paused table goes on.
    pub async fn watch(self: &Arc<Self>, table: &Arc<Table>, socket: Option<bool>) {
        {
            let mut live = table.live.lock().await;
            match socket {
                Some(true) => live.watchers += 1,
                Some(false) => live.watchers = live.watchers.saturating_sub(1),
                None => {}
            }
            live.watched = crate::store::now_ms();
        }
        self.set_paused(table, false).await;
    }

    /// Pauses `table` or lets it go on; a change is told to the pages, and a table that
    /// goes on starts its bots again.
    async fn set_paused(self: &Arc<Self>, table: &Arc<Table>, paused: bool) {
        if table.paused.swap(paused, Ordering::Relaxed) != paused {
            table.touched().await;
            if !paused {
                self.kick_if_due(table);
            }
        }
    }

    /// A socket of `seat` opened (`true`) or closed.
    pub async fn socket(&self, table: &Table, seat: Seat, open: bool) {
        let mut live = table.live.lock().await;
        if let Some(count) = live.sockets.get_mut(seat) {
            *count = if open {
                *count + 1
            } else {
                count.saturating_sub(1)
            };
        }
        if let Some(at) = live.seen.get_mut(seat) {
            *at = crate::store::now_ms();
        }
    }

    /// Applies `table`'s clock and presence rules now: a seat to act whose time ran out
    /// (or, without a clock, whose player has been away its whole allowance) is taken by
    /// the table's bot, or resigns where the table says so.
    pub async fn check_time(self: &Arc<Self>, table: &Arc<Table>) {
        let now = crate::store::now_ms();
        let rules = &table.row.rules;
        let (due, paused) = {
            let live = table.live.lock().await;
            let paused = table.nobody_present(&live, now);
            let seat = live.session.to_act();
            let due = match seat {
                _ if live.abandoned || !table.open_seats().is_empty() => None,
                Some(seat) if table.bot_spec(&live, seat).is_none() => {
                    let timed_out = live
                        .clocks
                        .as_ref()
                        .is_some_and(|c| now >= c.deadline(seat));
                    let away_ms =
                        i64::try_from(rules.away_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
                    let left = rules.clock.is_none()
                        && rules.away_seconds > 0
                        && live.sockets[seat] == 0
                        && now - live.seen[seat].max(live.moved) >= away_ms;
                    (timed_out || left).then_some((seat, timed_out))
                }
                _ => None,
            };
            (due, paused)
        };
        self.set_paused(table, paused).await;
        let Some((seat, timed_out)) = due else {
            return;
        };
        let name = table.display_names()[seat].clone();
        if timed_out && rules.on_timeout == OnTimeout::Resign {
            if let Err(e) = self.resign_for_time(table, seat).await {
                tracing::warn!("table {}: seat {seat} ran out of time: {e}", table.row.id);
            }
            return;
        }
        if paused {
            // Nobody is at the table: handing the seat to a bot waits until someone is.
            return;
        }
        let why = if timed_out {
            "the time ran out"
        } else {
            "the player left"
        };
        let text = format!(
            "a bot ({}) plays for {name}: {why}; coming back with the seat's link takes the seat back",
            rules.takeover
        );
        match self
            .add_line(table, Some(seat), "table".into(), text, ChatKind::TookOver)
            .await
        {
            Ok(_) => {
                let mut live = table.live.lock().await;
                live.away[seat] = true;
                drop(live);
                table.touched().await;
                self.kick_bots(table);
            }
            Err(e) => tracing::warn!("table {}: taking seat {seat} over: {e}", table.row.id),
        }
    }

    /// Runs [`Hub::check_time`] over the tables in memory every [`CLOCK_TICK`].
    fn spawn_clocks(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(CLOCK_TICK).await;
                let Some(hub) = weak.upgrade() else { return };
                // Every table: one without a clock or take-over still pauses.
                for table in hub.all_cached() {
                    hub.check_time(&table).await;
                }
            }
        });
    }

    /// The rematch of finished `table`, asked for by `seat` (whose token is `token`):
    /// the one already named, or a new table with the same options and players, seats
    /// rotated by one (seat 1 sits at seat 2, the last at seat 1), and the series so
    /// far. Returns the rematch and the seat's new token there.
    ///
    /// # Errors
    /// `game/not_over` before the end, or the store fails.
    pub async fn rematch(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(Arc<Table>, Seat, String), ApiError> {
        let (status, outcome) = table.outcome().await;
        let Some(outcome) = outcome.filter(|_| status == Status::Finished) else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game/not_over",
                "a rematch is asked for once the game is over",
            ));
        };
        let seats = table.seats();
        let n = seats.len();
        let to = (seat + 1) % n;
        let old_hash = seats[seat].token_sha256.clone().unwrap_or_default();
        // One rematch at a time on this server; two servers settle it in the store.
        let _one = self.rematches.lock().await;
        if table.rematch().is_none() {
            self.refresh(table).await?;
        }
        if let Some(id) = table.rematch() {
            let next = self.table(&id).await?;
            let token = rematch_token(&next.row.bot_secret, &old_hash);
            return Ok((next, to, token));
        }
        let secret = random_hex(32)?;
        let mut rows = vec![seats[0].clone(); n];
        for (old, row) in seats.iter().enumerate() {
            let mut row = row.clone();
            row.joined = None;
            if let Some(hash) = &row.token_sha256 {
                row.token_sha256 = Some(token_hash(&rematch_token(&secret, hash)));
            }
            rows[(old + 1) % n] = row;
        }
        let before = table.row.series.clone().unwrap_or_else(|| Series {
            wins: vec![0; n],
            ..Series::default()
        });
        let mut wins = vec![0; n];
        for old in 0..n {
            let won = u32::from(outcome.places.get(old) == Some(&0));
            wins[(old + 1) % n] = before.wins.get(old).copied().unwrap_or(0) + won;
        }
        let created = crate::store::now_ms();
        let row = GameRow {
            id: table_id(created)?,
            game: table.row.game.clone(),
            config: table.row.config.clone(),
            seed: secure_seed()?,
            seats: rows,
            created,
            status: Status::Open,
            seed_chosen: false,
            bot_secret: secret,
            rematch: None,
            series: Some(Series {
                previous: table.row.id.clone(),
                games: before.games + 1,
                wins,
            }),
            rules: table.row.rules.clone(),
        };
        self.store.create(&row).await.map_err(ApiError::internal)?;
        let stands = self
            .store
            .set_rematch(&table.row.id, &row.id)
            .await
            .map_err(ApiError::internal)?;
        if stands != row.id {
            // Another server named one first: ours never starts.
            let _ = self.store.abandon(&row.id, 0).await;
        }
        if let Ok(mut r) = table.rematch.lock() {
            *r = Some(stands.clone());
        }
        table.touched().await;
        let next = self.table(&stands).await?;
        let token = rematch_token(&next.row.bot_secret, &old_hash);
        Ok((next, to, token))
    }

    /// Plays `action` for `seat` on `table`, chosen on `version`: checks it, commits its
    /// row, then applies it in memory and tells every client.
    ///
    /// # Errors
    /// Stale version, not this seat's turn, game over, malformed or illegal action, or the
    /// store fails (nothing changes then).
    pub async fn play(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: &str,
        version: u64,
        by: By,
    ) -> Result<Played, ApiError> {
        let action = action.trim();
        if action.is_empty() || action.len() > MAX_ACTION_LEN {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "action/malformed",
                format!("an action is 1 to {MAX_ACTION_LEN} bytes of text"),
            ));
        }
        let mut live = table.live.lock().await;
        if version > live.version() {
            // Another server may have moved on: read its rows first.
            self.catch_up(table, &mut live).await?;
        }
        if live.session.outcome().is_some() {
            return Err(engine::EngineError::GameOver.into());
        }
        if live.abandoned {
            return Err(ApiError::abandoned());
        }
        if version != live.version() {
            return Err(ApiError::stale(version, live.version()));
        }
        if let Some(&open) = table.open_seats().first() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "table/waiting",
                format!(
                    "the game starts once every seat is taken: seat {} is still open",
                    open + 1
                ),
            ));
        }
        if is_table_move(action) {
            return self.table_move(table, live, seat, action, version).await;
        }
        let to_act = live.session.to_act();
        if to_act != Some(seat) || (live.session.is_resigned(seat) && by == By::Player) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "action/not_your_turn",
                match to_act {
                    Some(s) if s == seat => {
                        format!("seat {} resigned: a bot makes its moves", seat + 1)
                    }
                    _ => format!(
                        "seat {} cannot act now: {} is to act",
                        seat + 1,
                        to_act.map_or("nobody".into(), |s| format!("seat {}", s + 1))
                    ),
                },
            ));
        }
        // The action's own notation is what is stored and pushed (`5  DEBT` is `5 debt`).
        let canonical = live.session.state().canonical(action)?;
        let action = canonical.as_str();
        let mut next = live.session.state().clone_box();
        next.apply_text(action)?;
        let status = if next.outcome().is_some() {
            Status::Finished
        } else {
            Status::Running
        };
        self.store_entry(table, &mut live, version, seat, action, status)
            .await?;
        let before = live.session.advance(action, next)?;
        live.advanced(before, action.to_string(), seat, crate::store::now_ms());
        Ok(self.moved_on(table, live, status))
    }

    /// Stores entry `text` of `seat` at `version`: a conflict (another server's move came
    /// first) reads that move in and answers that the version is stale.
    async fn store_entry(
        &self,
        table: &Arc<Table>,
        live: &mut Live,
        version: u64,
        seat: Seat,
        text: &str,
        status: Status,
    ) -> Result<(), ApiError> {
        match self
            .store
            .append(&table.row.id, version, seat, text, status)
            .await
        {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict { .. }) => {
                self.catch_up(table, live).await?;
                Err(ApiError::stale(version, live.version()))
            }
            Err(e) => Err(ApiError::internal(e)),
        }
    }

    /// Tells every client of `table` about the entry just made, and puts the table away
    /// if it is over or its bots to work if not.
    fn moved_on(
        self: &Arc<Self>,
        table: &Arc<Table>,
        live: tokio::sync::MutexGuard<'_, Live>,
        status: Status,
    ) -> Played {
        let now = live.version();
        // A bot is due only if none drives the table already (a bot's own move comes
        // back to its driver's loop).
        let bot_due = !live.bot_running
            && (live.session.to_act()).is_some_and(|seat| table.bot_spec(&live, seat).is_some());
        drop(live);
        let _ = table.changed.send(now);
        if status == Status::Finished {
            self.forget(&table.row.id);
        } else if bot_due {
            self.kick_bots(table);
        }
        Played { version: now }
    }

    /// Plays a table move (`undo`, `resign N`) for `seat`: checked on a copy of the
    /// session, stored, then made.
    async fn table_move(
        self: &Arc<Self>,
        table: &Arc<Table>,
        mut live: tokio::sync::MutexGuard<'_, Live>,
        seat: Seat,
        text: &str,
        version: u64,
    ) -> Result<Played, ApiError> {
        let table_move: TableMove = text.parse().map_err(engine::EngineError::from)?;
        if let TableMove::Resign(other) = table_move {
            if other != seat {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "action/not_yours",
                    format!(
                        "a seat resigns only for itself: this token is seat {}'s",
                        seat + 1
                    ),
                ));
            }
        }
        let mut next = live.session.clone();
        match table_move {
            TableMove::Undo => next.undo(seat)?,
            TableMove::Resign(seat) => next.resign(seat)?,
        }
        let status = if next.outcome().is_some() {
            Status::Finished
        } else {
            Status::Running
        };
        let text = table_move.to_string();
        self.store_entry(table, &mut live, version, seat, &text, status)
            .await?;
        let before = live.session.state().clone_box();
        live.session = next;
        live.advanced(before, text, seat, crate::store::now_ms());
        Ok(self.moved_on(table, live, status))
    }

    /// `seat` ran out of time at a table whose rule is to resign then.
    async fn resign_for_time(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<(), ApiError> {
        let version = table.live.lock().await.version();
        self.play(
            table,
            seat,
            &TableMove::Resign(seat).to_string(),
            version,
            By::Player,
        )
        .await
        .map(|_| ())
    }

    /// Applies the action rows this process has not seen yet (written by another server).
    async fn catch_up(&self, table: &Arc<Table>, live: &mut Live) -> Result<bool, ApiError> {
        let rows = self
            .store
            .actions(&table.row.id, live.version())
            .await
            .map_err(ApiError::internal)?;
        let mut changed = false;
        for row in rows {
            if row.seq != live.version() {
                return Err(ApiError::internal(format!(
                    "table {}: expected action {} but read {}",
                    table.row.id,
                    live.version(),
                    row.seq
                )));
            }
            let before = live.session.state().clone_box();
            live.session.apply(&row.action).map_err(|e| {
                ApiError::internal(format!(
                    "table {}: stored action {} does not apply: {e}",
                    table.row.id, row.seq
                ))
            })?;
            live.advanced(before, row.action, row.seat, row.at);
            changed = true;
        }
        if changed {
            let _ = table.changed.send(live.version());
            if live.status() == Status::Finished {
                self.forget(&table.row.id);
            }
        }
        Ok(changed)
    }

    async fn on_notice(self: &Arc<Self>, notice: Notice) {
        let tables = match notice {
            Notice::Actions(id) => self.cached(&id).into_iter().collect(),
            Notice::Resync => self.all_cached(),
        };
        for table in tables {
            if let Err(e) = self.refresh(&table).await {
                tracing::warn!("reading table {} again: {e}", table.row.id);
            }
            let changed = {
                let mut live = table.live.lock().await;
                self.catch_up(&table, &mut live).await
            };
            match changed {
                Ok(true) => self.kick_bots(&table),
                Ok(false) => {}
                Err(e) => tracing::warn!("catching up table {}: {e}", table.row.id),
            }
        }
    }

    /// Starts the bot driver of `table` if a bot is due and its driver is not running
    /// (a cheap check for every load and view of a table).
    fn kick_if_due(self: &Arc<Self>, table: &Arc<Table>) {
        let due = match table.live.try_lock() {
            Ok(live) => {
                !live.bot_running
                    && !live.abandoned
                    && !table.is_paused()
                    && live
                        .session
                        .to_act()
                        .is_some_and(|seat| table.bot_spec(&live, seat).is_some())
            }
            // Someone holds the table: whoever it is kicks the bots when done.
            Err(_) => false,
        };
        if due {
            self.kick_bots(table);
        }
    }

    /// Starts the bot driver of `table` if a bot is to act and none is running.
    fn kick_bots(self: &Arc<Self>, table: &Arc<Table>) {
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move { hub.drive_bots(table).await });
    }

    async fn drive_bots(self: Arc<Self>, table: Arc<Table>) {
        {
            let mut live = table.live.lock().await;
            if live.bot_running {
                return;
            }
            live.bot_running = true;
        }
        let mut failures = 0u32;
        loop {
            let job = {
                let mut live = table.live.lock().await;
                let job = live
                    .session
                    .to_act()
                    .filter(|_| !live.abandoned && !table.is_paused())
                    .and_then(|seat| {
                        table
                            .bot_spec(&live, seat)
                            .map(|spec| (seat, spec, live.version()))
                    });
                match job {
                    Some((seat, spec, version)) => (
                        seat,
                        spec,
                        version,
                        live.session.state().clone_box(),
                        live.bot_memory.get(seat).cloned().unwrap_or_default(),
                    ),
                    None => {
                        live.bot_running = false;
                        return;
                    }
                }
            };
            let (seat, spec, version, state, memory) = job;
            let game = table.row.game.clone();
            let seed = bot_seed(&table.row, seat, version);
            let limits = self.limits.clone();
            let choice = tokio::task::spawn_blocking(move || {
                let spec = limits.clamp_bot(spec.parse().ok()?);
                let mut bot = catalog::bot(&game, &spec, seed).ok()?;
                bot.remember(memory);
                let action = bot.choose_text(state.as_ref())?;
                Some((action, bot.memory()))
            })
            .await;
            let outcome = match choice {
                Ok(Some((action, memory))) => {
                    let played = self.play(&table, seat, &action, version, By::Bot).await;
                    if played.is_ok() {
                        if let Some(m) = table.live.lock().await.bot_memory.get_mut(seat) {
                            *m = memory;
                        }
                    }
                    played.map(|_| ())
                }
                Ok(None) => Err(ApiError::internal(format!(
                    "table {}: the bot of seat {seat} chose nothing",
                    table.row.id
                ))),
                Err(e) => Err(ApiError::internal(e)),
            };
            match outcome {
                Ok(()) => failures = 0,
                Err(e) if e.code == "action/stale_version" => {}
                Err(e) => {
                    // A bot never gives up: the store may be back in a moment. It waits
                    // longer after each failure, up to BOT_RETRY_MAX.
                    failures = failures.saturating_add(1);
                    let wait = BOT_RETRY_FIRST
                        .saturating_mul(1 << failures.min(16))
                        .min(BOT_RETRY_MAX);
                    tracing::warn!(
                        "table {} bot seat {seat}: {e} (failure {failures}; retrying in {wait:?})",
                        table.row.id
                    );
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }
}
