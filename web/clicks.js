// The click model, shared by the table page and the lesson page, and the popup beside an
// element.
import { h } from './ui.js';
import { boardKeys } from './keys.js';

/**
 * The click model. The game describes each legal move (`moves`): the action to send, a
 * label in words, and the keys of the board elements (`data-key`) it takes (`from`) and
 * where it goes (`to`). A move with both is played by clicking its source, then its
 * target, or by a click on the target alone when only one move goes there; with one
 * of them, by one click. Any move the board does not show becomes a
 * button with its label, so every legal action is always offered, and nothing else is.
 *
 * `boardClicks` wires it to a board and its row of buttons: `send(action)` plays a move,
 * `canPlay()` says whether a click may play now, `busy()` whether a move is on its way
 * (nothing is offered then), `onOther(ev)` hears a click on nothing playable. The table
 * page and the lesson page both play through it. `more()` gives buttons of the page's own
 * (a sequence of moves for one decision), shown with the others when nothing is selected.
 */
class Moves {
  constructor(moves) {
    this.list = (moves || []).map((m) => ({ text: m.action, label: m.label, src: m.from, dst: m.to }));
  }
  from(src) { return this.list.filter((m) => m.src === src); }
  onlyTo(dst) { return this.list.filter((m) => !m.src && m.dst === dst); }
  /** The moves that go to `dst`, from anywhere: a click on the target alone plays the
   * one there is (a die placed where only one die can go). */
  to(dst) { return this.list.filter((m) => m.dst === dst); }
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

export function boardClicks({ board, buttons, send, canPlay, busy = () => false, onOther = () => {}, more = () => [] }) {
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
      } else if (moves.from(k).length || moves.to(k).length === 1 || moves.onlyTo(k).length) {
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
    // The page's own buttons for a decision the game takes as several moves.
    if (selected === null && !pending) buttons.append(...more());
    if (selected !== null) {
      buttons.prepend(h('button', { class: 'cancel-btn', onclick: () => { selected = null; hinted = null; decorate(); } }, 'Cancel'));
    }
    // The suggested move the player picked: where it is on the board, to be confirmed by
    // a click like any move.
    const pick = hinted !== null && !pending ? moves.list.find((m) => m.text === hinted) : null;
    for (const el of board.querySelectorAll('[data-key]')) {
      el.classList.toggle('hinted', Boolean(pick) && (el.dataset.key === pick.dst || (el.dataset.key === pick.src && !pick.dst)));
    }
    refocus();
  }

  board.addEventListener('click', (ev) => {
    const playable = ev.target.closest('.pick, .drop, .selected');
    if (!playable) onOther(ev);
    activate(ev.target);
  });

  // A click on `target`, or Enter or Space on it: the innermost element whose key does
  // something now plays its move, picks it as a source, or drops the one picked.
  function activate(target) {
    if (!canPlay()) return;
    let el = target.closest('[data-key]');
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
      // A target clicked first: the one move that goes there, or a button for each of
      // those that take nothing from the board.
      if (moves.to(k).length === 1) { play(moves.to(k)[0].text); return; }
      const to = moves.onlyTo(k);
      if (to.length > 1) {
        buttons.replaceChildren(...to.map((m) => h('button', { class: 'act-btn', dataset: { action: m.text }, onclick: () => play(m.text) }, m.label || m.text)));
        // By keys, the choice goes on among those buttons.
        if (board.contains(document.activeElement)) buttons.querySelector('button').focus();
        return;
      }
      el = el.parentElement && el.parentElement.closest('[data-key]');
    }
    if (selected !== null) { selected = null; decorate(); }
  }

  // The same by keys (keys.js): Escape drops the picked source.
  const refocus = boardKeys({
    board, buttons, activate,
    cancel: () => { if (selected === null) return false; selected = null; hinted = null; decorate(); return true; },
    words: (el) => whatItDoes(el.dataset.key),
  });

  // What choosing the element of key `k` would do, in words (for a screen reader).
  function whatItDoes(k) {
    if (selected !== null) {
      if (k === selected) return 'Picked: choose it again to put it back';
      const m = moves.list.find((x) => x.src === selected && x.dst === k);
      return m ? m.label || m.text : '';
    }
    const from = moves.from(k);
    if (from.length === 1 && !from[0].dst) return from[0].label || from[0].text;
    if (from.length) return `Pick it, then choose where it goes (${from.length} move${from.length === 1 ? '' : 's'})`;
    const to = moves.to(k).length === 1 ? moves.to(k) : moves.onlyTo(k);
    if (to.length === 1) return to[0].label || to[0].text;
    return to.length ? `${to.length} moves` : '';
  }

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
