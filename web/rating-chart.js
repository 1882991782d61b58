// A rating over time as an inline SVG line chart, with its text alternative: a sentence
// that sums it up (the chart's accessible name) and a table of every point. The points
// are `GET /api/players/{name}`'s `history` of one game: the rating before the first
// rated game, then after each, oldest first. They are spaced evenly, one step a game
// (the table gives each one's date).
import { h } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 480;
const H = 180;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** A date and time in words of the reader's locale. */
export function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The chart's summary in words: where the rating started and ended, its highest and lowest. */
export function summary(points, title) {
  const first = points[0].rating;
  const last = points[points.length - 1].rating;
  const values = points.map((p) => p.rating);
  const games = points.length - 1;
  return `${title}: from ${first} to ${last} over ${games} rated game${games === 1 ? '' : 's'}; `
    + `highest ${Math.max(...values)}, lowest ${Math.min(...values)}.`;
}

/**
 * The chart of `points` for the game called `title`, and its text alternative; `key`
 * names its elements (`chart-KEY`, `chart-summary-KEY`, `chart-table-KEY`).
 */
export function ratingChart(points, title, key) {
  const values = points.map((p) => p.rating);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => PAD.left + (points.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const said = summary(points, `Rating in ${title}`);
  const summaryId = `chart-summary-${key}`;
  const svg = s('svg', {
    class: 'rating-chart', id: `chart-${key}`, viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    role: 'img', 'aria-labelledby': summaryId,
  });
  for (const v of [lo, Math.round((lo + hi) / 2), hi]) {
    svg.append(s('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s('text', { x: PAD.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, Math.round(v)));
  }
  svg.append(s('text', { x: (W + PAD.left) / 2, y: H - 8, 'text-anchor': 'middle' }, 'rated games, oldest first'));
  svg.append(s('polyline', { class: 'line', points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' ') }));
  points.forEach((p, i) => svg.append(s('circle', { class: 'dot', cx: x(i), cy: y(p.rating), r: 3 })));
  const table = h('table', { class: 'chart-points', id: `chart-table-${key}` },
    h('caption', {}, `Every point of the chart of ${title}`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'After'), h('th', { scope: 'col' }, 'When'), h('th', { scope: 'col' }, 'Rating'))),
    h('tbody', {}, points.map((p, i) => h('tr', {},
      h('td', {}, i === 0 ? 'before the first game' : `game ${i}`),
      h('td', {}, when(p.at)),
      h('td', { class: 'num' }, String(p.rating))))));
  return h('figure', { class: 'rating-figure' }, svg,
    h('figcaption', { id: summaryId }, said),
    h('details', {}, h('summary', {}, 'The chart as a table'), table));
}
