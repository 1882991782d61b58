// Learn to play: a game's lessons (`/learn/GAME`) and one lesson (`/learn/GAME/ID`). Each
// step shows its text and the board as the learner sees it, drawn by the game's own
// module, with the same click model as a table (`boardClicks`). The server plays each
// move on the step's position (`POST /api/games/{game}/lessons/{id}/steps/{n}`) and
// answers what happened (the log's events, marked on the board) or, for a move the step
// does not ask for, why another is asked. The lesson ends with a table against the easy
// bot.
import { h, api, aboutGame, withNames, setSeatNames, tokens } from './ui.js';
import { gameModule } from './games.js';
import { boardClicks } from './clicks.js';
import { announce } from './keys.js';

/** The page of a game's lessons, or of one lesson when `id` is given. */
export async function showLearn(root, name, id) {
  const about = await aboutGame(name);
  document.body.dataset.game = name;
  document.getElementById('top-info').textContent = `Learn to play ${about.title}`;
  const list = await api(`/api/games/${encodeURIComponent(name)}/lessons`);
  if (!id) {
    document.title = `Learn ${about.title} — Tabletop`;
    root.replaceChildren(h('div', { class: 'panel lessons' },
      h('h1', {}, `Learn to play ${about.title}`),
      h('p', {}, about.summary),
      list.lessons.length ? h('ol', { class: 'lesson-list' }, list.lessons.map((l) => h('li', {},
        h('a', { class: 'button', id: `lesson-${l.id}`, href: `/learn/${encodeURIComponent(name)}/${encodeURIComponent(l.id)}` }, l.title),
        ' ', h('span', {}, l.summary), ' ', h('small', { class: 'muted' }, `${l.steps} steps`))))
        : h('p', {}, 'There are no lessons for this game yet.'),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    return;
  }
  const [game, lesson] = await Promise.all([
    gameModule(name),
    api(`/api/games/${encodeURIComponent(name)}/lessons/${encodeURIComponent(id)}`),
  ]);
  if (game.prepare) game.prepare(about, { options: {} });
  document.title = `${lesson.title} — Learn ${about.title}`;
  setSeatNames([]);

  const head = h('div', { class: 'status-line' });
  const text = h('div', { class: 'panel lesson-text', id: 'lesson-text' });
  const board = h('div', { class: `board ${name}` });
  const buttons = h('div', { class: 'actions' });
  const answer = h('div', { class: 'panel lesson-answer', id: 'lesson-answer', hidden: true, 'aria-live': 'polite' });
  root.replaceChildren(h('div', { class: 'table-page lesson-page' }, head, text, answer,
    h('div', { class: 'play-area' }, board, buttons)));

  let at = 0; // the step on show, from 0
  let snap = null;
  let pending = false;
  let done = false; // the step's asked move is made
  const clicks = boardClicks({
    board, buttons, send,
    canPlay: () => !pending && !done,
    busy: () => pending || done,
  });

  // The board elements the events touched, marked as a table marks the last move.
  function mark(events) {
    for (const el of board.querySelectorAll('.last-move')) el.classList.remove('last-move');
    if (!game.marks) return;
    for (const ev of events) {
      for (const m of game.marks(ev, snap) || []) {
        for (const el of board.querySelectorAll(`[data-mark="${CSS.escape(m)}"]`)) el.classList.add('last-move');
      }
    }
  }

  function draw(entries) {
    board.replaceChildren(game.render(snap, { entries: entries || [], hidden: null }));
    clicks.decorate();
    mark((entries || []).flatMap((e) => e.events));
    document.body.dataset.step = String(at + 1);
    document.body.dataset.pending = pending ? 'yes' : 'no';
  }

  function showStep(i) {
    at = i;
    done = false;
    const step = lesson.steps[i];
    snap = { view: step.view, seat: lesson.seat, moves: step.moves, legal: step.moves.map((m) => m.action) };
    head.replaceChildren(
      h('span', { class: 'turn mine' }, lesson.title),
      h('span', { class: 'muted' }, ` · step ${i + 1} of ${lesson.steps.length}`),
      h('a', { class: 'button small', href: `/learn/${encodeURIComponent(name)}` }, 'All lessons'),
      h('a', { class: 'button small', href: '/' }, 'Lobby'));
    text.replaceChildren(h('p', {}, withNames(step.text)));
    answer.hidden = true;
    answer.replaceChildren();
    clicks.clear();
    clicks.setMoves(step.moves);
    draw([]);
  }

  function tell(kind, children) {
    answer.hidden = false;
    answer.className = `panel lesson-answer ${kind}`;
    answer.dataset.kind = kind;
    // Each answer counted, so a second answer of the same kind is told apart.
    answer.dataset.seq = String(Number(answer.dataset.seq || 0) + 1);
    answer.replaceChildren(...children);
    // Said to a screen reader too (a region shown only now may not be read).
    announce(answer.textContent);
  }

  async function send(action) {
    if (pending || done) return;
    pending = true;
    clicks.decorate();
    try {
      const got = await api(`/api/games/${encodeURIComponent(name)}/lessons/${encodeURIComponent(id)}/steps/${at + 1}`,
        { method: 'POST', body: { action } });
      pending = false;
      if (!got.asked) {
        tell('wrong', [h('b', {}, 'Not this time. '), withNames(got.message)]);
        clicks.decorate();
        document.body.dataset.pending = 'no';
        return;
      }
      done = true;
      snap = { ...snap, view: got.view, moves: [], legal: [] };
      clicks.setMoves([]);
      draw(got.log);
      const told = h('ul', { class: 'log-events', id: 'lesson-log' }, got.log.flatMap((e) => e.events.map((ev) =>
        h('li', { class: 'log-event', dataset: { kind: ev.kind || '' } }, withNames(ev.text)))));
      const next = got.next
        ? h('button', { class: 'primary', id: 'next-step', onclick: () => showStep(got.next - 1) }, 'Next step')
        : h('div', { class: 'lesson-end' },
          h('p', {}, 'That is the end of the lesson. Now try a real game.'),
          h('button', { class: 'primary', id: 'play-easy', onclick: playEasy }, 'Play against the easy bot'));
      tell('right', [h('p', {}, withNames(got.message)), told, next]);
    } catch (e) {
      pending = false;
      tell('wrong', [h('b', {}, 'Not allowed: '), withNames(e.message)]);
      clicks.decorate();
      document.body.dataset.pending = 'no';
    }
  }

  // A real table: the learner in seat 1, the easy bot in every other seat.
  async function playEasy() {
    try {
      const n = Math.max(2, about.players.min);
      const table = await api('/api/tables', { method: 'POST', body: { game: name, seats: ['human', ...Array(n - 1).fill('easy')] } });
      const mine = table.seats.find((s) => s.token);
      tokens.put(table.id, mine.seat, mine.token);
      location.href = `/play/${table.id}?token=${encodeURIComponent(mine.token)}`;
    } catch (e) { tell('wrong', [withNames(e.message)]); }
  }

  showStep(0);
}
