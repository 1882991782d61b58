// A finished game's review: the chart of each seat's chances, the marked moves, and a
// past moment of the board (as the player who made the move saw it).
import { h, api, fullName, seatMark, withNames } from './ui.js';
import { endingParts } from './table-end.js';

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** Each seat's chance to win over the game, as an inline SVG (a line and a dot a decision). */
function chart(review, names) {
  const W = 640; const H = 220; const left = 44; const right = 12; const top = 12; const bottom = 30;
  const last = Math.max(1, ...review.moves.map((m) => m.ply));
  const x = (ply) => left + (ply / last) * (W - left - right);
  const y = (chance) => top + (1 - chance) * (H - top - bottom);
  const round = (n) => Math.round(n * 10) / 10;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((c) => [
    svg('line', { class: 'chart-grid', x1: left, x2: W - right, y1: round(y(c)), y2: round(y(c)) }),
    svg('text', { class: 'chart-label', x: left - 6, y: round(y(c)) + 4, 'text-anchor': 'end' }, `${Math.round(c * 100)}%`)]);
  const marked = new Set(review.moves.filter((m) => m.marked).map((m) => `${m.seat}:${m.ply}`));
  const lines = review.series.map((points, seat) => svg('g', { class: `chart-seat seat-${seat}`, dataset: { seat: String(seat) } },
    svg('title', {}, names[seat] || `Seat ${seat + 1}`),
    svg('polyline', { class: 'chart-line', points: points.map(([ply, c]) => `${round(x(ply))},${round(y(c))}`).join(' ') }),
    points.map(([ply, c]) => svg('circle', {
      class: `chart-point ${marked.has(`${seat}:${ply}`) ? 'marked' : ''}`,
      cx: round(x(ply)), cy: round(y(c)), r: marked.has(`${seat}:${ply}`) ? 5 : 2.5,
      dataset: { seat: String(seat), ply: String(ply), chance: String(c) },
    }, svg('title', {}, `${names[seat] || `Seat ${seat + 1}`}, move ${ply + 1}: ${Math.round(c * 100)}% chance to win`)))));
  return svg('svg', { class: 'review-chart', id: 'review-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Each player\'s chance to win over the game', dataset: { last: String(last), left, right, top, bottom, width: W, height: H } },
    grid,
    svg('text', { class: 'chart-label', x: (left + W - right) / 2, y: H - 6, 'text-anchor': 'middle' }, 'move'),
    lines);
}

/** The review of table `t` (see table.js for `t`). */
export function makeReview(t) {
  const { id } = t;
  const box = h('div', { class: 'review-holder', id: 'review', hidden: true });
  const mine = () => (t.snap ? t.snap.seat : null);

  // Asked for once, shown when the server has made it (it tells how far it is meanwhile).
  let reviewAsked = false;
  async function open() {
    box.hidden = false;
    box.scrollIntoView({ block: 'start' });
    if (reviewAsked) return;
    reviewAsked = true;
    box.replaceChildren(h('div', { class: 'panel review' }, h('p', { id: 'review-progress' }, 'The coach is reviewing the game…')));
    for (;;) {
      let got;
      try { got = await api(`/api/tables/${id}/review`); } catch (e) {
        reviewAsked = false;
        box.replaceChildren(h('div', { class: 'panel review' }, h('p', { class: 'error', id: 'review-error' }, withNames(e.message))));
        return;
      }
      if (got.status === 'done') { draw(got.review, got.names); return; }
      const progress = document.getElementById('review-progress');
      if (progress) progress.textContent = got.of ? `The coach is reviewing the game: ${got.done} of ${got.of} moves…` : 'The coach is reviewing the game…';
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  function draw(review, names) {
    const order = [...Array(review.seats).keys()];
    const places = t.snap && t.snap.outcome ? t.snap.outcome.places : null;
    if (places) order.sort((a, b) => places[a] - places[b]);
    const { why, lines } = endingParts(review.ending, order, 'review', mine());
    // Each seat's line by its colour and its dashes (style.css), its shape beside its name.
    const legend = h('p', { class: 'chart-legend' }, names.map((n, s) => h('span', { class: `legend seat-${s}` },
      svg('svg', { class: 'swatch-line', viewBox: '0 0 30 6', width: 30, height: 6, 'aria-hidden': 'true' }, svg('line', { class: 'chart-line', x1: 0, y1: 3, x2: 30, y2: 3 })),
      ' ', seatMark(s), ' ', fullName(s, mine()))));
    const marks = review.moves.filter((m) => m.marked);
    const percent = (c) => `${Math.round(c * 100)}%`;
    const markList = marks.length
      ? h('ol', { class: 'review-marks', id: 'review-marks' }, marks.map((m) => h('li', { class: `review-mark seat-${m.seat}`, dataset: { ply: String(m.ply), seat: String(m.seat) } },
        h('strong', {}, `Move ${m.ply + 1} · `, fullName(m.seat, mine())), ': played “',
        h('span', { class: 'played' }, withNames(m.played.label)), `” (${percent(m.played.chance)} chance to win); the coach preferred “`,
        h('span', { class: 'preferred' }, withNames(m.best.label)), `” (${percent(m.best.chance)}). `,
        h('button', { class: 'small moment-open', onclick: () => showMoment(m) }, 'See the board then'))))
      : h('p', { class: 'muted', id: 'review-marks' }, 'No move lost much: the coach would have played about as well.');
    box.replaceChildren(h('div', { class: 'panel review' },
      h('h2', {}, 'Review'),
      h('p', { class: 'muted' }, 'Each player\'s chance to win after each of their moves, as the coach judged it from what that player could see.'),
      chart(review, names), legend,
      h('h3', {}, 'The moves that cost the most'),
      h('p', { class: 'muted' }, 'Each move in quotes is named as it was offered to the player who made it.'),
      markList,
      h('div', { class: 'moment-holder', id: 'moment' }),
      h('h3', {}, 'How it ended'), why, lines,
      h('button', { class: 'small', onclick: () => { box.hidden = true; } }, 'Close the review')));
  }

  // A past moment of the finished game: the board before a marked move, as the player
  // who made it saw it.
  async function showMoment(m) {
    const holder = document.getElementById('moment');
    if (!holder) return;
    try {
      const at = await api(`/api/tables/${id}/moments/${m.ply}?seat=${m.seat}`);
      const past = { ...t.snap, version: at.version, seat: at.seat, to_act: at.to_act, view: at.view, legal: [], moves: [], status: 'running', events: [] };
      const pastBoard = h('div', { class: `board ${t.summary.game} past` });
      pastBoard.replaceChildren(t.game.render(past, { entries: [], hidden: null }));
      holder.replaceChildren(h('div', { class: 'panel moment', dataset: { version: String(at.version) } },
        h('h3', {}, `Before move ${m.ply + 1}, as `, fullName(m.seat, null), ' saw it'),
        h('p', {}, 'Played: “', h('strong', {}, withNames(m.played.label)), '” · the coach preferred: “', h('strong', {}, withNames(m.best.label)), '”'),
        pastBoard,
        h('button', { class: 'small', onclick: () => holder.replaceChildren() }, 'Hide the board')));
      holder.scrollIntoView({ block: 'start' });
    } catch (e) { holder.replaceChildren(h('p', { class: 'error' }, withNames(e.message))); }
  }

  return { box, open };
}
