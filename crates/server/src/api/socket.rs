//! The WebSocket sessions: a page's live connection to its table.

use super::extract::*;

/// What a client may send on its WebSocket (docs/http-api.md), decoded from one text
/// frame by [`ClientMessage::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// Play an action chosen on `version`.
    Action { action: String, version: u64 },
    /// Play these actions in order, chosen on `version`, as one decision (a trade
    /// composed in one dialog): all are checked before any is kept.
    Actions { actions: Vec<String>, version: u64 },
    /// Send the current view again.
    Sync,
}

pub(crate) async fn websocket(
    State(hub): Hubs,
    Extension(pings): Extension<Pings>,
    permit: Option<Extension<ConnectionPermit>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    Caller { table, viewer, .. }: Caller,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::malformed(format!("expected a WebSocket upgrade: {}", e.body_text()))
    })?;
    Ok(upgrade
        .max_message_size(MAX_BODY)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .write_buffer_size(SOCKET_WRITE_BUFFER)
        .max_write_buffer_size(SOCKET_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| async move {
            // The connection's permit lives as long as the socket.
            let _permit = permit;
            let _open = OpenSocket::count(&hub);
            // (A seat's player was heard from as the call came in: see `Caller`.)
            match viewer.seat() {
                Some(seat) => hub.socket(&table, seat, true).await,
                None => hub.watch(&table, Some(true)).await,
            }
            session(hub.clone(), table.clone(), viewer, pings, socket).await;
            match viewer.seat() {
                Some(seat) => hub.socket(&table, seat, false).await,
                None => hub.watch(&table, Some(false)).await,
            }
        }))
}

/// One open socket, counted while it lives (`tabletop_sockets_open`).
struct OpenSocket(Arc<Hub>);

impl OpenSocket {
    fn count(hub: &Arc<Hub>) -> OpenSocket {
        hub.metrics()
            .sockets
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenSocket(hub.clone())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        (self.0.metrics().sockets).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A socket's read buffer. Client messages are small (an action is under 300 bytes);
/// tungstenite zero-fills its whole read buffer before every read, and its 128 KiB
/// default cost more CPU per move than anything else.
pub(super) const SOCKET_READ_BUFFER: usize = 2 * 1024;

/// Frames are gathered up to this size until a flush (an `ack` and the `state` that
/// follows it leave in one write).
pub(super) const SOCKET_WRITE_BUFFER: usize = 16 * 1024;

/// A client that does not read its socket is cut off when this much is waiting for it.
pub(super) const SOCKET_MAX_WRITE_BUFFER: usize = 1024 * 1024;

/// How sockets are pinged (from [`crate::ConnectionLimits`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pings {
    pub interval: std::time::Duration,
    pub misses: u32,
    /// The longest a send may wait for the client to take it ([`crate::ConnectionLimits`]).
    pub send_timeout: std::time::Duration,
}

/// Waits until the server shuts down.
async fn stopped(stopping: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}

/// Whether `send` (a send, feed or flush on a socket) went through within `wait`; a
/// client that took nothing for that long (it reads nothing, its buffers are full) is
/// counted, and its socket is to be closed.
async fn within(
    hub: &Hub,
    wait: std::time::Duration,
    send: impl std::future::Future<Output = Result<(), axum::Error>>,
) -> bool {
    match tokio::time::timeout(wait, send).await {
        Ok(sent) => sent.is_ok(),
        Err(_) => {
            (hub.metrics().sockets_stalled).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::debug!("a socket took nothing for {wait:?}: closed");
            false
        }
    }
}

/// Every field a client message may have; which of them a message needs goes by its
/// `type`. Read straight from the text (no `Value` tree): a socket reads one a move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MessageFields<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    action: Option<std::borrow::Cow<'a, str>>,
    actions: Option<Vec<String>>,
    version: Option<u64>,
}

impl ClientMessage {
    /// Parses one text frame; a field a message does not have is refused.
    ///
    /// # Errors
    /// `request/malformed`: not a JSON object, an unknown `type`, a missing or unknown
    /// field.
    pub fn parse(text: &str) -> Result<ClientMessage, ApiError> {
        let bad = |e: &dyn std::fmt::Display| {
            ApiError::malformed(format!("bad message: {}", truncate(&e.to_string(), 300)))
        };
        // A struct would also be read from a JSON array of its fields.
        if !text.trim_start().starts_with('{') {
            return Err(bad(&"a message is a JSON object"));
        }
        let fields: MessageFields = serde_json::from_str(text).map_err(|e| bad(&e))?;
        match fields.kind.as_deref() {
            Some("action") => match (fields.action, fields.actions, fields.version) {
                (Some(action), None, Some(version)) => Ok(ClientMessage::Action {
                    action: action.into_owned(),
                    version,
                }),
                (None, Some(actions), Some(version)) => {
                    Ok(ClientMessage::Actions { actions, version })
                }
                (Some(_), Some(_), _) => Err(bad(&"a move has `action` or `actions`, not both")),
                (None, None, _) => Err(bad(&"missing field `action`")),
                (_, _, None) => Err(bad(&"missing field `version`")),
            },
            Some("sync") => match (&fields.action, &fields.actions, &fields.version) {
                (None, None, None) => Ok(ClientMessage::Sync),
                (Some(_), _, _) => Err(bad(&"unknown field `action` in a sync message")),
                (_, Some(_), _) => Err(bad(&"unknown field `actions` in a sync message")),
                (_, _, Some(_)) => Err(bad(&"unknown field `version` in a sync message")),
            },
            _ => Err(bad(&"`type` is `action` or `sync`")),
        }
    }
}

/// What the server sends on a WebSocket. (The `state` message, the viewer's view after a
/// change and at once on connecting, is written by [`Table::state_message`].)
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub(super) enum ServerMessage {
    /// An action sent on this socket was committed.
    Ack { version: u64 },
    Error {
        code: &'static str,
        /// The rule that refused (`dropsite/not_lower`), as in an HTTP error's body.
        #[serde(skip_serializing_if = "Option::is_none")]
        refusal: Option<&'static str>,
        message: String,
    },
    /// A new chat line.
    Chat { line: ChatRow },
    /// The database stopped answering (`available: false`: moves are refused until it is
    /// back) or answers again; sent on connecting during an outage too.
    Storage {
        available: bool,
        message: &'static str,
    },
}

/// The socket message that tells whether the store is `down`.
fn storage(down: bool) -> ServerMessage {
    ServerMessage::Storage {
        available: !down,
        message: if down {
            "Reconnecting to storage: moves wait until it is back."
        } else {
            "Storage is back: play on."
        },
    }
}

pub(super) fn encode(message: &ServerMessage) -> Message {
    Message::Text(
        serde_json::to_string(message)
            .unwrap_or_else(|_| "{\"type\":\"error\",\"code\":\"internal\"}".into())
            .into(),
    )
}

/// One socket: the viewer's `state` at once and after every change (with the events of
/// every action since the last one it sent), the viewer's actions played, and pings.
/// Queued frames leave in one write per wake-up (`feed`, then `flush`): a move's `ack` and
/// its `state` go out together.
pub(super) async fn session(
    hub: Arc<Hub>,
    table: Arc<Table>,
    viewer: Viewer,
    pings: Pings,
    mut socket: WebSocket,
) {
    let mut changes = table.subscribe();
    let mut chat = table.subscribe_chat();
    // The version last sent; before the first push, the events of the last action.
    let mut sent = None;
    let wait = pings.send_timeout;
    let mut stopping = hub.stopping();
    let mut store_down = hub.metrics().store_down.subscribe();
    let down = *store_down.borrow_and_update();
    if down && !within(&hub, wait, socket.feed(encode(&storage(true)))).await {
        return;
    }
    if !push_state(&hub, wait, &table, viewer, false, &mut sent, &mut socket).await
        || !within(&hub, wait, socket.flush()).await
    {
        return;
    }
    let mut ping =
        tokio::time::interval_at(tokio::time::Instant::now() + pings.interval, pings.interval);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Pings sent since the client last sent anything.
    let mut unanswered = 0u32;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if unanswered >= pings.misses {
                    // A client that reads nothing may never take the close frame either.
                    let close = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: axum::extract::ws::close_code::AWAY,
                        reason: "no answer to pings".into(),
                    })));
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), close).await;
                    return;
                }
                unanswered += 1;
                if !within(&hub, wait, socket.send(Message::Ping(Bytes::new()))).await {
                    return;
                }
            }
            changed = store_down.changed() => {
                if changed.is_err() {
                    return;
                }
                let down = *store_down.borrow_and_update();
                if !within(&hub, wait, socket.send(encode(&storage(down)))).await {
                    return;
                }
            }
            () = stopped(&mut stopping) => {
                // The server shuts down: the page is told why, and may reconnect soon.
                let close = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: axum::extract::ws::close_code::RESTART,
                    reason: "the server is restarting: reconnect in a moment".into(),
                })));
                let _ = tokio::time::timeout(std::time::Duration::from_secs(1), close).await;
                return;
            }
            line = chat.recv() => match line {
                Ok(line) => {
                    let line = table.told_to(line, viewer);
                    if !within(&hub, wait, socket.send(encode(&ServerMessage::Chat { line }))).await {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            change = changes.recv() => match change {
                Ok(_) | Err(RecvError::Lagged(_)) => {
                    // Every action since the last push is told, however many came at once.
                    if !push_state(&hub, wait, &table, viewer, false, &mut sent, &mut socket).await
                        || !within(&hub, wait, socket.flush()).await
                    {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            message = socket.recv() => {
                unanswered = 0;
                let parsed = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(text))) => ClientMessage::parse(text.as_str()),
                    Some(Ok(Message::Binary(_))) => Err(ApiError::malformed(
                        "binary frames carry nothing here: send messages as JSON text",
                    )),
                    // Pings are answered by the WebSocket layer; pongs carry nothing.
                    Some(Ok(_)) => continue,
                };
                let reply = match parsed {
                    Err(e) => Err(e),
                    Ok(ClientMessage::Sync) => {
                        // Sent again even when nothing changed.
                        if !push_state(&hub, wait, &table, viewer, true, &mut sent, &mut socket).await
                            || !within(&hub, wait, socket.flush()).await
                        {
                            return;
                        }
                        continue;
                    }
                    Ok(ClientMessage::Action { action, version }) => match viewer.seat() {
                        None => Err(ApiError::token_required()),
                        Some(seat) => match hub.count_action(&table, seat) {
                            Ok(()) => match hub.parse_move(&table, &action, version).await {
                                Ok(mv) => hub
                                    .play(&table, seat, &mv, version, By::Player)
                                    .await
                                    .map_err(ApiError::from),
                                Err(e) => Err(e.into()),
                            },
                            Err(e) => Err(e.into()),
                        },
                    },
                    Ok(ClientMessage::Actions { actions, version }) => match viewer.seat() {
                        None => Err(ApiError::token_required()),
                        Some(seat) => match hub.count_action(&table, seat) {
                            Ok(()) => hub
                                .play_sequence(&table, seat, &actions, version)
                                .await
                                .map_err(ApiError::from),
                            Err(e) => Err(e.into()),
                        },
                    },
                };
                let message = match reply {
                    Ok(played) => ServerMessage::Ack { version: played.version },
                    Err(e) => {
                        hub.metrics().refused(e.code);
                        ServerMessage::Error {
                        code: e.code,
                        refusal: e.refusal,
                        message: e.message,
                    }},
                };
                if !within(&hub, wait, socket.feed(encode(&message))).await {
                    return;
                }
                // The move's own change is already announced: its state goes out in the
                // same write as the ack.
                let pushed = match changes.try_recv() {
                    Ok(_) | Err(TryRecvError::Lagged(_)) => {
                        push_state(&hub, wait, &table, viewer, false, &mut sent, &mut socket).await
                    }
                    Err(TryRecvError::Empty) => true,
                    Err(TryRecvError::Closed) => false,
                };
                if !pushed || !within(&hub, wait, socket.flush()).await {
                    return;
                }
            }
        }
    }
}

/// Queues the viewer's `state` if the table moved on since the version sent last, or
/// whether or not it did when `always` (a `sync`), with the events since the version sent
/// last; `false` when the socket failed.
pub(super) async fn push_state(
    hub: &Hub,
    wait: std::time::Duration,
    table: &Table,
    viewer: Viewer,
    always: bool,
    sent: &mut Option<(u64, u64)>,
    socket: &mut WebSocket,
) -> bool {
    let (stamp, text) = table.state_message(viewer, sent.map(|s| s.0)).await;
    if !always && *sent == Some(stamp) {
        return true;
    }
    *sent = Some(stamp);
    // The table writes UTF-8 (JSON text): checked here, not copied.
    match axum::extract::ws::Utf8Bytes::try_from(text) {
        Ok(text) => within(hub, wait, socket.feed(Message::Text(text))).await,
        Err(e) => {
            tracing::error!("a state message is not UTF-8: {e}");
            false
        }
    }
}
