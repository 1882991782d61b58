// Distop-IA: the eight districts around the border (the opponent's row on top, read
// D C B A, yours below, read A B C D, so play runs round the ring), each with its stack
// and border limit; the hand being played; characters, won cards, collaborator, mission.
import { h, seatName } from './app.js';

const KIND = { hobby: 'Hobby', education: 'Education', survival: 'Survival', guard: 'Guard' };
const CHARACTER = { teacher: 'The Teacher — scores Education + Survival', collector: 'The Collector — scores Hobby + Survival' };
const COLLABORATOR = {
  'spy-pets': ['Spy Pets', 'once a turn, play across the border instead of to the next district'],
  'shelf-raider': ['The Shelf Raider', 'after winning cards, take one more from an opponent district'],
  'rebel-robot': ['Rebel Robot', 'when picking up, also take the top card of a neighbouring district'],
  grandma: ['Grandma the Hacker', 'play clockwise for one turn'],
};
const MISSION = {
  catastrophe: ['Catastrophe', '+5 for the most Survival cards'],
  'save-a-sibling': ['Save a Sibling', '+5 for the first full lap of all 8 districts in one turn'],
  'police-sting': ['Police Sting', 'Survival cards score nothing and cost 1 each'],
  curfew: ['Curfew', '+5 for the first to win 6 cards'],
};

// `pick B` / `robot A`: click your district; `raid C`: the opponent's; `play 21` /
// `play guard`: the card in the hand. `skip`, `cross`, `grandma`, `pass` are buttons.
export function mapAction(text, snap) {
  const me = snap.seat;
  let m = text.match(/^(pick|robot) ([A-D])$/);
  if (m) return { dst: `d:${me}:${m[2]}` };
  m = text.match(/^raid ([A-D])$/);
  if (m) return { dst: `d:${1 - me}:${m[1]}` };
  m = text.match(/^play (\d+|guard)$/);
  if (m) return { src: `card:${m[1]}` };
  return null;
}

export function label(text) {
  const words = {
    skip: 'Skip this guarded district',
    cross: 'Spy Pets: cross the border',
    grandma: 'Grandma the Hacker: play clockwise',
    pass: 'Do not raid',
  };
  if (words[text]) return words[text];
  let m = text.match(/^pick ([A-D])$/);
  if (m) return `Pick up district ${m[1]}`;
  m = text.match(/^robot ([A-D])$/);
  if (m) return `Rebel Robot: also take the top of ${m[1]}`;
  m = text.match(/^raid ([A-D])$/);
  if (m) return `Raid their district ${m[1]}`;
  return text;
}

function card(c, key) {
  const num = c.number === null ? '' : c.number;
  return h('div', { class: `dcard ${c.kind}`, dataset: key ? { key } : undefined, title: `${c.name} (${KIND[c.kind]}, ${c.points} points)` },
    h('span', { class: 'num' }, c.kind === 'guard' ? 'G' : num),
    h('span', { class: 'nm' }, c.name),
    h('span', { class: 'pts' }, c.kind === 'guard' ? '' : `${c.points}★`, c.siren ? h('span', { class: 'siren', title: 'siren' }, '⚠') : null));
}

export function render(snap) {
  const v = snap.view;
  const me = snap.seat === null ? 0 : snap.seat;
  const them = 1 - me;
  const t = v.turn;
  const isAt = (pair, s, l) => pair && pair[0] === s && pair[1] === l;
  const district = (side, d) => {
    const next = t && isAt(t.next, side.seat, d.letter);
    const passed = t && t.passed.some((p) => isAt(p, side.seat, d.letter));
    const over = d.cards.length > d.limit;
    return h('div', {
      class: `district seat-${side.seat} ${next ? 'next' : ''} ${passed ? 'passed' : ''} ${t && t.picked === d.letter && side.seat === v.to_act ? 'picked' : ''}`,
      dataset: { key: `d:${side.seat}:${d.letter}` },
    },
    h('div', { class: 'dhead' }, h('b', {}, d.letter), h('span', { class: `limit ${over ? 'over' : ''}`, title: 'border limit' }, `${d.cards.length}/${d.limit}`)),
    h('div', { class: 'dstack' }, d.cards.length ? d.cards.map((c) => card(c)) : h('div', { class: 'empty-note' }, 'empty')),
    next ? h('div', { class: 'next-tag' }, 'next') : null);
  };
  const side = (s) => v.sides[s];
  const top = [...side(them).districts].reverse().map((d) => district(side(them), d));
  const bottom = side(me).districts.map((d) => district(side(me), d));
  const playerBox = (s) => {
    const sd = side(s);
    const score = v.scores && v.scores[s];
    return h('div', { class: `dplayer seat-${s} ${v.to_act === s ? 'acting' : ''}` },
      h('div', { class: 'name' }, seatName(s, snap.seat), v.first_player === s ? h('small', {}, ' (first)') : null),
      h('div', { class: 'character' }, CHARACTER[sd.character] || sd.character),
      h('div', { class: 'won' }, `Won: ${sd.won_count} card${sd.won_count === 1 ? '' : 's'}`,
        sd.won && sd.won.length ? h('div', { class: 'won-cards' }, sd.won.map((c) => card(c))) : null),
      score ? h('div', { class: 'final' }, h('b', {}, `${score.total} points`), ` — cards ${score.card_points}, mission ${score.mission_points}, guards ${score.guards}`) : null);
  };
  const extras = [];
  if (v.collaborator) {
    const [name, text] = COLLABORATOR[v.collaborator.card] || [v.collaborator.card, ''];
    const who = v.collaborator.usable_by === null ? 'either player' : seatName(v.collaborator.usable_by, snap.seat);
    extras.push(h('div', { class: 'special collab' }, h('b', {}, `Collaborator: ${name}`), h('span', {}, `${text} · usable by ${who}`)));
  }
  if (v.mission) {
    const [name, text] = MISSION[v.mission.card] || [v.mission.card, ''];
    extras.push(h('div', { class: 'special mission' }, h('b', {}, `Mission: ${name}`), h('span', {}, text,
      v.mission.claimed_by !== null ? ` · earned by ${seatName(v.mission.claimed_by, snap.seat)}` : '')));
  }
  const hand = t ? h('div', { class: 'hand-area' },
    h('div', { class: 'label' }, `${seatName(v.to_act, snap.seat)} picked up ${t.picked}${t.clockwise ? ' · clockwise' : ''}${t.crossing ? ' · crossing' : ''}: hand`),
    h('div', { class: 'hand' }, t.hand.map((c) => card(c, v.to_act === snap.seat ? `card:${c.number === null ? 'guard' : c.number}` : null))))
    : h('div', { class: 'hand-area muted' }, v.phase === 'over' ? 'The game is over.' : `${seatName(v.to_act, snap.seat)}: pick up one of your districts.`);
  return h('div', { class: 'dt' },
    h('div', { class: 'info' }, `${v.border} border · turn ${v.turn_number} · deck ${v.deck_count} cards`),
    extras.length ? h('div', { class: 'specials' }, extras) : null,
    playerBox(them),
    h('div', { class: 'ring' },
      h('div', { class: 'row top' }, top),
      h('div', { class: 'border-strip' }, h('span', { class: 'lbl' }, `${v.border} border`)),
      h('div', { class: 'row bottom' }, bottom)),
    playerBox(me),
    hand);
}
