// Drop Site: the drop sites in a row (a zero lies sideways), every player's total, hand
// and debt sizes, your hand, and the scored rounds.
import { h, seatName } from './app.js';

// `7 debt`, `7 new`, `7 on 3`: click the card, then the debt pile, the empty site or a site.
export function mapAction(text) {
  const m = text.match(/^(\d+) (debt|new|on (\d+))$/);
  if (!m) return null;
  const dst = m[2] === 'debt' ? 'debt' : m[2] === 'new' ? 'new' : `site:${m[3]}`;
  return { src: `card:${m[1]}`, dst };
}

export function label(text) {
  const m = text.match(/^(\d+) (debt|new|on (\d+))$/);
  if (!m) return text;
  if (m[2] === 'debt') return `${m[1]} to your debt`;
  if (m[2] === 'new') return `${m[1]} starts a new site`;
  return `${m[1]} on site ${m[3]}`;
}

function card(value, { cls = '', key } = {}) {
  return h('div', { class: `card v${value} ${cls}`, dataset: key ? { key } : undefined },
    h('span', { class: 'corner' }, value), h('span', { class: 'pip' }, value));
}

function pile(p, i) {
  const n = i + 1;
  const cards = p.cards.map((v, k) => card(v, {
    cls: `${v === 0 && p.sideways ? 'sideways' : ''} ${k === p.cards.length - 1 ? 'top' : ''}`,
  }));
  let note = `shows ${p.shows.join(' & ')}`;
  if (p.closed) note = `closed · ${note}`;
  else if (p.sideways && !p.restarted) note = `sideways zero · ${note}`;
  return h('div', { class: `site ${p.closed ? 'closed' : ''}`, dataset: { key: `site:${n}` } },
    h('div', { class: 'site-head' }, h('b', {}, `Site ${n}`)),
    h('div', { class: 'stack' }, cards),
    h('div', { class: 'site-foot' }, note));
}

export function render(snap) {
  const v = snap.view;
  const me = snap.seat;
  const players = [...Array(v.players).keys()];
  const seats = h('div', { class: 'ds-players' }, players.map((s) => h('div', {
    class: `ds-player seat-${s} ${v.to_act === s ? 'acting' : ''} ${s === me ? 'me' : ''} ${v.winner === s ? 'winner' : ''}`,
  },
  h('div', { class: 'name' }, seatName(s, me)),
  h('div', { class: 'total' }, h('span', { class: 'big' }, v.totals[s]), ` / ${v.target}`),
  h('div', { class: 'counts' },
    h('span', { title: 'cards in hand' }, `${v.hand_sizes[s]} in hand`),
    s === me
      ? h('div', { class: 'debt mine', dataset: { key: 'debt' }, title: 'your debt (face down)' },
        h('div', { class: 'facedown' }, v.debt_sizes[s]),
        h('span', {}, v.own_debt ? `debt: ${v.own_debt.join(' ') || '—'}` : 'your debt'))
      : h('span', { class: 'debt', title: 'debt cards (face down)' }, h('span', { class: 'facedown tiny' }), ` ${v.debt_sizes[s]} debt`)))));

  const sites = v.piles.map(pile);
  if (v.piles.length < v.pile_limit) {
    sites.push(h('div', { class: 'site empty', dataset: { key: 'new' } },
      h('div', { class: 'site-head' }, h('b', {}, 'New site')),
      h('div', { class: 'stack' }, h('div', { class: 'card ghost' }, '+')),
      h('div', { class: 'site-foot' }, `${v.pile_limit - v.piles.length} more end${v.pile_limit - v.piles.length === 1 ? 's' : ''} the round`)));
  }
  const last = v.history[v.history.length - 1];
  const history = v.history.length ? h('details', { class: 'panel history', open: true },
    h('summary', {}, `Scored rounds (last: round ${last.round}, ${last.ended_by.replace(/_/g, ' ')})`),
    h('table', { class: 'scores' },
      h('tr', {}, h('th', {}, 'Round'), players.map((s) => h('th', {}, seatName(s, me)))),
      v.history.map((r) => h('tr', {}, h('td', {}, r.round), players.map((s) => h('td', { title: `debt: ${r.debts[s].join(' ') || 'none'}` }, r.scores[s] > 0 ? `+${r.scores[s]}` : r.scores[s])))),
      h('tr', { class: 'total-row' }, h('td', {}, 'Total'), players.map((s) => h('td', {}, v.totals[s]))))) : null;

  const hand = v.hand
    ? h('div', { class: 'hand-area' }, h('div', { class: 'label' }, 'Your hand'),
      h('div', { class: 'hand' }, [...v.hand].sort((a, b) => a - b).map((c) => card(c, { key: `card:${c}` }))))
    : h('div', { class: 'hand-area muted' }, 'Watching: hands are hidden.');

  return h('div', { class: 'ds' },
    h('div', { class: 'info' }, `Round ${v.round} · deck ${v.deck_size} cards · playing to ${v.target}`),
    seats,
    h('div', { class: 'sites' }, sites),
    hand,
    history);
}
