// A table's end screen: who won, why the game ended and each score line by line, the
// series, and the ways on (rematch, review, replay, lobby).
import { h, api, nameEl, seatName, fullName, withNames, ordinal, tokens } from './ui.js';

/**
 * Why the game ended and each score line by line, as the game's own scoring gives them
 * (the lines add up to the score; the page adds nothing up itself): the end screen's and
 * the review's. `order` lists the seats as shown, `prefix` starts the elements' ids,
 * `mine` is the viewer's seat (or null).
 */
export function endingParts(ending, order, prefix, mine) {
  const why = ending ? h('p', { class: 'end-why', id: `${prefix}-why` }, withNames(ending.why)) : null;
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  const lines = ending ? h('div', { class: 'end-lines', id: `${prefix}-lines` },
    order.map((s) => {
      const seat = ending.seats[s];
      if (!seat) return null;
      return h('table', { class: 'score-lines', dataset: { seat: String(s) } },
        h('caption', {}, fullName(s, mine)),
        seat.lines.map((l) => h('tr', {},
          h('td', { class: 'line-label' }, withNames(l.label)),
          h('td', { class: 'line-points' }, signed(l.points)))),
        h('tr', { class: 'line-total' }, h('th', {}, 'Total'), h('th', { class: 'line-points' }, String(seat.total))));
    })) : null;
  return { why, lines };
}

/** The end screen of table `t` (see table.js for `t`). */
export function makeEnd(t) {
  const { id, token } = t;
  const screen = h('div', { class: 'end-holder' });

  // The rematch: asked for by this seat, or by another (then this page follows it).
  let rematching = false;
  async function rematch() {
    if (rematching || !token) return;
    rematching = true;
    try {
      const next = await api(`/api/tables/${id}/rematch`, { method: 'POST', token });
      tokens.put(next.table, next.seat, next.token);
      t.socket.leave();
      location.href = next.invite;
    } catch (e) { rematching = false; t.status.flash(e.message); }
  }

  let endShown = false;
  function draw() {
    const { snap } = t;
    if (snap.status !== 'finished' || !snap.outcome) { screen.replaceChildren(); return; }
    const { scores, places } = snap.outcome;
    const order = scores.map((_, s) => s).sort((a, b) => places[a] - places[b]);
    const winners = order.filter((s) => places[s] === 0);
    const series = snap.series;
    const seriesLine = series ? h('p', { class: 'series', id: 'series' },
      `Series: ${series.games + 1} games · wins `,
      snap.names.map((n, s) => [s ? ', ' : '', nameEl(n), ` ${series.wins[s] + (places[s] === 0 ? 1 : 0)}`])) : null;
    let again = null;
    if (snap.seat !== null && token) {
      again = h('button', { class: 'primary', id: 'rematch', onclick: rematch }, snap.rematch ? 'Join the rematch' : 'Rematch');
    } else if (snap.rematch) {
      again = h('a', { class: 'button', id: 'watch-rematch', href: `/play/${snap.rematch}` }, 'Watch the rematch');
    }
    // Another player asked: this seat's page follows to the new table.
    if (snap.rematch && snap.seat !== null && token) rematch();
    const headline = winners.includes(snap.seat)
      ? (winners.length > 1 ? 'You share the win!' : 'You win!')
      : [winners.map((s, i) => [i ? ' and ' : '', seatName(s, snap.seat)]), ` win${winners.length > 1 ? '' : 's'}`];
    const { why, lines } = endingParts(snap.ending, order, 'end', snap.seat);
    screen.replaceChildren(h('div', { class: 'panel end-screen' },
      h('h2', {}, headline),
      why,
      h('table', { class: 'scores' },
        h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Score')),
        order.map((s) => h('tr', { class: places[s] === 0 ? 'winner' : '' },
          h('td', {}, ordinal(places[s])), h('td', {}, fullName(s, snap.seat)), h('td', {}, String(scores[s]))))),
      lines,
      seriesLine, again,
      h('button', { id: 'review-open', onclick: () => t.review.open() }, 'Review the game'),
      h('a', { class: 'button', id: 'replay-open', href: `/replay/${id}` }, 'Replay move by move'),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    // The game just ended (or the page opened on its end): the end screen comes into
    // view, wherever the player had scrolled, once.
    if (!endShown) {
      endShown = true;
      screen.scrollIntoView({ block: 'start' });
    }
  }

  return { screen, draw };
}
