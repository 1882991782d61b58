// A table's live connection: the WebSocket that pushes each new snapshot and chat line,
// reconnecting with a growing delay when it drops, and the moves this page sends (over
// the socket, or over HTTP while it is down).
import { h, api } from './ui.js';

/** The connection of table `t` (see table.js for `t`). */
export function makeSocket(t) {
  const { id, token } = t;
  const banner = h('div', { class: 'banner', hidden: true });
  let socket = null;
  let attempt = 0;
  let closedByUs = false;
  let pendingSince = 0;
  let sentVersion = -1;

  const open = () => socket && socket.readyState === WebSocket.OPEN;

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${proto}//${location.host}/api/tables/${id}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => { attempt = 0; banner.hidden = true; t.status.setBody(); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'state') {
        // The move is done once a state after it arrives (the ack comes just before).
        if (t.pending && msg.version > sentVersion) t.pending = false;
        t.show(msg);
      } else if (msg.type === 'chat') {
        t.chat.add(msg.line);
      } else if (msg.type === 'storage') {
        // The server's database stopped answering, or answers again.
        banner.hidden = msg.available;
        banner.textContent = msg.message;
        if (msg.available) resync();
      } else if (msg.type === 'error') {
        t.pending = false;
        t.status.flash(msg.message || msg.code);
        resync();
      }
    };
    ws.onclose = async () => {
      if (socket !== ws || closedByUs) return;
      t.pending = false;
      t.status.setBody();
      attempt += 1;
      const delay = Math.min(10000, 250 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() / 2);
      banner.hidden = false;
      banner.textContent = `Connection lost — reconnecting in ${(delay / 1000).toFixed(1)} s…`;
      if (attempt >= 3 && token) {
        // A refused token never reconnects: say so instead of retrying for ever.
        try { await api(`/api/tables/${id}/view`, { token }); } catch (e) {
          if (e.code && e.code.startsWith('auth/')) { banner.textContent = 'This link opens no seat at this table: check that the whole link was copied, or open the table from the lobby to watch.'; return; }
        }
      }
      setTimeout(connect, delay);
    };
  }

  /** Plays `text`, the action of a legal move, on the snapshot on show; or, given a
   * list, its moves in order as one decision of the player (a trade composed in one
   * dialog, every die retrieved): one request, checked whole by the server. */
  function send(text) {
    const { snap } = t;
    if (t.pending || !snap) return;
    t.pending = true;
    pendingSince = Date.now();
    sentVersion = snap.version;
    t.board.clicks.clear();
    t.board.decorate();
    const move = Array.isArray(text) ? { actions: text } : { action: text };
    if (open()) {
      socket.send(JSON.stringify({ type: 'action', ...move, version: snap.version }));
    } else {
      api(`/api/tables/${id}/actions`, { method: 'POST', token, body: { ...move, version: snap.version } })
        .then((s) => { t.pending = false; t.show(s); })
        .catch((e) => { t.pending = false; t.status.flash(e.message); resync(); });
    }
  }

  /** Asks for the snapshot again. */
  function resync() {
    if (open()) socket.send(JSON.stringify({ type: 'sync' }));
    else api(token ? `/api/tables/${id}/view` : `/api/tables/${id}/spectate`, { token }).then(t.show).catch(() => {});
  }

  // A safety net for a push that never came (a busy server, a socket that died quietly):
  // while waiting on others or on our own move, ask for the state every few seconds, and
  // give up on a move that got no answer so it can be made again.
  setInterval(() => {
    const { snap } = t;
    if (!snap || snap.status === 'finished') return;
    if (t.pending && Date.now() - pendingSince > 5000) { t.pending = false; t.board.decorate(); }
    if (t.pending || snap.to_act !== snap.seat) resync();
  }, 3000);

  window.addEventListener('beforeunload', () => { closedByUs = true; });

  return {
    /** The line that says the connection is lost. */
    banner,
    connect,
    send,
    resync,
    /** Whether the socket is open now. */
    connected: open,
    /** Drops the connection as a network failure would. */
    drop() { if (socket) socket.close(); },
    /** The page is leaving (to another table): no reconnection. */
    leave() { closedByUs = true; },
  };
}
