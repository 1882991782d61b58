// The coach at a table made with hints: up to three moves for this seat's turn. Choosing
// one plays nothing: it shows the move on the board (or its button), and the player
// confirms it. Past the server's limit the button waits, with the wait in words.
import { h, api, withNames, waitWords } from './ui.js';

/** The hints of table `t` (see table.js for `t`). */
export function makeHints(t) {
  const { id, token } = t;
  // The coach's suggestions for this seat's turn.
  const box = h('div', { class: 'hint-box', id: 'hints', hidden: true });
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
    if (t.snap) t.status.draw();
  }
  function hintWaitText() {
    return `You can ask for another hint in ${waitWords((hintReady - Date.now()) / 1000)}.`;
  }
  // Four times a second, so the words change within a quarter second of the wait's
  // whole seconds, whenever the wait began.
  setInterval(() => {
    const line = document.getElementById('hint-wait');
    if (!line) return;
    if (hintWaiting()) line.textContent = hintWaitText();
    else if (t.snap) t.status.draw();
  }, 250);
  if (t.hintsOn && token) {
    api(`/api/tables/${id}/hint`, { token }).then((got) => hintWaitFor(got.wait)).catch(() => { /* asked when the button is pressed */ });
  }

  async function askHint() {
    if (!t.snap || hintWaiting()) return;
    const { version } = t.snap;
    box.hidden = false;
    box.replaceChildren(h('p', { class: 'muted' }, 'The coach is thinking…'));
    try {
      const got = await api(`/api/tables/${id}/hint`, { method: 'POST', token });
      hintWaitFor(got.wait);
      if (!t.snap || t.snap.version !== got.version || got.version !== version) { box.hidden = true; return; }
      hintFor = got.version;
      box.replaceChildren(
        h('p', { class: 'hint-head' }, 'The coach suggests (choosing one marks it on the board; nothing is played until you click it there):'),
        h('ol', { class: 'hint-list' }, got.moves.map((a) => h('li', {},
          h('button', { class: 'hint-move', dataset: { hint: a.action }, onclick: () => chooseHint(a.action) },
            h('strong', {}, a.label), ' ', h('small', {}, adviceWords(a)))))));
    } catch (e) {
      if (e.retryAfter) { box.hidden = true; hintWaitFor(e.retryAfter); return; }
      box.replaceChildren(h('p', { class: 'error', id: 'hint-error' }, withNames(e.message)));
    }
  }
  function chooseHint(action) {
    if (!t.pending) t.board.clicks.pickHint(action);
    t.board.decorate();
  }

  return {
    box,
    /** A new position: suggestions made for another one go. */
    newVersion(version) {
      if (hintFor !== version) { box.hidden = true; box.replaceChildren(); }
    },
    /** Marks the suggestion the player chose (`hinted`: its action, or null). */
    markChosen(hinted) {
      for (const b of box.querySelectorAll('[data-hint]')) b.classList.toggle('chosen', b.dataset.hint === hinted);
    },
    /** The status line's hint button, and the wait in words past the limit. */
    buttons() {
      const { snap } = t;
      if (!t.hintsOn || snap.to_act !== snap.seat || !snap.legal.length || (snap.open_seats || []).length) return [];
      const waiting = hintWaiting();
      return [
        h('button', { class: 'small', id: 'suggest', title: 'Ask the coach for its three best moves; everyone is told you asked', onclick: askHint, disabled: waiting, 'aria-describedby': waiting ? 'hint-wait' : null }, 'Suggest a move'),
        waiting ? h('span', { class: 'hint-wait', id: 'hint-wait', role: 'status' }, hintWaitText()) : null,
      ].filter(Boolean);
    },
  };
}
