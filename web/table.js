// A table: the live connection (WebSocket with reconnection), the click model that maps
// board elements to the legal action texts, the game log (what each move did, told in
// order), and the end screen. Each game's module draws its board from the snapshot and
// the game's description (`GET /api/games/{game}`), and names what each event touched.
import { h, api, aboutGame, nameEl, seatName, fullName, setSeatNames, withNames, ordinal, tokens, rulesHref, waitWords } from './app.js';

const GAMES = {
  dropsite: () => import('./dropsite.js'),
  distopia: () => import('./distopia.js'),
  euphoria: () => import('./euphoria.js'),
};

/**
 * The click model. The game describes each legal move (`moves`): the action to send, a
 * label in words, and the keys of the board elements (`data-key`) it takes (`from`) and
 * where it goes (`to`). A move with both is played by clicking its source, then its
 * target; with one of them, by one click. Any move the board does not show becomes a
 * button with its label, so every legal action is always offered, and nothing else is.
 *
 * `boardClicks` wires it to a board and its row of buttons: `send(action)` plays a move,
 * `canPlay()` says whether a click may play now, `busy()` whether a move is on its way
 * (nothing is offered then), `onOther(ev)` hears a click on nothing playable. The table
 * page and the lesson page both play through it.
 */
class Moves {
  constructor(moves) {
    this.list = (moves || []).map((m) => ({ text: m.action, label: m.label, src: m.from, dst: m.to }));
  }
  from(src) { return this.list.filter((m) => m.src === src); }
  onlyTo(dst) { return this.list.filter((m) => !m.src && m.dst === dst); }
}

/** Puts a popup (position: fixed) just below `el`, or above it where the window has no
 * room below, kept inside the window's width. */
export function placeBeside(pop, el) {
  const r = el.getBoundingClientRect();
  const gap = 6;
  const w = pop.offsetWidth;
  const ht = pop.offsetHeight;
  const left = Math.max(gap, Math.min(window.innerWidth - w - gap, r.left + r.width / 2 - w / 2));
  const below = r.bottom + gap + ht <= window.innerHeight;
  const top = below ? r.bottom + gap : Math.max(gap, r.top - gap - ht);
  Object.assign(pop.style, { left: `${left}px`, top: `${top}px` });
}

export function boardClicks({ board, buttons, send, canPlay, busy = () => false, onOther = () => {} }) {
  let moves = new Moves([]);
  let selected = null;
  // A move picked among the coach's suggestions (its action), shown until it is played.
  let hinted = null;
  const play = (text) => { selected = null; hinted = null; send(text); };

  // Marks what may be clicked now and lays out the buttons.
  function decorate() {
    const pending = busy();
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
      class: `act-btn ${m.text === hinted ? 'hinted' : ''}`,
      dataset: { action: m.text },
      onclick: () => play(m.text),
    }, m.label || m.text))));
    if (selected !== null) {
      buttons.prepend(h('button', { class: 'cancel-btn', onclick: () => { selected = null; hinted = null; decorate(); } }, 'Cancel'));
    }
    // The suggested move the player picked: where it is on the board, to be confirmed by
    // a click like any move.
    const pick = hinted !== null && !pending ? moves.list.find((m) => m.text === hinted) : null;
    for (const el of board.querySelectorAll('[data-key]')) {
      el.classList.toggle('hinted', Boolean(pick) && (el.dataset.key === pick.dst || (el.dataset.key === pick.src && !pick.dst)));
    }
  }

  board.addEventListener('click', (ev) => {
    const playable = ev.target.closest('.pick, .drop, .selected');
    if (!playable) onOther(ev);
    if (!canPlay()) return;
    // The innermost element whose key does something now.
    let el = ev.target.closest('[data-key]');
    while (el && board.contains(el)) {
      const k = el.dataset.key;
      if (selected !== null) {
        const m = moves.list.find((x) => x.src === selected && x.dst === k);
        if (m) { play(m.text); return; }
        if (k === selected) { selected = null; decorate(); return; }
      }
      const from = moves.from(k);
      if (from.length) {
        if (from.length === 1 && !from[0].dst) { play(from[0].text); return; }
        selected = k;
        decorate();
        return;
      }
      const to = moves.onlyTo(k);
      if (to.length === 1) { play(to[0].text); return; }
      if (to.length > 1) {
        buttons.replaceChildren(...to.map((m) => h('button', { class: 'act-btn', dataset: { action: m.text }, onclick: () => play(m.text) }, m.label || m.text)));
        return;
      }
      el = el.parentElement && el.parentElement.closest('[data-key]');
    }
    if (selected !== null) { selected = null; decorate(); }
  });

  return {
    /** The legal moves now. */
    setMoves(list) { moves = new Moves(list); },
    /** Drops the selected source and the picked suggestion (a new position, or a move sent). */
    clear() { selected = null; hinted = null; },
    /** Marks a suggested move to be confirmed by a click: its source picked when it goes
     * from one thing on the board to another. False when it is not legal now. */
    pickHint(action) {
      const m = moves.list.find((x) => x.text === action);
      if (!m || busy()) return false;
      hinted = action;
      selected = m.src && m.dst && board.querySelector(`[data-key="${CSS.escape(m.src)}"]`) ? m.src : null;
      decorate();
      return true;
    },
    /** The suggestion picked, if any. */
    hinted() { return hinted; },
    decorate,
  };
}

export async function showTable(root, id, token) {
  const summary = await api(`/api/tables/${id}`).catch((e) => { throw new Error(`table ${id}: ${e.message}`); });
  const [game, about] = await Promise.all([GAMES[summary.game](), aboutGame(summary.game)]);
  if (game.prepare) game.prepare(about, summary);
  const title = about.title;
  document.title = `Tabletop — ${title}`;
  document.body.dataset.game = summary.game;
  // The names the chat's and log's texts are read with until the first snapshot comes.
  setSeatNames((summary.seats || []).map((s) => s.name));

  const status = h('div', { class: 'status-line' });
  const clockLine = h('div', { class: 'clock-line', id: 'clock', hidden: true });
  const banner = h('div', { class: 'banner', hidden: true });
  const board = h('div', { class: `board ${summary.game}` });
  const buttons = h('div', { class: 'actions' });
  const endScreen = h('div', { class: 'end-holder' });
  const toast = h('div', { class: 'toast', hidden: true });
  // What the latest moves did, one event at a time, in the order it happened.
  const news = h('div', { class: 'news', id: 'news', hidden: true, 'aria-live': 'polite' });
  const logList = h('ol', { class: 'log-list', id: 'log' });
  const logPanel = h('details', { class: 'panel log-panel', open: true },
    h('summary', {}, 'Game log ', h('small', { class: 'muted' }, '(newest first)')), logList);
  // The table's chat: seats write under their names, spectators under one they give.
  const chatList = h('ol', { class: 'chat-list', id: 'chat' });
  const chatText = h('input', { id: 'chat-text', maxlength: '500', placeholder: 'say something', autocomplete: 'off' });
  const chatName = token ? null : h('input', {
    id: 'chat-name', class: 'seat-name', maxlength: '24', placeholder: 'your name',
    value: localStorage.getItem('tabletop.name') || '',
  });
  const chatError = h('p', { class: 'error', id: 'chat-error' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: (ev) => { ev.preventDefault(); sendChat(); } },
    chatName, chatText, h('button', { id: 'chat-send', class: 'small', type: 'submit' }, 'Send'));
  const chatPanel = h('details', { class: 'panel chat-panel', open: true },
    h('summary', {}, 'Chat'), chatList, chatForm, chatError);
  // A card's text, shown on a tap (hover shows it as a tooltip).
  const info = h('div', { class: 'info-pop', id: 'info-pop', hidden: true, onclick: () => { info.hidden = true; } });
  // The coach's suggestions for this seat's turn (at a table made with hints).
  const hintBox = h('div', { class: 'hint-box', id: 'hints', hidden: true });
  // A finished game's review: the chart of each seat's chances, the marked moves, and a
  // past moment of the board.
  const reviewBox = h('div', { class: 'review-holder', id: 'review', hidden: true });
  root.replaceChildren(h('div', { class: 'table-page' }, status, clockLine, banner, endScreen, reviewBox, news,
    h('div', { class: 'table-main' }, h('div', { class: 'play-area' }, board, buttons, hintBox),
      h('div', { class: 'side' }, logPanel, chatPanel)), toast, info));
  document.getElementById('top-info').textContent = `${title} · table ${id}`;
  // The game's rules, in a tab of their own so the table stays open.
  const rulesLink = document.getElementById('top-rules');
  rulesLink.href = rulesHref(summary.game);
  rulesLink.textContent = `Rules of ${title}`;
  rulesLink.hidden = false;
  // A creator-chosen seed: its creator may know every hidden card, so say so.
  if (summary.seed_chosen) {
    document.getElementById('top-info').append(' ', h('span', { class: 'seed-chosen', id: 'seed-chosen', title: 'The creator chose this table\'s seed and may know the hidden cards.' }, 'seed chosen by creator'));
  }

  let snap = null;
  const hintsOn = Boolean(summary.table && summary.table.hints);
  let pending = false;
  let pendingSince = 0;
  let sentVersion = -1;
  let socket = null;
  let attempt = 0;
  let closedByUs = false;
  let toastTimer = null;
  // The game log: entries by index (each `{index, seat, events}`), the events still to
  // be told one at a time, and the elements each entry has in the log panel.
  const entries = new Map();
  const entryItems = new Map();
  const queue = [];
  let telling = null;
  let current = null;
  let logLoaded = false;

  // Chat lines by seq: each shown once, in order.
  const chatSeen = new Set();
  function addChat(line) {
    if (!line || chatSeen.has(line.seq)) return;
    chatSeen.add(line.seq);
    const mark = line.seat === null ? ' (watching)' : (line.seat === (snap && snap.seat) ? ' (you)' : '');
    // A table's own note ("Seat 1 (Ada) asked for a hint", "You asked for a hint": the
    // server tells a seat's notes to its own player in the second person) is a sentence
    // of its own, without a writer; it names seats in its text.
    const note = line.kind && line.kind !== 'chat';
    const item = note
      ? h('li', { class: `chat-line note seat-${line.seat}`, dataset: { seq: String(line.seq) } }, h('span', { class: 'chat-said' }, withNames(line.text)))
      : h('li', { class: `chat-line ${line.seat === null ? 'spectator' : `seat-${line.seat}`}`, dataset: { seq: String(line.seq) } },
        h('strong', {}, nameEl(line.name), mark), ' ', h('span', { class: 'chat-said' }, line.text));
    const after = [...chatList.children].find((el) => Number(el.dataset.seq) > line.seq);
    chatList.insertBefore(item, after || null);
    chatList.scrollTop = chatList.scrollHeight;
  }
  async function loadChat() {
    try { (await api(`/api/tables/${id}/chat`, { token })).lines.forEach(addChat); } catch { /* the socket brings new lines */ }
  }
  async function sendChat() {
    chatError.textContent = '';
    const text = chatText.value.trim();
    if (!text) return;
    const body = { text };
    if (chatName) {
      body.name = chatName.value.trim();
      try { localStorage.setItem('tabletop.name', body.name); } catch { /* private mode */ }
    }
    try {
      addChat(await api(`/api/tables/${id}/chat`, { method: 'POST', token, body }));
      chatText.value = '';
    } catch (e) { chatError.replaceChildren(...withNames(e.message, [...(snap ? snap.names : []), body.name || ''])); }
  }

  // The rematch: asked for by this seat, or by another (then this page follows it).
  let rematching = false;
  async function rematch() {
    if (rematching || !token) return;
    rematching = true;
    try {
      const next = await api(`/api/tables/${id}/rematch`, { method: 'POST', token });
      tokens.put(next.table, next.seat, next.token);
      closedByUs = true;
      location.href = next.invite;
    } catch (e) { rematching = false; flash(e.message); }
  }

  function flash(text) {
    toast.replaceChildren(...withNames(text));
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

  // Says in the tab's title when it is this viewer's turn, so another tab shows it.
  function setTitle() {
    const mine = snap && snap.seat !== null && snap.to_act === snap.seat && snap.status !== 'finished';
    document.title = `${mine ? 'Your turn — ' : ''}${title} — Tabletop`;
  }

  // The board elements an event touched (`data-mark`), marked with `cls`.
  function mark(events, cls) {
    for (const el of board.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
    if (!snap || !game.marks) return;
    for (const ev of events) {
      for (const m of game.marks(ev, snap) || []) {
        for (const el of board.querySelectorAll(`[data-mark="${CSS.escape(m)}"]`)) el.classList.add(cls);
      }
    }
  }

  function latestEntry() {
    let last = null;
    for (const e of entries.values()) if (!last || e.index > last.index) last = e;
    return last;
  }

  /** The log panel's item for an entry, made (in index order, newest first) if new. */
  function entryItem(entry) {
    let item = entryItems.get(entry.index);
    if (item) return item;
    const list = h('ul', { class: 'log-events' });
    item = h('li', { class: `log-entry seat-${entry.seat}`, dataset: { index: entry.index, seat: entry.seat } },
      h('div', { class: 'log-head' }, `Move ${entry.index + 1} · `, seatName(entry.seat, snap ? snap.seat : null)), list);
    item.events = list;
    entryItems.set(entry.index, item);
    const after = [...logList.children].find((li) => Number(li.dataset.index) < entry.index);
    logList.insertBefore(item, after || null);
    return item;
  }

  function eventItem(ev) {
    return h('li', { class: 'log-event', dataset: { kind: ev.kind || '' } }, withNames(ev.text));
  }

  /**
   * Takes log entries in. Known ones are skipped; new ones go to the log panel, told one
   * event at a time (`tell`) when they arrive live, or at once when `quiet` (the log read
   * when the page opens).
   */
  function takeEntries(list, quiet) {
    for (const entry of [...(list || [])].sort((a, b) => a.index - b.index)) {
      if (entries.has(entry.index)) continue;
      entries.set(entry.index, entry);
      if (quiet || !entry.events.length) entryItem(entry).events.append(...entry.events.map(eventItem));
      else for (const ev of entry.events) queue.push({ entry, ev });
    }
    while (logList.children.length > 5000) {
      const gone = logList.lastElementChild;
      entryItems.delete(Number(gone.dataset.index));
      gone.remove();
    }
    if (!telling) tell();
  }

  // Tells the queued events in order, each on its own for a moment, marking what it
  // touched on the board; a long burst is told faster.
  function tell() {
    // Behind (a page that was away, bots moving in a row): catch up at once on all but
    // the last few, which are told one by one, so the news stays within a move or two of
    // the board and the status line.
    while (queue.length > 4) {
      const old = queue.shift();
      entryItem(old.entry).events.append(eventItem(old.ev));
    }
    const next = queue.shift();
    if (!next) {
      telling = setTimeout(() => {
        telling = null;
        if (queue.length) { tell(); return; }
        current = null;
        news.hidden = true;
        document.body.dataset.news = 'idle';
        mark([], 'flash');
      }, 900);
      return;
    }
    document.body.dataset.news = 'busy';
    const item = entryItem(next.entry);
    const li = eventItem(next.ev);
    li.classList.add('fresh');
    item.events.append(li);
    setTimeout(() => li.classList.remove('fresh'), 2500);
    news.hidden = false;
    news.replaceChildren(h('span', { class: `news-text seat-${next.entry.seat}` }, withNames(next.ev.text)));
    current = next.ev;
    mark([current], 'flash');
    // Others' moves are told slowly enough to follow, the viewer's own faster, and a
    // long burst (bots moving in a row) faster still, so the log never lags far behind.
    const mine = snap && next.entry.seat === snap.seat;
    telling = setTimeout(tell, queue.length > 3 ? 300 : (mine ? 500 : 1200));
  }

  // Fills a gap in the log (a reconnection, a burst longer than the server keeps).
  let filling = false;
  async function fillLog(from) {
    if (filling) return;
    filling = true;
    try {
      const got = await api(`/api/tables/${id}/log?since=${from}`, { token });
      takeEntries(got.entries, !logLoaded);
      logLoaded = true;
      // The snapshot on show may be newer than the log read.
      if (snap) { takeEntries(snap.events, false); redraw(); }
    } catch { /* the next snapshot tries again */ }
    filling = false;
  }

  function send(text) {
    if (pending || !snap) return;
    pending = true;
    pendingSince = Date.now();
    sentVersion = snap.version;
    clicks.clear();
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

  const clicks = boardClicks({
    board, buttons, send,
    canPlay: () => !pending && snap && snap.legal.length > 0,
    busy: () => pending,
    onOther: (ev) => showInfo(ev),
  });
  // Marks what may be clicked now and lays out the buttons.
  function decorate() {
    setBody();
    clicks.decorate();
    for (const b of hintBox.querySelectorAll('[data-hint]')) b.classList.toggle('chosen', b.dataset.hint === clicks.hinted());
  }

  // The coach: up to three moves for this seat's turn. Choosing one plays nothing: it
  // shows the move on the board (or its button), and the player confirms it.
  const percent = (x) => `${Math.round(x * 100)}%`;
  const adviceWords = (a) => (a.place === null || a.place === undefined
    ? `${percent(a.chance)} chance to win`
    : `expected place ${a.place.toFixed(1)} · ${percent(a.chance)} chance to win`);
  let hintFor = -1;
  // The server's limit on hints: when this seat may ask again (ms since the epoch). Until
  // then the button waits, disabled, with the wait in words, and nothing is asked.
  let hintReady = 0;
  const hintWaiting = () => Date.now() < hintReady;
  function hintWaitFor(seconds) {
    if (!(seconds > 0)) return;
    hintReady = Date.now() + seconds * 1000;
    if (snap) drawStatus();
  }
  function hintWaitText() {
    return `You can ask for another hint in ${waitWords((hintReady - Date.now()) / 1000)}.`;
  }
  setInterval(() => {
    const line = document.getElementById('hint-wait');
    if (!line) return;
    if (hintWaiting()) line.textContent = hintWaitText();
    else if (snap) drawStatus();
  }, 1000);
  if (hintsOn && token) {
    api(`/api/tables/${id}/hint`, { token }).then((got) => hintWaitFor(got.wait)).catch(() => { /* asked when the button is pressed */ });
  }
  async function askHint() {
    if (!snap || hintWaiting()) return;
    const version = snap.version;
    hintBox.hidden = false;
    hintBox.replaceChildren(h('p', { class: 'muted' }, 'The coach is thinking…'));
    try {
      const got = await api(`/api/tables/${id}/hint`, { method: 'POST', token });
      hintWaitFor(got.wait);
      if (!snap || snap.version !== got.version || got.version !== version) { hintBox.hidden = true; return; }
      hintFor = got.version;
      hintBox.replaceChildren(
        h('p', { class: 'hint-head' }, 'The coach suggests (choosing one marks it on the board; nothing is played until you click it there):'),
        h('ol', { class: 'hint-list' }, got.moves.map((a) => h('li', {},
          h('button', { class: 'hint-move', dataset: { hint: a.action }, onclick: () => chooseHint(a.action) },
            h('strong', {}, a.label), ' ', h('small', {}, adviceWords(a)))))));
    } catch (e) {
      if (e.retryAfter) { hintBox.hidden = true; hintWaitFor(e.retryAfter); return; }
      hintBox.replaceChildren(h('p', { class: 'error', id: 'hint-error' }, withNames(e.message)));
    }
  }
  function chooseHint(action) {
    if (!pending) clicks.pickHint(action);
    decorate();
  }

  // A tap on something with a text (`data-info`) that is not a move shows the text.
  function showInfo(ev) {
    const el = ev.target.closest('[data-info]');
    if (!el || !board.contains(el)) { info.hidden = true; return; }
    info.replaceChildren(h('b', {}, el.dataset.infoTitle || ''), h('span', {}, el.dataset.info));
    info.hidden = false;
    placeBeside(info, el);
  }

  // Table moves: take back the last move, resign (asked twice), take the seat back from
  // the bot playing for it.
  let resignAsked = false;
  async function tableCall(what) {
    try { show(await api(`/api/tables/${id}/${what}`, { method: 'POST', token, body: { version: snap.version } })); } catch (e) { flash(e.message); resync(); }
  }
  function tableButtons() {
    if (!token || snap.seat === null || snap.status === 'finished') return [];
    const out = [];
    if (hintsOn && snap.to_act === snap.seat && snap.legal.length && !(snap.open_seats || []).length) {
      const waiting = hintWaiting();
      out.push(h('button', { class: 'small', id: 'suggest', title: 'Ask the coach for its three best moves; everyone is told you asked', onclick: askHint, disabled: waiting, 'aria-describedby': waiting ? 'hint-wait' : null }, 'Suggest a move'));
      if (waiting) out.push(h('span', { class: 'hint-wait', id: 'hint-wait', role: 'status' }, hintWaitText()));
    }
    if (snap.can_undo) out.push(h('button', { class: 'small', id: 'undo', title: 'Take back your last move (possible while it drew, rolled and revealed nothing)', onclick: () => tableCall('undo') }, 'Undo'));
    if ((snap.away || []).includes(snap.seat)) {
      out.push(h('button', { class: 'small primary', id: 'back', onclick: () => tableCall('back') }, 'Take my seat back'));
    }
    if (!(snap.resigned || []).includes(snap.seat)) {
      out.push(h('button', { class: 'small', id: 'resign', onclick: () => {
        if (!resignAsked) { resignAsked = true; drawStatus(); return; }
        resignAsked = false;
        tableCall('resign');
      } }, resignAsked ? 'Really resign?' : 'Resign'));
    }
    return out;
  }

  // The clocks: each seat's time, the seat to act counting down.
  function drawClock() {
    const c = snap && snap.clock;
    if (!c || snap.status === 'finished') { clockLine.hidden = true; return; }
    clockLine.hidden = false;
    const fmt = (ms) => {
      const t = Math.max(0, Math.ceil(ms / 1000));
      const d = Math.floor(t / 86400);
      const hms = [Math.floor(t / 3600) % 24, Math.floor(t / 60) % 60, t % 60].map((n) => String(n).padStart(2, '0'));
      return d ? `${d} d ${hms[0]} h` : (t >= 3600 ? hms.join(':') : `${hms[1]}:${hms[2]}`);
    };
    clockLine.replaceChildren(...c.left.map((left, s) => {
      const running = s === snap.to_act && c.deadline;
      const ms = running ? c.deadline - Date.now() : left;
      return h('span', { class: `clock ${running ? 'running' : ''} ${running && ms < 10000 ? 'low' : ''}` }, seatName(s, snap.seat), ` ${fmt(ms)}`);
    }));
  }
  setInterval(drawClock, 500);

  function drawStatus() {
    const mine = snap.seat;
    let text;
    if (snap.status === 'finished') text = 'Game over';
    else if (snap.open_seats && snap.open_seats.length) text = `Waiting for players: ${snap.open_seats.map((s) => `seat ${s + 1}`).join(', ')} open`;
    else if (snap.to_act === mine && mine !== null) text = snap.legal.length ? 'Your turn' : 'Your turn (waiting)';
    else if (snap.to_act !== null) text = [seatName(snap.to_act, mine), ' to play'];
    else text = '';
    // A seat without a name of its own is only its number ("You are seat 2").
    const own = mine === null ? null : snap.names[mine];
    let who = ['Watching'];
    if (mine !== null) who = !own || /^Seat \d+$/.test(own) ? [`You are seat ${mine + 1}`] : ['You are ', fullName(mine, null), `, seat ${mine + 1}`];
    const notes = [];
    for (const s of snap.resigned || []) notes.push([seatName(s, mine), ' resigned']);
    for (const s of snap.away || []) notes.push(s === mine ? 'a bot is playing for you' : ['a bot plays for ', seatName(s, mine)]);
    if (snap.paused) notes.push(snap.paused);
    status.replaceChildren(...[
      h('span', { class: `turn ${snap.to_act === mine && mine !== null ? 'mine' : ''}` }, text),
      h('span', { class: 'muted' }, who, ` · move ${snap.version}`),
      notes.length ? h('span', { class: 'table-notes', id: 'table-notes' }, notes.map((n, i) => (i ? [' · ', n] : n))) : null,
      ...tableButtons(),
      h('a', { class: 'button small', href: '/' }, 'Lobby')].filter(Boolean));
  }

  let endShown = false;
  function drawEnd() {
    if (snap.status !== 'finished' || !snap.outcome) { endScreen.replaceChildren(); return; }
    const { scores, places } = snap.outcome;
    const order = scores.map((_, s) => s).sort((a, b) => places[a] - places[b]);
    const winners = order.filter((s) => places[s] === 0);
    const series = snap.series;
    const seriesLine = series ? h('p', { class: 'series', id: 'series' },
      `Series: ${series.games + 1} games · wins `,
      snap.names.map((n, s) => [s ? ', ' : '', nameEl(n), ` ${series.wins[s] + (places[s] === 0 ? 1 : 0)}`])) : null;
    let again = null;
    if (snap.seat !== null && token) {
      again = h('button', { class: 'primary', id: 'rematch', onclick: rematch }, snap.rematch ? 'Join the rematch' : 'Rematch');
    } else if (snap.rematch) {
      again = h('a', { class: 'button', id: 'watch-rematch', href: `/play/${snap.rematch}` }, 'Watch the rematch');
    }
    // Another player asked: this seat's page follows to the new table.
    if (snap.rematch && snap.seat !== null && token) rematch();
    const headline = winners.includes(snap.seat)
      ? (winners.length > 1 ? 'You share the win!' : 'You win!')
      : [winners.map((s, i) => [i ? ' and ' : '', seatName(s, snap.seat)]), ` win${winners.length > 1 ? '' : 's'}`];
    const { why, lines } = endingParts(snap.ending, order, 'end');
    endScreen.replaceChildren(h('div', { class: 'panel end-screen' },
      h('h2', {}, headline),
      why,
      h('table', { class: 'scores' },
        h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Score')),
        order.map((s) => h('tr', { class: places[s] === 0 ? 'winner' : '' },
          h('td', {}, ordinal(places[s])), h('td', {}, fullName(s, snap.seat)), h('td', {}, String(scores[s]))))),
      lines,
      seriesLine, again,
      h('button', { id: 'review-open', onclick: openReview }, 'Review the game'),
      h('a', { class: 'button', id: 'replay-open', href: `/replay/${id}` }, 'Replay move by move'),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    // The game just ended (or the page opened on its end): the end screen comes into
    // view, wherever the player had scrolled, once.
    if (!endShown) {
      endShown = true;
      endScreen.scrollIntoView({ block: 'start' });
    }
  }

  // Why the game ended and each score line by line, as the game's own scoring gives them
  // (the lines add up to the score; the page adds nothing up itself): the end screen's
  // and the review's.
  function endingParts(ending, order, prefix) {
    const why = ending ? h('p', { class: 'end-why', id: `${prefix}-why` }, withNames(ending.why)) : null;
    const signed = (n) => (n > 0 ? `+${n}` : String(n));
    const lines = ending ? h('div', { class: 'end-lines', id: `${prefix}-lines` },
      order.map((s) => {
        const seat = ending.seats[s];
        if (!seat) return null;
        return h('table', { class: 'score-lines', dataset: { seat: String(s) } },
          h('caption', {}, fullName(s, snap.seat)),
          seat.lines.map((l) => h('tr', {},
            h('td', { class: 'line-label' }, withNames(l.label)),
            h('td', { class: 'line-points' }, signed(l.points)))),
          h('tr', { class: 'line-total' }, h('th', {}, 'Total'), h('th', { class: 'line-points' }, String(seat.total))));
      })) : null;
    return { why, lines };
  }

  // The review of the finished game: asked for once, shown when the server has made it
  // (it tells how far it is meanwhile).
  let reviewAsked = false;
  async function openReview() {
    reviewBox.hidden = false;
    reviewBox.scrollIntoView({ block: 'start' });
    if (reviewAsked) return;
    reviewAsked = true;
    reviewBox.replaceChildren(h('div', { class: 'panel review' }, h('p', { id: 'review-progress' }, 'The coach is reviewing the game…')));
    for (;;) {
      let got;
      try { got = await api(`/api/tables/${id}/review`); } catch (e) {
        reviewAsked = false;
        reviewBox.replaceChildren(h('div', { class: 'panel review' }, h('p', { class: 'error', id: 'review-error' }, withNames(e.message))));
        return;
      }
      if (got.status === 'done') { drawReview(got.review, got.names); return; }
      const progress = document.getElementById('review-progress');
      if (progress) progress.textContent = got.of ? `The coach is reviewing the game: ${got.done} of ${got.of} moves…` : 'The coach is reviewing the game…';
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'dataset') Object.assign(el.dataset, v);
      else el.setAttribute(k, String(v));
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  }

  /** Each seat's chance to win over the game, as an inline SVG (a line and a dot a decision). */
  function chart(review, names) {
    const W = 640; const H = 220; const left = 44; const right = 12; const top = 12; const bottom = 30;
    const last = Math.max(1, ...review.moves.map((m) => m.ply));
    const x = (ply) => left + (ply / last) * (W - left - right);
    const y = (chance) => top + (1 - chance) * (H - top - bottom);
    const round = (n) => Math.round(n * 10) / 10;
    const grid = [0, 0.25, 0.5, 0.75, 1].map((c) => [
      svg('line', { class: 'chart-grid', x1: left, x2: W - right, y1: round(y(c)), y2: round(y(c)) }),
      svg('text', { class: 'chart-label', x: left - 6, y: round(y(c)) + 4, 'text-anchor': 'end' }, `${Math.round(c * 100)}%`)]);
    const marked = new Set(review.moves.filter((m) => m.marked).map((m) => `${m.seat}:${m.ply}`));
    const lines = review.series.map((points, seat) => svg('g', { class: `chart-seat seat-${seat}`, dataset: { seat: String(seat) } },
      svg('title', {}, names[seat] || `Seat ${seat + 1}`),
      svg('polyline', { class: 'chart-line', points: points.map(([ply, c]) => `${round(x(ply))},${round(y(c))}`).join(' ') }),
      points.map(([ply, c]) => svg('circle', {
        class: `chart-point ${marked.has(`${seat}:${ply}`) ? 'marked' : ''}`,
        cx: round(x(ply)), cy: round(y(c)), r: marked.has(`${seat}:${ply}`) ? 5 : 2.5,
        dataset: { seat: String(seat), ply: String(ply), chance: String(c) },
      }, svg('title', {}, `${names[seat] || `Seat ${seat + 1}`}, move ${ply + 1}: ${Math.round(c * 100)}% chance to win`)))));
    return svg('svg', { class: 'review-chart', id: 'review-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Each player\'s chance to win over the game', dataset: { last: String(last), left, right, top, bottom, width: W, height: H } },
      grid,
      svg('text', { class: 'chart-label', x: (left + W - right) / 2, y: H - 6, 'text-anchor': 'middle' }, 'move'),
      lines);
  }

  function drawReview(review, names) {
    const order = [...Array(review.seats).keys()];
    const places = snap && snap.outcome ? snap.outcome.places : null;
    if (places) order.sort((a, b) => places[a] - places[b]);
    const { why, lines } = endingParts(review.ending, order, 'review');
    const legend = h('p', { class: 'chart-legend' }, names.map((n, s) => h('span', { class: `legend seat-${s}` }, h('span', { class: 'swatch' }), ' ', fullName(s, snap ? snap.seat : null))));
    const marks = review.moves.filter((m) => m.marked);
    const percent = (c) => `${Math.round(c * 100)}%`;
    const markList = marks.length
      ? h('ol', { class: 'review-marks', id: 'review-marks' }, marks.map((m) => h('li', { class: `review-mark seat-${m.seat}`, dataset: { ply: String(m.ply), seat: String(m.seat) } },
        h('strong', {}, `Move ${m.ply + 1} · `, fullName(m.seat, snap ? snap.seat : null)), ': played “',
        h('span', { class: 'played' }, withNames(m.played.label)), `” (${percent(m.played.chance)} chance to win); the coach preferred “`,
        h('span', { class: 'preferred' }, withNames(m.best.label)), `” (${percent(m.best.chance)}). `,
        h('button', { class: 'small moment-open', onclick: () => showMoment(m) }, 'See the board then'))))
      : h('p', { class: 'muted', id: 'review-marks' }, 'No move lost much: the coach would have played about as well.');
    reviewBox.replaceChildren(h('div', { class: 'panel review' },
      h('h2', {}, 'Review'),
      h('p', { class: 'muted' }, 'Each player\'s chance to win after each of their moves, as the coach judged it from what that player could see.'),
      chart(review, names), legend,
      h('h3', {}, 'The moves that cost the most'),
      h('p', { class: 'muted' }, 'Each move in quotes is named as it was offered to the player who made it.'),
      markList,
      h('div', { class: 'moment-holder', id: 'moment' }),
      h('h3', {}, 'How it ended'), why, lines,
      h('button', { class: 'small', onclick: () => { reviewBox.hidden = true; } }, 'Close the review')));
  }

  // A past moment of the finished game: the board before a marked move, as the player
  // who made it saw it.
  async function showMoment(m) {
    const holder = document.getElementById('moment');
    if (!holder) return;
    try {
      const at = await api(`/api/tables/${id}/moments/${m.ply}?seat=${m.seat}`);
      const past = { ...snap, version: at.version, seat: at.seat, to_act: at.to_act, view: at.view, legal: [], moves: [], status: 'running', events: [] };
      const pastBoard = h('div', { class: `board ${summary.game} past` });
      pastBoard.replaceChildren(game.render(past, { entries: [], hidden: null }));
      holder.replaceChildren(h('div', { class: 'panel moment', dataset: { version: String(at.version) } },
        h('h3', {}, `Before move ${m.ply + 1}, as `, fullName(m.seat, null), ' saw it'),
        h('p', {}, 'Played: “', h('strong', {}, withNames(m.played.label)), '” · the coach preferred: “', h('strong', {}, withNames(m.best.label)), '”'),
        pastBoard,
        h('button', { class: 'small', onclick: () => holder.replaceChildren() }, 'Hide the board')));
      holder.scrollIntoView({ block: 'start' });
    } catch (e) { holder.replaceChildren(h('p', { class: 'error' }, withNames(e.message))); }
  }

  function redraw() {
    const last = latestEntry();
    board.replaceChildren(game.render(snap, { entries: [...entries.values()].sort((a, b) => a.index - b.index), hidden: hiddenRound }));
    decorate();
    // The last move stays marked on the board until the next one.
    mark(last ? last.events : [], 'last-move');
    mark(current ? [current] : [], 'flash');
  }

  function show(next) {
    if (!next || (snap && next.version < snap.version)) return;
    if (!snap || next.version !== snap.version) {
      clicks.clear(); info.hidden = true;
      if (hintFor !== next.version) { hintBox.hidden = true; hintBox.replaceChildren(); }
    }
    snap = next;
    setSeatNames(snap.names);
    clicks.setMoves(snap.moves);
    const known = entries.size ? Math.max(...entries.keys()) + 1 : 0;
    const fresh = (snap.events || []).filter((e) => e.index >= known);
    if (!logLoaded) fillLog(0);
    else if (fresh.length && fresh[0].index > known) fillLog(known);
    else takeEntries(snap.events, false);
    drawStatus();
    drawClock();
    drawEnd();
    setTitle();
    redraw();
  }

  // A finished round the viewer closed (by its round number), for games that show one.
  let hiddenRound = null;
  board.addEventListener('click', (ev) => {
    const close = ev.target.closest('[data-close-round]');
    if (close) { hiddenRound = Number(close.dataset.closeRound); redraw(); }
  });

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
      } else if (msg.type === 'chat') {
        addChat(msg.line);
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
          if (e.code && e.code.startsWith('auth/')) { banner.textContent = 'This link opens no seat at this table: check that the whole link was copied, or open the table from the lobby to watch.'; return; }
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
  document.body.dataset.news = 'idle';
  loadChat();
  connect();
}
