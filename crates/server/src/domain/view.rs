//! What a viewer is sent of a table: one serializer for the HTTP answers and the socket's
//! `state` pushes, and the log entries that go with them.

use super::hub::*;

/// The first bytes of a socket `state` message; the HTTP answers are the same text without
/// its `type`.
const STATE_PREFIX: &str = r#"{"type":"state","#;

/// What a table is at, at a glance (the lobby and the table's summary).
pub struct Glance {
    /// The number of actions played so far.
    pub version: u64,
    pub status: Status,
    pub to_act: Option<Seat>,
    /// Why the table is paused, while it is.
    pub paused: Option<String>,
}

/// A seat's legal moves now.
pub struct LegalNow {
    pub version: u64,
    pub to_act: Option<Seat>,
    /// Their notation; empty unless the seat is to act.
    pub legal: Vec<String>,
    /// The same moves as the game describes them.
    pub moves: Vec<engine::LegalMove>,
}

impl Table {
    /// `viewer`'s state now as the HTTP answers give it, with the events of every action
    /// after version `since` (the last action alone when `None`): the text of the socket's
    /// `state` message (one serializer for both), without its `type`.
    ///
    /// # Errors
    /// [`TableError::Internal`] when the view does not serialize (logged).
    pub async fn state_json(
        &self,
        viewer: Viewer,
        since: Option<u64>,
    ) -> Result<String, TableError> {
        let (_, text) = self.state_message(viewer, since).await;
        match std::str::from_utf8(&text)
            .ok()
            .and_then(|t| t.strip_prefix(STATE_PREFIX))
        {
            Some(fields) => Ok(format!("{{{fields}")),
            None => Err(TableError::Internal),
        }
    }

    /// What the table is at.
    pub async fn glance(&self) -> Glance {
        let live = self.live.lock().await;
        Glance {
            version: live.version(),
            status: live.status(),
            to_act: live.session.to_act(),
            paused: self.paused_reason(),
        }
    }

    /// `viewer`'s legal moves now (none unless its seat is to act).
    pub async fn legal_now(&self, viewer: Viewer) -> LegalNow {
        let live = self.live.lock().await;
        let (legal, moves) = if live.acting(viewer) {
            let state = live.session.state();
            (state.legal(), state.moves())
        } else {
            (Vec::new(), Vec::new())
        };
        LegalNow {
            version: live.version(),
            to_act: live.session.to_act(),
            legal,
            moves,
        }
    }

    /// How the log names the seats for `viewer`: "you", a given display name, or "seat N"
    /// (with the bot's spec for a bot).
    pub(super) fn log_names(&self, viewer: Viewer) -> Names {
        Names::for_viewer(viewer).with_shared_names(self.seating(|s| s.log_names.clone()))
    }

    /// The game so far as a record. Tables are written in their game's current format.
    pub(crate) fn record(&self, actions: &[Move]) -> GameRecord {
        GameRecord {
            game: self.row.game.clone(),
            config: self.row.config.clone(),
            seed: self.row.seed,
            actions: actions.iter().map(Move::to_string).collect(),
            format: catalog::game(&self.row.game).map_or(1, |g| g.format()),
        }
    }

    /// `viewer`'s board in plain text, as the terminal draws it (the game's view for that
    /// viewer, so nothing another seat keeps hidden), and the version it is at: what a
    /// page shows for reading the whole board at once, e.g. by a screen reader.
    pub async fn board_text(&self, viewer: Viewer) -> (u64, String) {
        let live = self.live.lock().await;
        (live.version(), live.session.state().view_text(viewer))
    }

    /// `viewer`'s log from action `since` on (every action from 0 for the whole log).
    pub async fn log(&self, viewer: Viewer, since: u64) -> (u64, Vec<LogEntry>) {
        let live = self.live.lock().await;
        (live.version(), self.entries(&live, viewer, since))
    }

    pub(super) fn entries(&self, live: &Live, viewer: Viewer, since: u64) -> Vec<LogEntry> {
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
                    events: action
                        .action()
                        .and_then(|action| before.step_events(action, after, viewer, &names))
                        .unwrap_or_default(),
                }
            })
            .collect()
    }

    /// The socket's `state` message for `viewer` now, with the events of every action
    /// after version `since` (the last action alone when `None`), and its version: the viewer's state with `"type": "state"`
    /// first, serialized once per viewer, `since` and version straight from the game's
    /// view (no `Value` tree).
    pub async fn state_message(
        &self,
        viewer: Viewer,
        since: Option<u64>,
    ) -> ((u64, u64), bytes::Bytes) {
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
        // Kept for the other sockets and calls of this version: the usual message (the
        // events of the last move) only, so that a caller naming many older versions
        // cannot make the table keep a text for each.
        let keep = since.saturating_add(1) >= version;
        let mut out = Vec::with_capacity(2048);
        let text = match self.write_state(&live, viewer, since, &mut out) {
            Ok(()) => String::from_utf8(out).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let text = bytes::Bytes::from(text.unwrap_or_else(|e| {
            tracing::error!("table {}: a view does not serialize: {e}", self.row.id);
            r#"{"type":"error","code":"internal","message":"the view does not serialize"}"#
                .to_string()
        }));
        if keep {
            live.pushes.push((viewer, since, text.clone()));
        }
        (stamp, text)
    }

    /// Writes `{"type":"state", ...}`: the fields docs/http-api.md lists for a viewer's
    /// state, in their order.
    pub(super) fn write_state(
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
        out.extend_from_slice(br#","ending":"#);
        serde_json::to_writer(&mut *out, &live.session.ending(&self.log_names(viewer)))?;
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
    pub(super) fn write_entries(
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
            let written = match action.action() {
                Some(action) => {
                    before.write_step_events_json(action, after, viewer, &names, out)?
                }
                None => false,
            };
            if !written {
                out.extend_from_slice(b"[]");
            }
            out.push(b'}');
        }
        out.push(b']');
        Ok(())
    }
}
