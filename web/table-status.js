// A table's status: whose turn it is and who the viewer is, the table's own moves (undo,
// resign, take the seat back) and the hint button, the clocks, the toast that flashes a
// refusal, the tab's title, and the page's state in `body`'s data (which tests read).
import { h, api, seatName, fullName, withNames } from './ui.js';
import { announce, showKeys } from './keys.js';
import { showBoardText } from './board-text.js';

/** The status of table `t` (see table.js for `t`). */
export function makeStatus(t) {
  const { id, token } = t;
  const line = h('div', { class: 'status-line' });
  const clockLine = h('div', { class: 'clock-line', id: 'clock', hidden: true });
  const toast = h('div', { class: 'toast', hidden: true });
  let toastTimer = null;

  function flash(text) {
    toast.replaceChildren(...withNames(text));
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 2500);
  }

  function setBody() {
    const { snap, pending } = t;
    const ds = document.body.dataset;
    ds.version = snap ? snap.version : '';
    ds.status = snap ? snap.status : '';
    ds.myturn = snap && snap.seat !== null && snap.to_act === snap.seat && snap.legal.length > 0 && !pending ? 'yes' : 'no';
    ds.pending = pending ? 'yes' : 'no';
    ds.connected = t.socket && t.socket.connected() ? 'yes' : 'no';
  }

  // Says in the tab's title when it is this viewer's turn, so another tab shows it.
  function setTitle() {
    const { snap } = t;
    const mine = snap && snap.seat !== null && snap.to_act === snap.seat && snap.status !== 'finished';
    document.title = `${mine ? 'Your turn — ' : ''}${t.title} — Tabletop`;
  }

  // Table moves: take back the last move, resign (asked twice), take the seat back from
  // the bot playing for it.
  let resignAsked = false;
  async function tableCall(what) {
    try { t.show(await api(`/api/tables/${id}/${what}`, { method: 'POST', token, body: { version: t.snap.version } })); } catch (e) { flash(e.message); t.socket.resync(); }
  }
  function tableButtons() {
    const { snap } = t;
    if (snap.seat === null || snap.status === 'finished') return [];
    const out = [...t.hints.buttons()];
    if (snap.can_undo) out.push(h('button', { class: 'small', id: 'undo', title: 'Take back your last move (possible while it drew, rolled and revealed nothing)', onclick: () => tableCall('undo') }, 'Undo'));
    if ((snap.away || []).includes(snap.seat)) {
      out.push(h('button', { class: 'small primary', id: 'back', onclick: () => tableCall('back') }, 'Take my seat back'));
    }
    if (!(snap.resigned || []).includes(snap.seat)) {
      out.push(h('button', { class: 'small', id: 'resign', onclick: () => {
        if (!resignAsked) { resignAsked = true; draw(); return; }
        resignAsked = false;
        tableCall('resign');
      } }, resignAsked ? 'Really resign?' : 'Resign'));
    }
    return out;
  }

  // The clocks: each seat's time, the seat to act counting down.
  function drawClock() {
    const { snap } = t;
    const c = snap && snap.clock;
    if (!c || snap.status === 'finished') { clockLine.hidden = true; return; }
    clockLine.hidden = false;
    const fmt = (ms) => {
      const secs = Math.max(0, Math.ceil(ms / 1000));
      const d = Math.floor(secs / 86400);
      const hms = [Math.floor(secs / 3600) % 24, Math.floor(secs / 60) % 60, secs % 60].map((n) => String(n).padStart(2, '0'));
      return d ? `${d} d ${hms[0]} h` : (secs >= 3600 ? hms.join(':') : `${hms[1]}:${hms[2]}`);
    };
    clockLine.replaceChildren(...c.left.map((left, s) => {
      const running = s === snap.to_act && c.deadline;
      const ms = running ? c.deadline - Date.now() : left;
      return h('span', { class: `clock ${running ? 'running' : ''} ${running && ms < 10000 ? 'low' : ''}` }, seatName(s, snap.seat), ` ${fmt(ms)}`);
    }));
  }
  setInterval(drawClock, 500);

  // Whether the last drawing said it was this viewer's turn (a new turn is announced).
  let wasMyTurn = false;
  function draw() {
    const { snap } = t;
    const mine = snap.seat;
    const myTurn = snap.status !== 'finished' && mine !== null && snap.to_act === mine && snap.legal.length > 0;
    if (myTurn && !wasMyTurn) announce('Your turn.');
    wasMyTurn = myTurn;
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
    line.replaceChildren(...[
      h('span', { class: `turn ${snap.to_act === mine && mine !== null ? 'mine' : ''}` }, text),
      h('span', { class: 'muted' }, who, ` · move ${snap.version}`),
      notes.length ? h('span', { class: 'table-notes', id: 'table-notes' }, notes.map((n, i) => (i ? [' · ', n] : n))) : null,
      ...tableButtons(),
      h('button', { class: 'small', id: 'keys-open', title: 'The keys that play this table (also the ? key)', onclick: showKeys }, 'Keys'),
      h('button', { class: 'small', id: 'board-text-open', title: 'The whole board in words, to read at once', onclick: () => showBoardText(id, token) }, 'Board as text'),
      h('a', { class: 'button small', href: '/' }, 'Lobby')].filter(Boolean));
  }

  return { line, clockLine, toast, flash, setBody, setTitle, draw, drawClock };
}
