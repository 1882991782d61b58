//! The table's chat: a person's line, or one of the table's notes. A note is stored as
//! everyone but its seat reads it ("Seat 1 (Ann) asked for a hint"), and told to its own
//! seat's player in the second person ("You asked for a hint") when it is sent.

use super::hub::*;

/// One of the table's notes about a seat: each a whole sentence with its parameters, for
/// the seat's own player ("you") or for anyone else (the seat's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Note<'a> {
    /// The seat asked the coach for a hint.
    Hint,
    /// The seat's player is back and plays again.
    Back,
    /// A bot (`bot`, its spec) plays for the seat: its time ran out, or its player left.
    TookOver { bot: &'a str, timed_out: bool },
}

/// How a note names its seat.
pub(super) enum Reader<'a> {
    /// The seat's own player.
    Own,
    /// Anyone else: the seat's number ("Seat 1") and its display name.
    Other { unnamed: &'a str, name: &'a str },
}

impl Note<'_> {
    pub(super) fn kind(self) -> ChatKind {
        match self {
            Note::Hint => ChatKind::Hint,
            Note::Back => ChatKind::Back,
            Note::TookOver { .. } => ChatKind::TookOver,
        }
    }

    /// The note in words for `reader`.
    pub(super) fn text(self, reader: &Reader<'_>) -> String {
        match (self, reader) {
            (Note::Hint, Reader::Own) => "You asked for a hint".into(),
            (Note::Hint, Reader::Other { unnamed, name }) if unnamed == name => {
                format!("{unnamed} asked for a hint")
            }
            (Note::Hint, Reader::Other { unnamed, name }) => {
                format!("{unnamed} ({name}) asked for a hint")
            }
            (Note::Back, Reader::Own) => "You are back and play again".into(),
            (Note::Back, Reader::Other { name, .. }) => format!("{name} is back and plays again"),
            (Note::TookOver { bot, timed_out }, Reader::Own) => {
                let why = if timed_out {
                    "your time ran out"
                } else {
                    "you left the table"
                };
                format!("a bot ({bot}) plays for you: {why}; coming back with your link takes your seat back")
            }
            (Note::TookOver { bot, timed_out }, Reader::Other { name, .. }) => {
                let why = if timed_out {
                    "the time ran out"
                } else {
                    "the player left"
                };
                format!("a bot ({bot}) plays for {name}: {why}; coming back with the seat's link takes the seat back")
            }
        }
    }

    /// The note a stored line holds, read back from its kind and its text as others read
    /// it (`name`: the seat's display name); `None` for a person's line, or a text this
    /// server did not write.
    fn of_line<'t>(line: &'t ChatRow, name: &str) -> Option<Note<'t>> {
        match line.kind {
            ChatKind::Chat => None,
            ChatKind::Hint => Some(Note::Hint),
            ChatKind::Back => Some(Note::Back),
            ChatKind::TookOver => {
                let rest = line.text.strip_prefix("a bot (")?;
                let (bot, rest) = rest.split_once(") plays for ")?;
                let why = rest.strip_prefix(name)?.strip_prefix(": ")?;
                let timed_out = if why.starts_with("the time ran out") {
                    true
                } else if why.starts_with("the player left") {
                    false
                } else {
                    return None;
                };
                Some(Note::TookOver { bot, timed_out })
            }
        }
    }
}

impl Table {
    /// `line` as `viewer` reads it: a note about the viewer's own seat told in the second
    /// person, anything else as stored.
    pub fn told_to(&self, mut line: ChatRow, viewer: Viewer) -> ChatRow {
        let (Some(seat), Some(mine)) = (line.seat, viewer.seat()) else {
            return line;
        };
        if seat != mine {
            return line;
        }
        let names = self.display_names();
        let Some(name) = names.get(seat) else {
            return line;
        };
        if let Some(note) = Note::of_line(&line, name) {
            line.text = note.text(&Reader::Own);
        }
        line
    }
}

impl Hub {
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
    ) -> Result<ChatRow, TableError> {
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
                .map_err(|wait| rate_limited(Rate::Chat, wait))?;
        }
        self.add_line(table, seat, name, text, ChatKind::Chat).await
    }

    /// Stores and pushes the table's note about `seat`, in the words everyone but that
    /// seat reads ([`Table::told_to`] tells it to the seat's own player).
    pub(super) async fn add_note(
        &self,
        table: &Arc<Table>,
        seat: Seat,
        note: Note<'_>,
    ) -> Result<ChatRow, TableError> {
        let name = table.display_names()[seat].clone();
        let unnamed = engine::log::unnamed_seat(seat);
        let text = note.text(&Reader::Other {
            unnamed: &unnamed,
            name: &name,
        });
        self.add_line(table, Some(seat), "table".into(), text, note.kind())
            .await
    }

    /// Stores and pushes a chat line at the next place of `table`'s chat.
    pub(super) async fn add_line(
        &self,
        table: &Arc<Table>,
        seat: Option<Seat>,
        name: String,
        text: String,
        kind: ChatKind,
    ) -> Result<ChatRow, TableError> {
        for attempt in 0..3 {
            let line = ChatRow {
                seq: table.next_chat_seq(),
                at: super::store::now_ms(),
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
                Err(e) => return Err(TableError::store(e)),
            }
        }
        Err(TableError::internal("the chat line could not be placed"))
    }
}
