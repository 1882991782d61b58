// The table's players in one line: each seat's name (an account's linking to its
// profile) with its rating at this game beside it (an account's, or a bot's fixed one;
// a guest has none), from the table's summary (`GET /api/tables/{id}`). A rated table
// that has just finished is read again until its new ratings show.
import { h, api, ratedName } from './ui.js';

/** The players' line of table `t` (see table.js for `t`). */
export function makePlayers(t) {
  const line = h('p', { class: 'players-line', id: 'players' });
  let seats = t.summary.seats || [];
  let reread = false;

  function draw() {
    const mine = t.snap ? t.snap.seat : null;
    line.replaceChildren(...['Players: ', seats.map((s, i) => {
      const sep = i ? ' · ' : '';
      if (s.player === 'open') return [sep, `seat ${s.seat + 1} open`];
      const who = ratedName(s.name, { account: Boolean(s.account), rating: s.rating });
      const bot = s.player === 'human' ? '' : ` (${s.player} bot)`;
      return [sep, who, bot, s.seat === mine ? ' (you)' : ''];
    })].flat(Infinity));
  }

  // The ratings are written in the background once the game ends: ask a few times.
  async function rereadRatings() {
    const before = JSON.stringify(seats.map((s) => s.rating));
    for (let i = 0; i < 10; i += 1) {
      await new Promise((done) => { setTimeout(done, 500 + 500 * i); });
      try {
        const summary = await api(`/api/tables/${t.id}`);
        seats = summary.seats || seats;
        draw();
        if (JSON.stringify(seats.map((s) => s.rating)) !== before) return;
      } catch { /* tried again */ }
    }
  }

  /** Draws the line for the snapshot on show. */
  function update() {
    draw();
    const rated = t.summary.table && t.summary.table.rated;
    if (rated && !reread && t.summary.status !== 'finished' && t.snap && t.snap.status === 'finished') {
      reread = true;
      rereadRatings();
    }
  }

  draw();
  return { line, update };
}
