// A table (`/play/ID`): the page laid out and its parts wired together. Each part is a
// module of its own, made from one small state object `t` (the table's id and token,
// its summary, the game's module, the snapshot on show) and reaching the others only
// through it, so no part imports another:
// - table-socket.js: the live connection (WebSocket with reconnection), a move sent
// - table-board.js: the board drawn by the game's module, the click model, a card's text
// - table-log.js: the game log, what each move did told in order and marked on the board
// - table-chat.js: the table's chat
// - table-status.js: the status line, the table's buttons, the clocks, the toast
// - table-players.js: the players' names with their ratings, linked to their profiles
// - table-hints.js: the coach's suggestions for this seat's turn
// - table-end.js: the end screen and the rematch
// - table-review.js: a finished game's review
// Each game's module draws its board from the snapshot and the game's description
// (`GET /api/games/{game}`), and names what each event touched; it may also compose a
// move with the player (`compose`), offer sequences of moves as one button
// (`sequences`) and make a move for the player by itself (`autoMove`).
import { h, api, aboutGame, setSeatNames, rulesHref } from './ui.js';
import { gameModule } from './games.js';
import { makeSocket } from './table-socket.js';
import { makeBoard } from './table-board.js';
import { makeLog } from './table-log.js';
import { makeChat } from './table-chat.js';
import { makeStatus } from './table-status.js';
import { makePlayers } from './table-players.js';
import { makeHints } from './table-hints.js';
import { makeEnd } from './table-end.js';
import { makeReview } from './table-review.js';

export async function showTable(root, id, token) {
  const summary = await api(`/api/tables/${id}`).catch((e) => { throw new Error(`table ${id}: ${e.message}`); });
  const [game, about] = await Promise.all([gameModule(summary.game), aboutGame(summary.game)]);
  if (game.prepare) game.prepare(about, summary);
  const title = about.title;
  document.title = `Tabletop — ${title}`;
  document.body.dataset.game = summary.game;
  // The names the chat's and log's texts are read with until the first snapshot comes.
  setSeatNames((summary.seats || []).map((s) => s.name));

  // The state the parts share: what they read of the table, and each other.
  const t = {
    id,
    token,
    summary,
    game,
    title,
    hintsOn: Boolean(summary.table && summary.table.hints),
    /** The snapshot on show (`null` until the first comes). */
    snap: null,
    /** A move sent and not yet answered. */
    pending: false,
    show,
  };
  t.status = makeStatus(t);
  t.players = makePlayers(t);
  t.socket = makeSocket(t);
  t.board = makeBoard(t);
  t.log = makeLog(t);
  t.chat = makeChat(t);
  t.hints = makeHints(t);
  t.end = makeEnd(t);
  t.review = makeReview(t);

  root.replaceChildren(h('div', { class: 'table-page' }, t.status.line, t.players.line, t.status.clockLine, t.socket.banner,
    t.end.screen, t.review.box, t.log.news,
    h('div', { class: 'table-main' }, h('div', { class: 'play-area' }, t.board.board, t.board.buttons, t.hints.box),
      h('div', { class: 'side' }, t.log.panel, t.chat.panel)), t.status.toast, t.board.info));
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

  /** Shows a snapshot (an older one than on show is dropped). */
  function show(next) {
    if (!next || (t.snap && next.version < t.snap.version)) return;
    if (!t.snap || next.version !== t.snap.version) {
      t.board.clear();
      t.hints.newVersion(next.version);
    }
    t.snap = next;
    setSeatNames(next.names);
    t.board.clicks.setMoves(next.moves);
    t.log.follow(next);
    t.status.draw();
    t.players.update();
    t.status.drawClock();
    t.end.draw();
    t.status.setTitle();
    t.board.redraw();
    // A move the game's module makes for the player by itself (ending a turn where only
    // trading is left), unless a move of the player is still on its way.
    if (game.autoMove && !t.pending) {
      const auto = game.autoMove(next);
      if (auto) t.socket.send(auto);
    }
  }

  // For tests and the curious: drop the connection as a network failure would.
  window.tabletop = { dropConnection: () => t.socket.drop() };
  document.body.dataset.news = 'idle';
  t.chat.load();
  t.socket.connect();
}
