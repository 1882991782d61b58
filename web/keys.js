// Playing by keys, shared by the table and the lesson pages: what may be played now is
// reachable by Tab (one stop per row: a hand, a row of districts or spaces, a player's
// dice) and by the arrow keys within a row, chosen by Enter or Space; Escape drops a
// half-made move; `?` lists the keys. Also the page's one polite live region, and
// dialogs that hold focus while open and give it back when closed.
import { h } from './ui.js';

/** The keys, as the help dialog lists them (docs/accessibility.md says the same). */
const KEYS = [
  ['Tab, Shift+Tab', 'Go to the next or previous part of the board, button or field. Only what you may play now is a stop on the board.'],
  ['← →', 'Go to the previous or next thing in a row: a card of your hand, a district, a space, a die.'],
  ['↑ ↓', 'Go to the previous or next row of the board.'],
  ['Enter, Space', 'Choose what has the focus: a card or die to move, where it goes, or a button.'],
  ['Escape', 'Put back the card or die you picked, or close a dialog.'],
  ['?', 'Show this list of keys.'],
];

/** Opens `dialog` as a modal: the rest of the page is out of reach while it is open;
 * closed (by a button or Escape), it leaves the page and the focus goes back to where
 * it was. */
export function openModal(dialog) {
  const back = document.activeElement;
  dialog.addEventListener('close', () => {
    dialog.remove();
    // A button the page drew again meanwhile (the status line is, on every move) is
    // found again by its id.
    const to = back && !document.contains(back) && back.id ? document.getElementById(back.id) : back;
    if (to && document.contains(to) && typeof to.focus === 'function') to.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** The list of keys, in a dialog. */
export function showKeys() {
  if (document.getElementById('keys-help')) return;
  const close = h('button', { type: 'button', id: 'keys-close', onclick: () => dialog.close() }, 'Close');
  const dialog = h('dialog', { class: 'keys-dialog', id: 'keys-help', 'aria-labelledby': 'keys-title' },
    h('h2', { id: 'keys-title' }, 'Playing by keys'),
    h('table', { class: 'keys-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Keys'), h('th', { scope: 'col' }, 'What they do'))),
      h('tbody', {}, KEYS.map(([k, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, k)), h('td', {}, what))))),
    h('p', {}, 'What a card, space or die is and what choosing it would do is read out by a screen reader; moves the board does not show are buttons under it.'),
    h('div', { class: 'trade-buttons' }, close));
  openModal(dialog);
  close.focus();
}

// `?` anywhere but in a field opens the list of keys (installed once a page).
let helpKey = false;
function installHelpKey() {
  if (helpKey) return;
  helpKey = true;
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== '?' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest && ev.target.closest('input, textarea, select, [contenteditable], dialog')) return;
    ev.preventDefault();
    showKeys();
  });
}

/** Says `text` to a screen reader, politely (after what it is reading). One region a
 * page, kept to its last few lines. */
export function announce(text) {
  let region = document.getElementById('announcer');
  if (!region) {
    region = h('div', { id: 'announcer', class: 'sr-only', role: 'status', 'aria-live': 'polite' });
    document.body.append(region);
  }
  region.append(h('p', {}, text));
  while (region.childElementCount > 3) region.firstElementChild.remove();
}

// Whether the player is using the keys (the last thing they did was a key, not a
// pointer): only then does the focus follow the board when it is drawn again.
let keyboard = false;
document.addEventListener('keydown', (ev) => { if (ev.key === 'Tab' || ev.key.startsWith('Arrow') || ev.key === 'Enter' || ev.key === ' ') keyboard = true; }, true);
document.addEventListener('pointerdown', () => { keyboard = false; }, true);

/**
 * Keys on a board: `activate(el)` plays or picks element `el` (as a click on it),
 * `cancel()` drops a half-made move and says whether there was one, `words(el)` what
 * choosing `el` would do (its description, read after its name). Returns `refocus`,
 * to call after each drawing: it makes the playable elements stops (one a row) and, when
 * the focus was on the board or its buttons and the drawing took it away, puts it back on
 * the same thing or on the first playable one.
 */
export function boardKeys({ board, buttons, activate, cancel, words = () => '' }) {
  installHelpKey();
  const playable = () => [...board.querySelectorAll('[data-key].pick, [data-key].drop, [data-key].selected')];
  const rowOf = (el) => el.parentElement;
  let lastKey = null;
  let inside = false;
  const ours = (el) => el && (board.contains(el) || buttons.contains(el));
  for (const area of [board, buttons]) {
    area.addEventListener('focusin', (ev) => {
      inside = true;
      const el = ev.target.closest('[data-key], [data-action]');
      if (el) lastKey = el.dataset.key ? `k:${el.dataset.key}` : `a:${el.dataset.action}`;
    });
    area.addEventListener('focusout', (ev) => { if (ev.relatedTarget && !ours(ev.relatedTarget)) inside = false; });
  }

  board.addEventListener('keydown', (ev) => {
    const el = ev.target.closest('[data-key]');
    if (ev.key === 'Escape') {
      if (cancel()) ev.preventDefault();
      return;
    }
    if (!el || !board.contains(el) || !el.hasAttribute('tabindex')) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      activate(el);
      return;
    }
    const all = playable();
    const row = all.filter((x) => rowOf(x) === rowOf(el));
    let to = null;
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
      const i = row.indexOf(el) + (ev.key === 'ArrowRight' ? 1 : -1);
      to = row[(i + row.length) % row.length];
    } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      const down = ev.key === 'ArrowDown';
      const i = all.indexOf(el);
      const others = down ? all.slice(i + 1) : all.slice(0, i).reverse();
      to = others.find((x) => rowOf(x) !== rowOf(el)) || null;
    } else return;
    ev.preventDefault();
    if (to && to !== el) to.focus();
  });
  // A key pressed outside the board while a move is half made: Escape still drops it.
  buttons.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && cancel()) ev.preventDefault(); });

  return function refocus() {
    const all = playable();
    const stop = new Map();
    for (const el of all) {
      const row = rowOf(el);
      if (!stop.has(row) || `k:${el.dataset.key}` === lastKey) stop.set(row, el);
    }
    for (const el of board.querySelectorAll('[data-key]')) {
      if (!el.dataset.role0) el.dataset.role0 = el.getAttribute('role') || '-';
      if (all.includes(el)) {
        el.setAttribute('role', 'button');
        // Its name is what it shows; what choosing it does is its description.
        const does = words(el);
        if (does) el.setAttribute('aria-description', does);
        else el.removeAttribute('aria-description');
        el.setAttribute('tabindex', stop.get(rowOf(el)) === el ? '0' : '-1');
        if (el.classList.contains('selected')) el.setAttribute('aria-pressed', 'true');
        else el.removeAttribute('aria-pressed');
      } else {
        el.removeAttribute('tabindex');
        el.removeAttribute('aria-pressed');
        el.removeAttribute('aria-description');
        if (el.dataset.role0 === '-') el.removeAttribute('role');
        else el.setAttribute('role', el.dataset.role0);
      }
    }
    const lost = !document.activeElement || document.activeElement === document.body || !document.contains(document.activeElement);
    if (!inside || !keyboard || !lost) return;
    const again = [...board.querySelectorAll('[data-key][tabindex]'), ...buttons.querySelectorAll('button')]
      .find((el) => (el.dataset.key ? `k:${el.dataset.key}` : `a:${el.dataset.action}`) === lastKey);
    const next = again || all.find((el) => el.getAttribute('tabindex') === '0') || buttons.querySelector('button');
    if (next) next.focus();
  };
}
