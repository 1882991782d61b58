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
  // The rest of a sequence of moves the page sends for one decision of the player (a
  // trade composed in one dialog, every die retrieved): each is sent once the state
  // after the one before has come, while it is legal.
  let queue = [];

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
        next();
      } else if (msg.type === 'chat') {
        t.chat.add(msg.line);
      } else if (msg.type === 'storage') {
        // The server's database stopped answering, or answers again.
        banner.hidden = msg.available;
        banner.textContent = msg.message;
        if (msg.available) resync();
      } else if (msg.type === 'error') {
        t.pending = false;
        queue = [];
        t.status.flash(msg.message || msg.code);
        resync();
      }
    };
    ws.onclose = async () => {
      if (socket !== ws || closedByUs) return;
      t.pending = false;
      queue = [];
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

  /** Plays `text`, the action of a legal move, on the snapshot on show. */
  function send(text) {
    const { snap } = t;
    if (t.pending || !snap) return;
    t.pending = true;
    pendingSince = Date.now();
    sentVersion = snap.version;
    t.board.clicks.clear();
    t.board.decorate();
    const msg = { type: 'action', action: text, version: snap.version };
    if (open()) {
      socket.send(JSON.stringify(msg));
    } else {
      api(`/api/tables/${id}/actions`, { method: 'POST', token, body: { action: text, version: snap.version } })
        .then((s) => { t.pending = false; t.show(s); next(); })
        .catch((e) => { t.pending = false; queue = []; t.status.flash(e.message); resync(); });
    }
  }

  /** Plays the moves `list` in order, each once the one before is done. */
  function sendAll(list) {
    if (t.pending || !t.snap || !list.length) return;
    queue = list.slice(1);
    send(list[0]);
  }

  // The next move of a sequence, on the state its last move made; a move that is not
  // legal there (the game went another way) drops the rest, and says so.
  function next() {
    const { snap } = t;
    if (!queue.length || t.pending || !snap) return;
    const action = queue.shift();
    if (snap.legal.includes(action)) {
      send(action);
    } else {
      queue = [];
      t.status.flash(`The rest was not sent: “${action}” is not a legal move now.`);
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
    sendAll,
    /** Whether moves of a sequence are still to be sent. */
    queued: () => queue.length > 0,
    resync,
    /** Whether the socket is open now. */
    connected: open,
    /** Drops the connection as a network failure would. */
    drop() { if (socket) socket.close(); },
    /** The page is leaving (to another table): no reconnection. */
    leave() { closedByUs = true; },
  };
}
