// A table: the live connection (WebSocket with reconnection), the click model that maps
// board elements to the legal action texts, and the end screen. Each game's module draws
// its board.
import { h, api, GAME_TITLES, seatName, fullName, setSeatNames, ordinal } from './app.js';

const GAMES = {
  dropsite: () => import('./dropsite.js'),
  distopia: () => import('./distopia.js'),
  euphoria: () => import('./euphoria.js'),
};

/**
 * The click model. A game maps each legal action text to `{src, dst}`: keys of board
 * elements (`data-key`). An action with both is played by clicking its source, then its
 * target; with one of them, by one click. Any action the board does not show becomes a
 * button, so every legal action is always offered, and nothing else is.
 */
class Moves {
  constructor(legal, game, snap) {
    this.list = legal.map((text) => ({ text, ...(game.mapAction(text, snap) || {}) }));
  }
  from(src) { return this.list.filter((m) => m.src === src); }
  onlyTo(dst) { return this.list.filter((m) => !m.src && m.dst === dst); }
}

export async function showTable(root, id, token) {
  const summary = await api(`/api/tables/${id}`).catch((e) => { throw new Error(`table ${id}: ${e.message}`); });
  const game = await GAMES[summary.game]();
  if (game.prepare) await game.prepare();
  const title = GAME_TITLES[summary.game] || summary.game;
  document.title = `Tabletop — ${title}`;
  document.body.dataset.game = summary.game;

  const status = h('div', { class: 'status-line' });
  const banner = h('div', { class: 'banner', hidden: true });
  const board = h('div', { class: `board ${summary.game}` });
  const buttons = h('div', { class: 'actions' });
  const endScreen = h('div', { class: 'end-holder' });
  const toast = h('div', { class: 'toast', hidden: true });
  root.replaceChildren(h('div', { class: 'table-page' }, status, banner, endScreen, board, buttons, toast));
  document.getElementById('top-info').textContent = `${title} · table ${id}`;
  // A creator-chosen seed: its creator may know every hidden card, so say so.
  if (summary.seed_chosen) {
    document.getElementById('top-info').append(' ', h('span', { class: 'seed-chosen', id: 'seed-chosen', title: 'The creator chose this table\'s seed and may know the hidden cards.' }, 'seed chosen by creator'));
  }

  let snap = null;
  let moves = new Moves([], game, null);
  let selected = null;
  let pending = false;
  let pendingSince = 0;
  let sentVersion = -1;
  let socket = null;
  let attempt = 0;
  let closedByUs = false;
  let toastTimer = null;

  function flash(text) {
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 2500);
  }

  function setBody() {
    const ds = document.body.dataset;
    ds.version = snap ? snap.version : '';
    ds.status = snap ? snap.status : '';
    ds.myturn = snap && snap.seat !== null && snap.to_act === snap.seat && snap.legal.length > 0 && !pending ? 'yes' : 'no';
    ds.pending = pending ? 'yes' : 'no';
    ds.connected = socket && socket.readyState === WebSocket.OPEN ? 'yes' : 'no';
  }

  function send(text) {
    if (pending || !snap) return;
    pending = true;
    pendingSince = Date.now();
    sentVersion = snap.version;
    selected = null;
    decorate();
    const msg = { type: 'action', action: text, version: snap.version };
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(msg));
    } else {
      api(`/api/tables/${id}/actions`, { method: 'POST', token, body: { action: text, version: snap.version } })
        .then((s) => { pending = false; show(s); })
        .catch((e) => { pending = false; flash(e.message); resync(); });
    }
  }

  function resync() {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'sync' }));
    else api(token ? `/api/tables/${id}/view` : `/api/tables/${id}/spectate`, { token }).then(show).catch(() => {});
  }

  // Marks what may be clicked now and lays out the buttons.
  function decorate() {
    setBody();
    const present = new Set([...board.querySelectorAll('[data-key]')].map((e) => e.dataset.key));
    for (const el of board.querySelectorAll('[data-key]')) {
      const k = el.dataset.key;
      el.classList.remove('pick', 'drop', 'selected');
      if (pending) continue;
      if (selected !== null) {
        if (k === selected) el.classList.add('selected');
        else if (moves.list.some((m) => m.src === selected && m.dst === k)) el.classList.add('drop');
      } else if (moves.from(k).length || moves.onlyTo(k).length) {
        el.classList.add('pick');
      }
    }
    // Buttons: actions the board cannot show, and (with a source selected) its targets
    // that are not on the board.
    const loose = moves.list.filter((m) => {
      if (m.src && !present.has(m.src)) return true;
      if (!m.src && (!m.dst || !present.has(m.dst))) return true;
      return false;
    });
    const extra = selected === null ? [] : moves.from(selected).filter((m) => !m.dst || !present.has(m.dst));
    const shown = selected === null ? loose : extra;
    buttons.replaceChildren(...(pending ? [] : shown.map((m) => h('button', {
      class: 'act-btn',
      dataset: { action: m.text },
      onclick: () => send(m.text),
    }, (game.label && game.label(m.text, snap)) || m.text))));
    if (selected !== null) {
      buttons.prepend(h('button', { class: 'cancel-btn', onclick: () => { selected = null; decorate(); } }, 'Cancel'));
    }
  }

  board.addEventListener('click', (ev) => {
    if (pending || !snap || !snap.legal.length) return;
    // The innermost element whose key does something now.
    let el = ev.target.closest('[data-key]');
    while (el && board.contains(el)) {
      const k = el.dataset.key;
      if (selected !== null) {
        const m = moves.list.find((x) => x.src === selected && x.dst === k);
        if (m) { send(m.text); return; }
        if (k === selected) { selected = null; decorate(); return; }
      }
      const from = moves.from(k);
      if (from.length) {
        if (from.length === 1 && !from[0].dst) { send(from[0].text); return; }
        selected = k;
        decorate();
        return;
      }
      const to = moves.onlyTo(k);
      if (to.length === 1) { send(to[0].text); return; }
      if (to.length > 1) {
        buttons.replaceChildren(...to.map((m) => h('button', { class: 'act-btn', dataset: { action: m.text }, onclick: () => send(m.text) }, (game.label && game.label(m.text, snap)) || m.text)));
        return;
      }
      el = el.parentElement && el.parentElement.closest('[data-key]');
    }
    if (selected !== null) { selected = null; decorate(); }
  });

  function drawStatus() {
    const mine = snap.seat;
    let text;
    if (snap.status === 'finished') text = 'Game over';
    else if (snap.to_act === mine && mine !== null) text = snap.legal.length ? 'Your turn' : 'Your turn (waiting)';
    else if (snap.to_act !== null) text = `${seatName(snap.to_act, mine)} to play`;
    else text = '';
    const who = mine === null ? 'Watching' : `You are ${fullName(mine, null)}, seat ${mine + 1}`;
    status.replaceChildren(
      h('span', { class: `turn ${snap.to_act === mine && mine !== null ? 'mine' : ''}` }, text),
      h('span', { class: 'muted' }, `${who} · move ${snap.version}`),
      h('a', { class: 'button small', href: '/' }, 'Lobby'));
  }

  function drawEnd() {
    if (snap.status !== 'finished' || !snap.outcome) { endScreen.replaceChildren(); return; }
    const { scores, places } = snap.outcome;
    const order = scores.map((_, s) => s).sort((a, b) => places[a] - places[b]);
    const winners = order.filter((s) => places[s] === 0);
    const headline = winners.includes(snap.seat)
      ? (winners.length > 1 ? 'You share the win!' : 'You win!')
      : `${winners.map((s) => seatName(s, snap.seat)).join(' and ')} win${winners.length > 1 ? '' : 's'}`;
    endScreen.replaceChildren(h('div', { class: 'panel end-screen' },
      h('h2', {}, headline),
      h('table', { class: 'scores' },
        h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Score')),
        order.map((s) => h('tr', { class: places[s] === 0 ? 'winner' : '' },
          h('td', {}, ordinal(places[s])), h('td', {}, fullName(s, snap.seat)), h('td', {}, String(scores[s]))))),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
  }

  function show(next) {
    if (!next || (snap && next.version < snap.version)) return;
    const moved = snap && next.version > snap.version;
    if (moved && snap.to_act !== null && snap.to_act !== snap.seat) {
      flash(`${seatName(snap.to_act, snap.seat)} moved`);
    }
    if (!snap || next.version !== snap.version) selected = null;
    snap = next;
    setSeatNames(snap.names);
    moves = new Moves(snap.legal, game, snap);
    drawStatus();
    drawEnd();
    board.replaceChildren(game.render(snap));
    decorate();
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${proto}//${location.host}/api/tables/${id}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => { attempt = 0; banner.hidden = true; setBody(); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'state') {
        // The move is done once a state after it arrives (the ack comes just before).
        if (pending && msg.version > sentVersion) pending = false;
        show(msg);
      } else if (msg.type === 'error') {
        pending = false;
        flash(msg.message || msg.code);
        resync();
      }
    };
    ws.onclose = async () => {
      if (socket !== ws || closedByUs) return;
      pending = false;
      setBody();
      attempt += 1;
      const delay = Math.min(10000, 250 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() / 2);
      banner.hidden = false;
      banner.textContent = `Connection lost — reconnecting in ${(delay / 1000).toFixed(1)} s…`;
      if (attempt >= 3 && token) {
        // A refused token never reconnects: say so instead of retrying for ever.
        try { await api(`/api/tables/${id}/view`, { token }); } catch (e) {
          if (e.code && e.code.startsWith('auth/')) { banner.textContent = `This link's seat token is not valid: ${e.message}`; return; }
        }
      }
      setTimeout(connect, delay);
    };
  }

  // A safety net for a push that never came (a busy server, a socket that died quietly):
  // while waiting on others or on our own move, ask for the state every few seconds, and
  // give up on a move that got no answer so it can be made again.
  setInterval(() => {
    if (!snap || snap.status === 'finished') return;
    if (pending && Date.now() - pendingSince > 5000) { pending = false; decorate(); }
    if (pending || snap.to_act !== snap.seat) resync();
  }, 3000);

  window.addEventListener('beforeunload', () => { closedByUs = true; });
  // For tests and the curious: drop the connection as a network failure would.
  window.tabletop = { dropConnection: () => socket && socket.close() };
  connect();
}
