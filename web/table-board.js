// A table's board: drawn by the game's module from the snapshot, played through the
// click model (clicks.js), with a card's text shown on a tap.
import { h } from './ui.js';
import { boardClicks, placeBeside } from './clicks.js';

/** The board of table `t` (see table.js for `t`). */
export function makeBoard(t) {
  const board = h('div', { class: `board ${t.summary.game}` });
  const buttons = h('div', { class: 'actions' });
  // A card's text, shown on a tap (hover shows it as a tooltip).
  const info = h('div', { class: 'info-pop', id: 'info-pop', hidden: true, onclick: () => { info.hidden = true; } });

  const clicks = boardClicks({
    board, buttons,
    // A move the game's module composes with the player first (a trade in one dialog)
    // opens that instead of being sent.
    send: (text) => { if (!(t.game.compose && t.game.compose(text, t))) t.socket.send(text); },
    canPlay: () => !t.pending && t.snap && t.snap.legal.length > 0,
    busy: () => t.pending,
    onOther: (ev) => showInfo(ev),
    more: () => (t.game.sequences && t.snap ? t.game.sequences(t.snap, t) : []),
  });

  // Marks what may be clicked now and lays out the buttons.
  function decorate() {
    t.status.setBody();
    clicks.decorate();
    t.hints.markChosen(clicks.hinted());
  }

  // A finished round the viewer closed (by its round number), for games that show one.
  let hiddenRound = null;
  board.addEventListener('click', (ev) => {
    const close = ev.target.closest('[data-close-round]');
    if (close) { hiddenRound = Number(close.dataset.closeRound); redraw(); }
  });

  function redraw() {
    board.replaceChildren(t.game.render(t.snap, { entries: t.log.entries(), hidden: hiddenRound }));
    decorate();
    // The last move stays marked on the board until the next one.
    t.log.markBoard();
  }

  // By keys, the text of what has the focus shows as a tap would show it (a space's
  // whole sentence, cut short on the board), and goes with the focus.
  board.addEventListener('focusin', (ev) => { if (ev.target.matches(':focus-visible')) showInfo(ev); });
  board.addEventListener('focusout', () => { info.hidden = true; });

  // A tap on something with a text (`data-info`) that is not a move shows the text.
  function showInfo(ev) {
    const el = ev.target.closest('[data-info]');
    if (!el || !board.contains(el)) { info.hidden = true; return; }
    info.replaceChildren(h('b', {}, el.dataset.infoTitle || ''), h('span', {}, el.dataset.info));
    info.hidden = false;
    placeBeside(info, el);
  }

  /** The board elements the events touched (`data-mark`), marked with `cls`. */
  function mark(events, cls) {
    for (const el of board.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
    if (!t.snap || !t.game.marks) return;
    for (const ev of events) {
      for (const m of t.game.marks(ev, t.snap) || []) {
        for (const el of board.querySelectorAll(`[data-mark="${CSS.escape(m)}"]`)) el.classList.add(cls);
      }
    }
  }

  return {
    board,
    buttons,
    info,
    clicks,
    decorate,
    redraw,
    mark,
    /** A new position: no source selected, no card's text open. */
    clear() { clicks.clear(); info.hidden = true; },
  };
}
