//! The table's chat: a person's line, or one of the table's notes.

use super::*;

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
                .map_err(|wait| rate_limited("chat lines", wait, "--no-rate-limits"))?;
        }
        self.add_line(table, seat, name, text, ChatKind::Chat).await
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
                Err(e) => return Err(TableError::internal(e)),
            }
        }
        Err(TableError::internal("the chat line could not be placed"))
    }
}
