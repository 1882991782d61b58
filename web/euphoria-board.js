// Euphoria's board as the printed board lays it out: Icarus across the top, the Euphorian
// city on the left, the Wastelands on the right, Subterra at the bottom, and the two
// worker-activation spaces (which belong to no region) in the middle with the decks. Each
// region holds its allegiance track, its tunnel (not Icarus), its territory of stars, its
// action spaces and its two markets. style.css places the regions by their faction
// (`grid-area`); on a phone the same order is kept as far as the width allows.
import { h, SEAT_SHAPES } from './ui.js';

/**
 * The board of view `v`: `data` is the printed components (`GET /api/games/euphoria`),
 * `me` the viewer's seat (or null), `good(code)` a good's drawing and `die(seat, value,
 * key)` a die's.
 */
export function drawBoard({ data, v, me, good, die }) {
  // The dice on each space.
  const onSpace = {};
  v.players.forEach((p, s) => p.dice.forEach((d) => {
    if (d && d.board) (onSpace[d.board[0]] = onSpace[d.board[0]] || []).push([s, d.board[1]]);
  }));

  // A space is a compact card: its name and what placing there costs on one line, what it
  // gives under it (cut to two lines; the whole sentence is its tooltip, and a tap on it
  // that is not a move shows it in a popup), the dice on it.
  const spaceBox = (i, extraClass, body) => {
    const sp = data.spaces[i];
    const dice = (onSpace[i] || []).map(([s, val]) => die(s, val, s === me ? `ret:${sp.code}:${val}` : null));
    const tile = sp.kind === 'built' ? data.tiles[v.markets[sp.market].tile] : null;
    const cost = tile ? tile.cost.text : sp.cost_text;
    const about = `Costs ${cost}. Gives ${sp.gives}.${tile ? ` Without a star on the tile: ${tile.penalty_text}.` : ''}`;
    const title = tile ? `${tile.name} (${data.markets[sp.market].name})` : sp.name;
    return h('div', {
      class: `space k-${sp.kind} ${extraClass || ''}`,
      dataset: { key: `sp:${sp.code}`, mark: `sp:${sp.code}`, info: about, infoTitle: title },
      title: `${title}: ${about}`,
      // Read as it is shown: its name, cost and gain, the dice on it (in words).
      role: 'group',
    },
      body ? h('div', { class: 'sname' }, body)
        : [h('div', { class: 'shead' }, h('span', { class: 'sname' }, sp.name), h('span', { class: 'sr-only' }, ':'), ' ',
          h('span', { class: 'scost' }, cost === 'nothing' ? 'free' : `pay ${cost}`), h('span', { class: 'sr-only' }, ',')),
        h('div', { class: 'sgives' }, `get ${sp.gives}`)],
      dice.length ? h('div', { class: 'sdice' }, dice) : null);
  };

  const market = (m) => {
    const mk = v.markets[m];
    const slot = data.markets[m];
    if (mk.tile !== null) {
      const tile = data.tiles[mk.tile];
      return h('div', { class: 'market built', dataset: { mark: `market:${slot.code}` } },
        spaceBox(data.spaces.findIndex((s) => s.kind === 'built' && s.market === m), 'built', [
          h('b', {}, tile.name), h('small', {}, slot.name), h('small', { class: 'scost' }, `costs ${tile.cost.text}`),
          h('small', { class: 'penalty' }, `without a star: ${tile.penalty_text}`)]),
        h('div', { class: 'mstars' }, mk.stars.map((s) => star(s))));
    }
    return h('div', { class: 'market building', dataset: { mark: `market:${slot.code}` } },
      h('div', { class: 'mtitle' }, h('b', {}, slot.name), `, being built: ${mk.workers} of ${mk.needed} workers`),
      h('div', { class: 'msites' }, data.spaces.map((s, i) => [s, i]).filter(([s]) => s.kind === 'site' && s.market === m)
        .map(([s, i]) => spaceBox(i, 'msite', good(s.cost.fixed[0][0])))));
  };

  // A star of seat `s`: its seat's shape beside its colour, its seat in words.
  const star = (s) => h('span', { class: `star seat-${s}`, title: `seat ${s + 1}`, role: 'img', 'aria-label': `a star of seat ${s + 1}` }, '★', h('small', { class: 'seat-mark', 'aria-hidden': 'true' }, SEAT_SHAPES[s]));
  const T = data.tracks;
  // A track: its word, its cells (drawn by the caller) and where it stands; read as its
  // sentence.
  const track = (cls, title, label, cells, here, max) => h('div', { class: `track ${cls}`, title, role: 'img', 'aria-label': title },
    h('span', { class: 'tlabel' }, label), h('span', { class: 'cells' }, cells), h('b', {}, `${here}/${max}`));
  const region = (fc, fi) => {
    const f = fc.faction;
    const spaces = data.spaces.map((s, i) => [s, i]).filter(([s]) => s.region === f && !['site', 'built'].includes(s.kind));
    const markets = data.markets.map((mk, m) => [mk, m]).filter(([mk]) => mk.faction === f).map(([, m]) => market(m));
    const terr = v.territory[fi];
    const here = v.allegiance[fi];
    return h('section', { class: `region r-${f}`, id: `region-${f}`, 'aria-label': fc.region },
      h('div', { class: 'rhead' }, h('b', {}, fc.region),
        track('allegiance', `${fc.name} allegiance: ${here} of ${T.allegiance_max}`, 'allegiance',
          [...Array(T.allegiance_max + 1).keys()].map((k) => h('i', { class: `${k <= here ? 'on' : ''} ${T.tiers.includes(k) ? 'tier' : ''} ${k === here ? 'here' : ''}` })),
          here, T.allegiance_max)),
      h('div', { class: 'rtracks' },
        fc.tunnel ? track('tunnel', `${fc.region}'s tunnel: the miner has dug ${v.miners[fi]} of ${T.tunnel_end} steps`, 'tunnel',
          [...Array(T.tunnel_end + 1).keys()].slice(1).map((k) => h('i', { class: `${k <= v.miners[fi] ? 'dug' : ''} ${k === T.tunnel_reveal ? 'reveal' : ''}` })),
          v.miners[fi], T.tunnel_end) : null,
        h('div', { class: 'territory', title: `${fc.region}'s territory: ${terr.length} of ${v.territory_spots} stars placed`, role: 'group', 'aria-label': `${fc.region}'s territory: ${terr.length} of ${v.territory_spots} stars placed` }, h('span', { class: 'tlabel', 'aria-hidden': 'true' }, 'territory'),
          [...Array(v.territory_spots).keys()].map((k) => (k < terr.length
            ? star(terr[k]) : h('span', { class: 'star free', 'aria-hidden': 'true' }, '☆'))))),
      h('div', { class: 'spaces' }, spaces.map(([, i]) => spaceBox(i))),
      markets.length ? h('div', { class: 'markets' }, markets) : null);
  };

  const activation = data.spaces.map((s, i) => [s, i]).filter(([s]) => s.kind === 'activate').map(([, i]) => spaceBox(i));
  return h('div', { class: 'regions' }, data.factions.map(region),
    h('section', { class: 'region r-none', id: 'region-centre', 'aria-label': 'Worker activation' },
      h('div', { class: 'rhead' }, h('b', {}, 'Worker activation')), h('div', { class: 'spaces' }, activation),
      h('div', { class: 'decks' }, `artifact deck ${v.artifact_deck} · discards ${v.artifact_discard.length} · recruit deck ${v.recruit_deck}`)));
}
