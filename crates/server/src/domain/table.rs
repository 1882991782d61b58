//! One table in memory: who sits where, its chat, whether it is paused, and who may act.

use super::hub::*;

impl Table {
    /// Who sits where now.
    pub fn seats(&self) -> Arc<Vec<SeatRow>> {
        self.seating(|s| s.rows.clone())
    }

    /// `read` of the seating now.
    pub(super) fn seating<T>(&self, read: impl FnOnce(&Seating) -> T) -> T {
        match self.seats.lock() {
            Ok(s) => read(&s),
            Err(e) => read(&e.into_inner()),
        }
    }

    pub(super) fn set_seats(&self, seats: Vec<SeatRow>) {
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
    /// `away_seconds`, or [`super::clock::AWAY_DEFAULT`] where it turned the take-over of
    /// a player who left off), in ms.
    pub(super) fn away_ms(&self) -> i64 {
        let seconds = match self.row.rules.away_seconds {
            0 => super::clock::AWAY_DEFAULT,
            s => s,
        };
        i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX)
    }

    /// Whether no person has been at the table for the away time at `now`: no socket
    /// open on it (a seat's or a spectator's), no call with a seat's token and no
    /// spectator's call, while the game goes on with every seat taken.
    pub(super) fn nobody_present(&self, live: &Live, now: i64) -> bool {
        let last = live
            .seats
            .iter()
            .map(|s| s.seen)
            .fold(live.watched, i64::max);
        live.session.to_act().is_some()
            && !live.abandoned
            && self.open_seats().is_empty()
            && live.watchers == 0
            && live.seats.iter().all(|s| s.sockets == 0)
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

    pub(super) fn keep_chat(&self, line: ChatRow) -> bool {
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

    pub(super) fn next_chat_seq(&self) -> u64 {
        self.chat
            .lock()
            .ok()
            .and_then(|c| c.back().map(|l| l.seq + 1))
            .unwrap_or(0)
    }

    /// Tells every client that something besides the moves changed (a seat taken, a
    /// rematch named): their `state` is written anew.
    pub(super) async fn touched(&self) {
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
    pub fn authenticate(&self, token: &str) -> Result<Seat, TableError> {
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
        found.ok_or_else(TableError::bad_token)
    }

    /// A receiver told (with the new version) after every change.
    pub fn subscribe(&self) -> broadcast::Receiver<u64> {
        self.changed.subscribe()
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
    pub async fn progress(&self) -> (Vec<Move>, Status, Box<dyn DynState>) {
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
    pub(super) fn bot_spec(&self, live: &Live, seat: Seat) -> Option<String> {
        let seats = self.seats();
        if seats.iter().any(|s| s.player == Player::Open) {
            return None;
        }
        if live.seats.get(seat).is_some_and(|s| s.away) || live.session.is_resigned(seat) {
            return Some(self.row.rules.takeover.clone());
        }
        match &seats.get(seat)?.player {
            Player::Bot(spec) => Some(spec.to_string()),
            Player::Human | Player::Open => None,
        }
    }
}
