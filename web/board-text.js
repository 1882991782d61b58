// The board in plain text, in a dialog: the game's own words for what this viewer may
// know (`GET /api/tables/{id}/board`, the text the terminal prints), to read the whole
// board at once with a screen reader or on a narrow screen.
import { h, api } from './ui.js';
import { openModal } from './keys.js';

/** Opens the dialog for table `id`, as the seat of `token` (a spectator without one). */
export async function showBoardText(id, token) {
  if (document.getElementById('board-text')) return;
  const text = h('pre', { class: 'board-text', tabindex: '0', 'aria-labelledby': 'board-text-title' }, 'Reading the board…');
  const close = h('button', { type: 'button', onclick: () => dialog.close() }, 'Close');
  const dialog = h('dialog', { class: 'keys-dialog', id: 'board-text', 'aria-labelledby': 'board-text-title' },
    h('h2', { id: 'board-text-title' }, 'The board as text'),
    text,
    h('div', { class: 'trade-buttons' }, close));
  openModal(dialog);
  text.focus();
  try {
    const board = await api(`/api/tables/${encodeURIComponent(id)}/board`, { token });
    text.textContent = `At move ${board.version}:\n\n${board.text}`;
    dialog.dataset.version = board.version;
  } catch (e) {
    text.textContent = `The board could not be read: ${e.message}`;
  }
}
