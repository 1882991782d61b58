// Euphoria: the board (euphoria-board.js: the regions where the printed board has them,
// every action space with the worker dice on it, the tracks, tunnels, territories and
// markets), your dice, goods, artifact cards, recruits and dilemma, and the other
// players' counts.
import { h, seatName, seatMark, seatWords, withNames } from './ui.js';
import { autoEndSetting, composeTrade } from './euphoria-turn.js';
import { drawBoard } from './euphoria-board.js';

export { autoMove, sequences } from './euphoria-turn.js';

// The printed components (`GET /api/games/euphoria`): spaces with costs, recruits with
// their abilities, market tiles with their penalties, dilemmas.
let DATA = null;
let EDITION = 'v2';
export function prepare(about) {
  DATA = about.components;
}

const spaceCode = (space) => (typeof space === 'number' ? (DATA.spaces[space] || {}).code : space);

/** What each event touched on the board (`data-mark`s). */
export function marks(ev) {
  const seat = ev.seat === undefined ? [] : [`player:${ev.seat}`];
  switch (ev.kind) {
    case 'decided': {
      const d = ev.decision || {};
      return d.space === undefined ? seat : [`sp:${spaceCode(d.space)}`, ...seat];
    }
    case 'bumped': return [`sp:${spaceCode(ev.space)}`, ...seat];
    case 'market_built': return [`market:${String(ev.market).toLowerCase()}`, ...ev.stars.map((s) => `player:${s}`)];
    default: return seat;
  }
}

// Factions, goods and the tracks come with the components too. A good is drawn as its
// icon (an SVG served with the pages, named by the good's notation word), its word beside
// it the first time the board shows it (and in the legend), its count after it.
const kindOf = (code) => { const g = DATA.good_cards.find((c) => c.good === code); return g ? g.kind : ''; };
const goodWord = (code) => (kindOf(code) === 'artifact' ? `${code} card` : code);
let named = new Set();
// Whether the viewer opened or folded the legend (null: as the screen's width has it).
let legendOpen = null;
function icon(code) {
  return h('img', { class: 'gicon', src: `/web/good-${code}.svg`, alt: '', width: 18, height: 18 });
}
function good(code, n, extra) {
  const first = !named.has(code);
  named.add(code);
  return h('span', { class: `good g-${code} k-${kindOf(code)}`, title: goodWord(code), dataset: { info: `${goodWord(code)} (${kindOf(code)})`, infoTitle: goodWord(code) } },
    icon(code), first ? h('span', { class: 'gword' }, goodWord(code)) : h('span', { class: 'sr-only' }, goodWord(code)),
    n === undefined ? null : h('b', {}, n), extra);
}

/** Every good by its icon and word, grouped by kind. */
function legend() {
  const kinds = [...new Set(DATA.good_cards.map((g) => g.kind))];
  return h('details', { class: 'legend', id: 'goods-legend', open: legendOpen === null ? !phone() : legendOpen, ontoggle: (ev) => { legendOpen = ev.target.open; } },
    h('summary', {}, 'Goods: what each icon is'),
    kinds.map((k) => h('div', { class: 'legend-row' }, h('b', {}, `${k === 'commodity' ? 'commodities' : `${k}s`}: `),
      DATA.good_cards.filter((g) => g.kind === k).map((g) => h('span', { class: 'good' }, icon(g.good), h('span', { class: 'gword' }, goodWord(g.good)))))));
}

function recruitText(id) {
  const r = DATA.recruits[id - 1];
  if (!r) return '';
  return EDITION === 'v1' && r.v1 ? `${r.text} (1st edition: ${r.v1})` : r.text;
}

// A recruit's faction: the first letter of its name in a badge of the faction's colour,
// and the name itself for a screen reader (colour is never the only cue).
function factionMark(id) {
  const r = DATA.recruits[id - 1];
  const f = r && DATA.factions.find((x) => x.faction === r.faction);
  if (!f) return null;
  return [h('span', { class: `fmark f-${f.faction}`, 'aria-hidden': 'true', title: f.name }, f.name[0]), h('span', { class: 'sr-only' }, `${f.name}: `)];
}

function recruitName(id) {
  const r = DATA.recruits[id - 1];
  return r ? r.name : `recruit ${id}`;
}

// A recruit's ability under its name: a line of its own on the page, and for a screen
// reader the two read as "name: ability" (the colon is for it alone).
function ability(id) {
  return [h('span', { class: 'sr-only' }, ': '), h('small', { class: 'ability' }, recruitText(id))];
}

// The pips of a die face, by the cells of a 3 by 3 grid (1 to 9, row by row).
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
// A die's pips take its seat's shape (style.css), so the seat is never told by colour alone.
let viewer = null;
function die(seat, value, key) {
  const words = `${seat === viewer ? 'your die' : `${seatWords(seat, viewer)}’s die`} showing ${value}`;
  return h('span', { class: `die seat-${seat}`, dataset: key ? { key } : undefined, title: words, role: 'img', 'aria-label': words },
    (PIPS[value] || []).map((c) => h('i', { class: `pip c${c}` })));
}

// Whether the page is as narrow as a phone (the layout of style.css's phone width).
const phone = () => window.matchMedia('(max-width: 760px)').matches;
// The player panels opened or folded by the viewer, by seat.
const folds = new Map();

export function render(snap) {
  named = new Set();
  const v = snap.view;
  EDITION = v.edition;
  const me = snap.seat;
  viewer = me;
  const n = v.players.length;

  const playerPanel = (p, s) => {
    const mine = s === me;
    const ready = [];
    let reserve = 0;
    let placed = 0;
    p.dice.forEach((d) => {
      if (d === 'reserve') reserve += 1;
      else if (d.ready !== undefined) ready.push(d.ready);
      else placed += 1;
    });
    const supplyGoods = DATA.good_cards.filter((g) => g.kind !== 'artifact').map((g) => g.good);
    const artifacts = DATA.good_cards.filter((g) => g.kind === 'artifact').map((g) => g.good);
    const supply = supplyGoods.map((g, k) => good(g, p.supply[k]));
    const cards = p.hand ? artifacts.map((g, k) => (p.hand[k] ? good(g, p.hand[k]) : null)) : [h('span', { class: 'muted' }, `${p.hand_size} artifact card${p.hand_size === 1 ? '' : 's'}`)];
    const recruits = p.recruits.map((r) => h('div', {
      class: `recruit ${r.up ? 'up' : 'down'} ${r.id && DATA.recruits[r.id - 1] ? `f-${DATA.recruits[r.id - 1].faction}` : ''}`,
      title: r.id ? recruitText(r.id) : '',
      dataset: r.id ? { info: recruitText(r.id), infoTitle: recruitName(r.id) } : undefined,
    },
      h('span', { class: 'rname' }, r.id ? factionMark(r.id) : null, r.id ? recruitName(r.id) : 'face-down recruit', r.up ? '' : ' (face down)', r.star ? ' ★' : ''),
      r.id ? ability(r.id) : null));
    let dilemma = null;
    if (p.dilemma !== null) {
      const d = DATA.dilemmas[p.dilemma];
      dilemma = h('div', { class: 'dilemma' }, h('b', {}, 'Dilemma: '), `${d.rebel} / ${d.conform} (pays 1 ${d.pictured})`,
        p.dilemma_state !== 'unresolved' ? h('i', {}, ` — ${p.dilemma_state}`) : null);
    } else {
      dilemma = h('div', { class: 'dilemma muted' }, `Dilemma: ${p.dilemma_state === 'unresolved' ? 'hidden' : p.dilemma_state}`);
    }
    const dealt = p.dealt && p.dealt.length ? h('div', { class: 'dealt' }, h('b', {}, 'Dealt: '), p.dealt.map((id) => h('span', { class: `recruit up f-${(DATA.recruits[id - 1] || {}).faction}`, title: recruitText(id), dataset: { info: recruitText(id), infoTitle: recruitName(id) } }, h('span', { class: 'rname' }, factionMark(id), recruitName(id)), ability(id)))) : null;
    // Each panel folds to its first line (name, stars, knowledge, morale, dice); on a
    // phone they start folded, below the board. A fold the player opened or closed stays
    // so across the table's updates.
    const open = folds.has(s) ? folds.get(s) : !phone();
    return h('details', {
      class: `eplayer seat-${s} ${v.to_act === s ? 'acting' : ''} ${mine ? 'me' : ''}`,
      dataset: { mark: `player:${s}` },
      open,
      ontoggle: (ev) => folds.set(s, ev.target.open),
    },
      // A die or a card in the summary is a move or a text: a click on it does not fold.
      h('summary', { onclick: (ev) => { if (ev.target.closest('[data-key], [data-info]')) ev.preventDefault(); } },
        seatMark(s), ' ', h('span', { class: 'name' }, seatName(s, me), h('span', { class: 'stars-left', title: 'stars left to place' }, ` ★ ${p.stars_left} left`)),
        h('span', { class: 'meters' },
          h('span', { title: 'knowledge' }, `knowledge ${p.knowledge}`),
          h('span', { title: 'morale' }, `morale ${p.morale}`),
          h('span', { class: 'dice-line' }, 'dice: ', ready.map((val) => die(s, val, null)),
            placed ? h('small', {}, ` ${placed} on board`) : null, reserve ? h('small', {}, ` ${reserve} in reserve`) : null))),
      h('div', { class: 'goods' }, supply, h('span', { class: 'sep' }), cards),
      h('div', { class: 'recruits' }, recruits),
      dilemma, dealt);
  };

  const order = me === null ? [...Array(n).keys()] : [me, ...[...Array(n).keys()].filter((s) => s !== me)];
  const offer = v.offer ? h('div', { class: 'offer panel' }, 'Offer ', seatName(v.current, me), ' → ', seatName(v.offer.partner, me), ': gives ',
    DATA.goods.map((g, k) => (v.offer.give[k] ? good(g, v.offer.give[k]) : null)), ' for ',
    DATA.goods.map((g, k) => (v.offer.ask[k] ? good(g, v.offer.ask[k]) : null))) : null;
  // A recruit to choose is shown as its card (name, then ability) by the prompt, so the
  // choice and what it is about are on screen together.
  const card = (id) => h('div', { class: `recruit up card ${DATA.recruits[id - 1] ? `f-${DATA.recruits[id - 1].faction}` : ''}`, title: recruitText(id), dataset: { info: recruitText(id), infoTitle: recruitName(id) } },
    h('span', { class: 'rname' }, factionMark(id), recruitName(id)), ability(id));
  const mineDealt = me !== null && v.players[me].dealt && v.players[me].dealt.length ? v.players[me].dealt : null;
  const drawn = v.drawn || mineDealt ? h('div', { class: 'panel choice-cards' }, h('b', {}, v.drawn ? 'Drawn recruits: ' : 'Your dealt recruits: '),
    h('div', { class: 'recruits' }, (v.drawn || mineDealt).map(card))) : null;
  // My ready dice, to be picked, in the prompt bar, which stays in view above the board
  // on a phone (the dice in my panel's first line only show them: a control inside the
  // fold's summary would be one control inside another).
  const myReady = me === null ? [] : v.players[me].dice.filter((d) => d !== 'reserve' && d.ready !== undefined).map((d) => d.ready);
  const promptDice = myReady.length && !v.over
    ? h('span', { class: 'prompt-dice' }, 'your dice: ', myReady.map((val) => die(me, val, `die:${val}`))) : null;
  return h('div', { class: 'eu' },
    h('div', { class: 'prompt' }, v.over || snap.status === 'finished' ? 'The game is over.' : promptFor(v, me), promptDice),
    offer, drawn, legend(), me === null ? null : autoEndSetting(),
    h('div', { class: 'eu-main' },
      drawBoard({ data: DATA, v, me, good, die }),
      h('div', { class: 'players' }, order.map((s) => playerPanel(v.players[s], s)))));
}

/**
 * The game's prompt for this reader: it speaks to the seat that decides ("choose a dealt
 * recruit to keep face up"), so the others read it quoted, as what that seat is asked.
 */
function promptFor(v, me) {
  if (v.to_act === null) return withNames(v.prompt);
  if (v.to_act === me) return ['Your turn: ', withNames(v.prompt)];
  return ['Waiting for ', seatName(v.to_act, me), ', who is asked: “', withNames(v.prompt), '”'];
}

/** `trade` opens the trade dialog (euphoria-turn.js), drawn with this board's goods. */
export function compose(action, t) {
  return composeTrade(action, t, { goods: DATA.goods, supply: DATA.good_cards.filter((g) => g.kind !== 'artifact').length, good: (g) => h('span', { class: 'good' }, icon(g), h('span', { class: 'gword' }, goodWord(g))) });
}
