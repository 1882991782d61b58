// The replay of a finished game (`/replay/ID`): the board as it was after any number of
// its moves, drawn by the game's own module as a table draws it, with what that move did
// in words. Each moment comes from `GET /api/tables/{id}/moments/{n}` (the view and the
// log of the move that led there, as the chosen seat or a spectator saw them), which the
// server gives only once the game is over. Buttons, the arrow keys and a slider move
// through the game; `?move=N` opens it at a move and `?seat=S` (from 1) as a seat saw it.
import { h, api, aboutGame, fullName, seatName, setSeatNames, withNames, tokens, rulesHref } from './ui.js';
import { gameModule } from './games.js';

export async function showReplay(root, id) {
  const summary = await api(`/api/tables/${id}`).catch((e) => { throw new Error(`table ${id}: ${e.message}`); });
  const [game, about] = await Promise.all([gameModule(summary.game), aboutGame(summary.game)]);
  if (game.prepare) game.prepare(about, summary);
  const title = about.title;
  document.title = `Replay — ${title} — Tabletop`;
  document.body.dataset.game = summary.game;
  document.getElementById('top-info').textContent = `${title} · replay of table ${id}`;
  const rulesLink = document.getElementById('top-rules');
  rulesLink.href = rulesHref(summary.game);
  rulesLink.textContent = `Rules of ${title}`;
  rulesLink.hidden = false;
  setSeatNames((summary.seats || []).map((s) => s.name));

  if (summary.status !== 'finished') {
    root.replaceChildren(h('div', { class: 'panel replay-closed', id: 'replay-closed' },
      h('p', {}, 'A game can be replayed once it is over: until then its past moves stay as each player saw them.'),
      h('a', { class: 'button', href: `/play/${id}` }, 'Go to the table'),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    return;
  }

  const params = new URLSearchParams(location.search);
  // Whose eyes the game is seen through: a seat this browser played, else a spectator's
  // (who sees no hand); anyone may pick any seat, as the finished game's record is public.
  const mine = Object.keys(tokens.get(id)).map(Number).sort((a, b) => a - b);
  const asked = params.has('seat') ? Number(params.get('seat')) - 1 : NaN;
  const seats = summary.seats || [];
  let seat = Number.isInteger(asked) && asked >= 0 && asked < seats.length ? asked : (mine.length ? mine[0] : null);

  const status = h('div', { class: 'status-line replay-head' });
  const counter = h('span', { class: 'replay-counter', id: 'replay-counter', 'aria-live': 'polite' });
  const slider = h('input', { type: 'range', id: 'replay-slider', class: 'replay-slider', min: '0', max: '0', step: '1', value: '0', 'aria-label': 'Move' });
  const button = (bid, text, label, go) => h('button', { id: bid, class: 'small replay-btn', title: label, 'aria-label': label, onclick: go }, text);
  const toStart = button('replay-start', '◀◀ Start', 'Go to the start', () => goTo(0));
  const back = button('replay-back', '◀ Back', 'Back one move (left arrow)', () => goTo(at - 1));
  const forward = button('replay-forward', 'Forward ▶', 'Forward one move (right arrow)', () => goTo(at + 1));
  const toEnd = button('replay-end', 'End ▶▶', 'Go to the end', () => goTo(last));
  const seatPick = h('select', { id: 'replay-seat', onchange: () => { seat = seatPick.value === '' ? null : Number(seatPick.value); cache.clear(); goTo(at, true); } },
    h('option', { value: '', selected: seat === null }, 'a spectator'),
    seats.map((s, i) => h('option', { value: String(i), selected: seat === i }, `seat ${i + 1}: ${s.name}${mine.includes(i) ? ' (you)' : ''}`)));
  const controls = h('div', { class: 'replay-controls', id: 'replay-controls' },
    toStart, back, counter, forward, toEnd, slider,
    h('label', { class: 'opt replay-as' }, h('span', {}, 'Seen as'), seatPick));
  const told = h('div', { class: 'panel replay-move', id: 'replay-move', 'aria-live': 'polite' });
  const asLine = h('p', { class: 'muted replay-as-line', id: 'replay-as' });
  const board = h('div', { class: `board ${summary.game} replay-board`, id: 'replay-board' });
  const error = h('p', { class: 'error', id: 'replay-error' });
  root.replaceChildren(h('div', { class: 'table-page replay-page' },
    status, controls,
    h('p', { class: 'muted replay-keys' }, 'Keys: left and right arrows step one move, Home and End jump to the start and the end.'),
    error, told, asLine, board));
  status.replaceChildren(
    h('span', { class: 'turn' }, `Replay of a finished game of ${title}`),
    h('a', { class: 'button small', href: `/play/${id}`, id: 'replay-table' }, 'The end of the game'),
    h('a', { class: 'button small', href: '/' }, 'Lobby'));

  let at = 0;
  let last = 0;
  let wanted = 0;
  // Moments fetched, by move number, for the seat on show (cleared when it changes).
  const cache = new Map();
  const moment = (n) => {
    if (!cache.has(n)) {
      const q = seat === null ? '' : `?seat=${seat}`;
      const got = api(`/api/tables/${id}/moments/${n}${q}`);
      got.catch(() => cache.delete(n));
      cache.set(n, got);
    }
    return cache.get(n);
  };

  // The board elements the move touched, marked as a table marks the last move.
  function mark(events, snap) {
    if (!game.marks) return;
    for (const ev of events) {
      for (const m of game.marks(ev, snap) || []) {
        for (const el of board.querySelectorAll(`[data-mark="${CSS.escape(m)}"]`)) el.classList.add('last-move');
      }
    }
  }

  function draw(m) {
    at = m.version;
    last = m.of;
    setSeatNames(m.names);
    slider.max = String(last);
    slider.value = String(at);
    counter.textContent = `move ${at} of ${last}`;
    toStart.disabled = at === 0;
    back.disabled = at === 0;
    forward.disabled = at >= last;
    toEnd.disabled = at >= last;
    const snap = { version: m.version, seat: m.seat, to_act: m.to_act, view: m.view, names: m.names, legal: [], moves: [], status: at >= last ? 'finished' : 'running', events: m.events };
    board.replaceChildren(game.render(snap, { entries: m.events, hidden: null }));
    mark(m.events.flatMap((e) => e.events), snap);
    const entry = m.events[m.events.length - 1];
    if (!entry) {
      told.replaceChildren(h('div', { class: 'log-head' }, 'The start of the game'),
        h('p', { class: 'muted' }, `No move made yet. Step forward to see the ${last} moves one by one.`));
    } else {
      const events = entry.events.length ? entry.events : [{ kind: '', text: 'nothing this viewer could see' }];
      told.replaceChildren(h('div', { class: 'log-head' }, `Move ${entry.index + 1} · `, seatName(entry.seat, m.seat)),
        h('ul', { class: 'log-events', id: 'replay-events' }, events.map((ev) => h('li', { class: 'log-event', dataset: { kind: ev.kind || '' } }, withNames(ev.text)))));
    }
    if (at >= last) told.append(h('p', { class: 'replay-over' }, 'This is the end of the game.'));
    const who = m.seat === null ? 'as a spectator saw it' : ['as ', fullName(m.seat, null), ' saw it'];
    asLine.replaceChildren(`The board after move ${at}, `, ...[who].flat(Infinity), '.');
    document.body.dataset.move = String(at);
    document.body.dataset.moves = String(last);
    const url = new URL(location.href);
    url.searchParams.set('move', String(at));
    if (seat === null) url.searchParams.delete('seat'); else url.searchParams.set('seat', String(seat + 1));
    history.replaceState(null, '', url);
  }

  // Goes to move `n` (kept within the game); the latest asked wins when answers cross.
  async function goTo(n, again = false) {
    const target = Math.max(0, Math.min(last, n));
    if (target === at && !again && cache.size) return;
    wanted = target;
    document.body.dataset.loading = 'yes';
    try {
      const m = await moment(target);
      if (wanted !== target) return;
      error.textContent = '';
      draw(m);
      // The next move is likely asked next.
      if (target < last) moment(target + 1);
    } catch (e) {
      error.replaceChildren(...withNames(e.message));
    } finally {
      if (wanted === target) document.body.dataset.loading = 'no';
    }
  }

  slider.addEventListener('input', () => goTo(Number(slider.value)));
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    goTo(moves[ev.key]);
  });

  // The first moment says how many moves the game has; then the one asked for.
  const first = await moment(0);
  last = first.of;
  const start = Number(params.get('move'));
  await goTo(Number.isInteger(start) && start > 0 ? start : 0, true);
}
