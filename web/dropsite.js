// Drop Site: the drop sites in a row (a zero lies sideways), every player's total, hand
// and debt sizes, your hand, the scored rounds, and the round just finished (its sites,
// the revealed debts, each match and the scores) until your next move. Every card shows
// its points, from the table's deck or else the printed one (`GET /api/games/dropsite`).
import { h, seatName, seatMark } from './ui.js';

let DECK = [];
let UNMATCHED = -2;
let SCORING = '';
export function prepare(about, summary) {
  const c = about.components;
  DECK = (summary.options && summary.options.deck) || c.deck;
  UNMATCHED = c.unmatched;
  SCORING = c.scoring;
}

function points(value) {
  const k = DECK.find((d) => d.value === value);
  return k ? k.points : 0;
}

const plus = (n) => (n > 0 ? `+${n}` : `${n}`);

/** What each event touched on the board (`data-mark`s). */
export function marks(ev) {
  switch (ev.kind) {
    case 'opened':
    case 'played': return [`site:${ev.site + 1}`, `player:${ev.seat}`];
    case 'banked': return [`debt:${ev.seat}`, `player:${ev.seat}`];
    case 'debt_scored': return [`player:${ev.seat}`, `debt-row:${ev.seat}`];
    case 'round_over': return ['finished-round'];
    case 'round_started': return ['site:1'];
    default: return [];
  }
}

function card(value, { cls = '', key } = {}) {
  const pts = points(value);
  return h('div', {
    class: `card v${value} ${cls}`, dataset: key ? { key } : undefined,
    role: 'img', 'aria-label': `Card ${value}, ${plus(pts)} point${Math.abs(pts) === 1 ? '' : 's'} when matched`,
    title: `${value}: on your debt, ${plus(pts)} for each drop site showing ${value} when the round ends, else ${UNMATCHED}`,
  },
  // The corner repeats the value (drawn by style.css), so the text is the value and its
  // points once each, as the name reads them.
  h('span', { class: 'corner', dataset: { v: value } }), h('span', { class: 'pip' }, value), h('span', { class: 'cpts' }, plus(pts)));
}

function pile(p, i) {
  const n = i + 1;
  const cards = p.cards.map((v, k) => card(v, {
    cls: `${v === 0 && p.sideways ? 'sideways' : ''} ${k === p.cards.length - 1 ? 'top' : ''}`,
  }));
  let note = `shows ${p.shows.join(' & ')}`;
  if (p.closed) note = `closed · ${note}`;
  else if (p.sideways && !p.restarted) note = `sideways zero · ${note}`;
  // Read as it is shown: its name is its head, its cards and its foot.
  return h('div', { class: `site ${p.closed ? 'closed' : ''}`, dataset: { key: `site:${n}`, mark: `site:${n}` }, role: 'group' },
    h('div', { class: 'site-head' }, h('b', {}, `Drop site ${n}`), h('span', { class: 'sr-only' }, ': ')),
    h('div', { class: 'stack' }, cards),
    h('div', { class: 'site-foot' }, h('span', { class: 'sr-only' }, '; it '), note));
}

/**
 * The round just finished, from the log: its sites (the values each showed), each seat's
 * revealed debt with every match, and the scores. Shown until the viewer's next move
 * (a spectator: until the next round is over), or until closed.
 */
function finishedRound(snap, ctx) {
  const list = (ctx && ctx.entries) || [];
  let at = -1;
  for (let i = list.length - 1; i >= 0 && at < 0; i -= 1) {
    if (list[i].events.some((e) => e.kind === 'round_over')) at = i;
  }
  if (at < 0) return null;
  const entry = list[at];
  if (snap.seat !== null && list.slice(at + 1).some((e) => e.seat === snap.seat)) return null;
  const over = entry.events.find((e) => e.kind === 'round_over');
  if (ctx.hidden === over.round) return null;
  const me = snap.seat;
  const why = over.ended_by === 'pile_limit' ? `drop site ${over.shown.length} was started` : 'the deck ran out';
  const sites = over.shown.map((shows, i) => h('div', { class: 'site done' },
    h('div', { class: 'site-head' }, h('b', {}, `Site ${i + 1}`)),
    h('div', { class: 'shows' }, shows.map((c) => card(c, { cls: 'small' }))),
    h('div', { class: 'site-foot' }, `shows ${shows.join(' & ')}`)));
  const rows = entry.events.filter((e) => e.kind === 'debt_scored').map((e) => h('tr', { class: `seat-${e.seat}`, dataset: { mark: `debt-row:${e.seat}` } },
    h('td', { class: 'who' }, seatName(e.seat, me)),
    h('td', { class: 'debts' }, e.matches.length ? e.matches.map((m) => h('span', { class: `match ${m.matched ? 'hit' : 'miss'}` },
      card(m.card, { cls: 'small' }),
      h('small', {}, m.matched ? `×${m.matched} ${plus(m.points)}` : `no match ${plus(m.points)}`))) : h('span', { class: 'muted' }, 'no debt')),
    h('td', { class: 'round-score' }, plus(e.score)),
    h('td', {}, e.total)));
  return h('div', { class: 'panel finished-round', id: 'finished-round', dataset: { mark: 'finished-round', round: over.round } },
    h('div', { class: 'fr-head' }, h('b', {}, `Round ${over.round} is over`), ` (${why}).`,
      h('button', { class: 'small close', dataset: { closeRound: over.round }, title: 'Hide the finished round' }, 'Hide')),
    h('div', { class: 'fr-sites' }, sites),
    h('table', { class: 'scores fr-debts' },
      h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Revealed debt: matches and points'), h('th', {}, 'Round'), h('th', {}, 'Total')),
      rows),
    h('p', { class: 'muted small' }, SCORING));
}

export function render(snap, ctx) {
  const v = snap.view;
  const me = snap.seat;
  const players = [...Array(v.players).keys()];
  const seats = h('div', { class: 'ds-players' }, players.map((s) => h('div', {
    class: `ds-player seat-${s} ${v.to_act === s ? 'acting' : ''} ${s === me ? 'me' : ''} ${v.winner === s ? 'winner' : ''}`,
    dataset: { mark: `player:${s}` },
  },
  h('div', { class: 'name' }, seatName(s, me), ' ', seatMark(s)),
  h('div', { class: 'total' }, h('span', { class: 'big' }, v.totals[s]), ` / ${v.target}`),
  h('div', { class: 'counts' },
    h('span', { title: 'cards in hand' }, `${v.hand_sizes[s]} in hand`),
    s === me
      ? h('div', { class: 'debt mine', dataset: { key: 'debt', mark: `debt:${s}` }, title: 'your debt (face down)', role: 'group' },
        h('div', { class: 'facedown' }, h('span', { class: 'sr-only' }, 'Your debt: '), v.debt_sizes[s], h('span', { class: 'sr-only' }, ' cards face down; ')),
        h('span', {}, v.own_debt ? `debt: ${v.own_debt.join(' ') || '—'}` : 'your debt'))
      : h('span', { class: 'debt', dataset: { mark: `debt:${s}` }, title: 'debt cards (face down)' }, h('span', { class: 'facedown tiny' }), ` ${v.debt_sizes[s]} on debt`)))));

  const sites = v.piles.map(pile);
  if (v.piles.length < v.pile_limit) {
    const foot = v.piles.length + 1 === v.pile_limit ? 'starting it ends the round' : `starting drop site ${v.pile_limit} ends the round`;
    sites.push(h('div', { class: 'site empty', dataset: { key: 'new' }, role: 'group' },
      h('div', { class: 'site-head' }, h('b', {}, `New drop site ${v.piles.length + 1}`), h('span', { class: 'sr-only' }, ': ')),
      h('div', { class: 'stack', 'aria-hidden': 'true' }, h('div', { class: 'card ghost' }, '+')),
      h('div', { class: 'site-foot' }, foot)));
  }
  const last = v.history[v.history.length - 1];
  const history = v.history.length ? h('details', { class: 'panel history', open: true },
    h('summary', {}, `Rounds scored so far (round ${last.round} ended when ${last.ended_by === 'deck_empty' ? 'the deck ran out' : 'its last drop site was started'})`),
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
    finishedRound(snap, ctx),
    seats,
    h('div', { class: 'sites' }, sites),
    hand,
    history);
}
