// Distop-IA: the eight districts around the border (the opponent's row on top, read
// D C B A, yours below, read A B C D, so play runs round the ring), each with its stack
// and border limit; the hand being played; characters, won cards, collaborator, mission.
import { h, seatName, seatMark, seatWords } from './ui.js';

// The printed components (`GET /api/games/distopia`): card types with what they mean, the
// characters, collaborators and missions with their texts, the board's marks.
let DATA = null;
export function prepare(about) {
  DATA = about.components;
}
const byKey = (list, key) => list.find((x) => x.card === key || x.key === key || x.kind === key);
const kindName = (k) => { const d = byKey(DATA.kinds, k); return d ? d.name : k; };
const kindLetter = (k) => { const d = byKey(DATA.kinds, k); return d ? d.letter : ''; };

/** What each event touched on the board (`data-mark`s). */
export function marks(ev) {
  const d = (p) => `d:${p.seat}:${p.letter}`;
  switch (ev.kind) {
    case 'picked':
    case 'robot':
    case 'raided': return [d(ev.from), `player:${ev.seat}`];
    case 'played': return [d(ev.to)];
    case 'skipped': return [d(ev.at)];
    case 'won': return [d(ev.from), `player:${ev.seat}`];
    case 'refilled': return [d(ev.at)];
    case 'siren': return [d(ev.at), ...ev.moves.flatMap((m) => [d(m.from), d(m.to)])];
    case 'mission_earned': return ['mission', `player:${ev.seat}`];
    case 'crossed':
    case 'clockwise':
    case 'raid_offered':
    case 'raid_declined': return ['collaborator', `player:${ev.seat}`];
    default: return [];
  }
}

/** The colour legend: each card type, then the marks a card and a district show. */
function legend() {
  const marksText = Object.fromEntries(DATA.marks.map((m) => [m.mark, m.text]));
  return h('div', { class: 'panel legend', id: 'legend' },
    h('b', {}, 'Legend'),
    h('ul', {},
      DATA.kinds.map((k) => h('li', {}, h('span', { class: `swatch dcard ${k.kind}` }, k.letter), ` ${k.text}`)),
      h('li', {}, h('span', { class: 'swatch mark' }, '3★'), ` ${marksText.points}`),
      h('li', {}, h('span', { class: 'swatch mark siren' }, '⚠'), ` ${marksText.siren}`),
      h('li', {}, h('span', { class: 'swatch mark limit' }, '2/3'), ` Cards in the district / ${marksText.limit}`)));
}

// A card: its type's letter beside its colour (colour is never the only cue), its number,
// name and points; read as words ("7 Bribe, 2 points, hobby, siren"). Its name is its own
// text, the words a screen reader needs beside what is shown kept in `sr-only` spans and
// the type's letter, star and siren mark drawn by the style sheet: a card that becomes a
// button then names all it shows, in the order shown, whatever part of it is clipped.
const sr = (text) => h('span', { class: 'sr-only' }, text);
function card(c, key) {
  const guard = c.kind === 'guard';
  const points = `${c.points} point${c.points === 1 ? '' : 's'}`;
  return h('div', { class: `dcard ${c.kind}`, dataset: key ? { key } : undefined, title: `${c.name} (${kindName(c.kind)}, ${c.points} points${c.siren ? ', siren' : ''})` },
    h('span', { class: 'num' }, h('span', { class: 'klet', title: kindName(c.kind), dataset: { letter: kindLetter(c.kind) } }),
      guard || c.number === null ? '' : [`${c.number}`, sr(' ')]),
    h('span', { class: 'nm' }, c.name),
    h('span', { class: 'pts' }, sr(', '), guard ? sr(points) : [`${c.points}`, h('span', { class: 'star-mark' }), sr(points.slice(`${c.points}`.length))],
      sr(`, ${kindName(c.kind)}`), c.siren ? [h('span', { class: 'siren', title: 'siren' }), sr(', siren')] : null));
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
    const whose = side.seat === snap.seat ? 'Your' : `${seatWords(side.seat, snap.seat)}’s`;
    const n = d.cards.length;
    const sr = (text) => h('span', { class: 'sr-only' }, text);
    return h('div', {
      class: `district seat-${side.seat} ${next ? 'next' : ''} ${passed ? 'passed' : ''} ${t && t.picked === d.letter && side.seat === v.to_act ? 'picked' : ''}`,
      dataset: { key: `d:${side.seat}:${d.letter}`, mark: `d:${side.seat}:${d.letter}` },
      role: 'group',
    },
    // Read as it is shown, with words for a screen reader between ("Your district A: 2/3
    // cards of its border limit, …"): its name is what it shows.
    h('div', { class: 'dhead' }, h('b', {}, sr(`${whose} district `), d.letter, sr(': ')),
      h('span', { class: `limit ${over ? 'over' : ''}`, title: 'border limit' }, `${n}/${d.limit}`, sr(` cards of its border limit${over ? ', over it' : ''}${passed ? ', passed' : ''}. `))),
    h('div', { class: 'dstack' }, n ? d.cards.map((c) => card(c)) : h('div', { class: 'empty-note' }, 'empty')),
    next ? h('div', { class: 'next-tag' }, sr('. It is the '), 'next', sr(' to play into')) : null);
  };
  const side = (s) => v.sides[s];
  const top = [...side(them).districts].reverse().map((d) => district(side(them), d));
  const bottom = side(me).districts.map((d) => district(side(me), d));
  const playerBox = (s) => {
    const sd = side(s);
    const score = v.scores && v.scores[s];
    const ch = byKey(DATA.characters, sd.character);
    return h('div', { class: `dplayer seat-${s} ${v.to_act === s ? 'acting' : ''}`, dataset: { mark: `player:${s}` } },
      seatMark(s), h('div', { class: 'name' }, seatName(s, snap.seat), v.first_player === s ? h('small', {}, ' (first)') : null),
      h('div', { class: 'character' }, ch ? `${ch.name}: scores ${ch.scores.map(kindName).join(' + ')}` : sd.character),
      h('div', { class: 'won' }, `Won: ${sd.won_count} card${sd.won_count === 1 ? '' : 's'}`,
        sd.won && sd.won.length ? h('div', { class: 'won-cards' }, sd.won.map((c) => card(c))) : null),
      score ? h('div', { class: 'final' }, h('b', {}, `${score.total} points`),
        // The mission is named only where one is in play (the advanced mode).
        ` — ${score.card_points} from cards${v.mission ? `, ${score.mission_points} from the mission` : ''}; ${score.guards} guard${score.guards === 1 ? '' : 's'}`) : null);
  };
  const extras = [];
  if (v.collaborator) {
    const c = byKey(DATA.collaborators, v.collaborator.card) || { name: v.collaborator.card, text: '' };
    const who = v.collaborator.usable_by === null ? 'either player' : seatName(v.collaborator.usable_by, snap.seat);
    extras.push(h('div', { class: 'special collab', dataset: { mark: 'collaborator' } }, h('b', {}, `Collaborator: ${c.name}`), h('span', {}, `${c.text} · usable by `, who)));
  }
  if (v.mission) {
    const m = byKey(DATA.missions, v.mission.card) || { name: v.mission.card, text: '' };
    extras.push(h('div', { class: 'special mission', dataset: { mark: 'mission' } }, h('b', {}, `Mission: ${m.name}`), h('span', {}, m.text,
      v.mission.claimed_by !== null ? [' · earned by ', seatName(v.mission.claimed_by, snap.seat)] : '')));
  }
  const hand = t ? h('div', { class: 'hand-area' },
    h('div', { class: 'label' }, seatName(v.to_act, snap.seat), ` picked up ${t.picked}${t.clockwise ? ' · clockwise' : ''}${t.crossing ? ' · crossing' : ''}: hand`),
    h('div', { class: 'hand' }, t.hand.map((c) => card(c, v.to_act === snap.seat ? `card:${c.number === null ? 'guard' : c.number}` : null))))
    : h('div', { class: 'hand-area muted' }, v.phase === 'over' || snap.status === 'finished' ? 'The game is over.'
      : (v.to_act === snap.seat ? 'Your turn: pick up one of your districts.' : [seatName(v.to_act, snap.seat), ' picks up one of their districts.']));
  return h('div', { class: 'dt' },
    h('div', { class: 'info' }, `${v.border} border · turn ${v.turn_number} · deck ${v.deck_count} cards`,
      v.repetitions > 1 && v.phase !== 'over'
        ? h('span', { class: 'repeated', id: 'repeated' }, ` · this position has come up ${v.repetitions} times since a card was drawn or won: a third time ends the game`)
        : null),
    extras.length ? h('div', { class: 'specials' }, extras) : null,
    playerBox(them),
    h('div', { class: 'ring' },
      h('div', { class: 'row top' }, top),
      h('div', { class: 'border-strip' }, h('span', { class: 'lbl' }, `${v.border} border`)),
      h('div', { class: 'row bottom' }, bottom)),
    playerBox(me),
    hand,
    legend());
}
