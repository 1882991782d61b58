// Euphoria's turn as a person plays it: the turn that ends by itself when only trading
// is left (a setting kept in this browser), every die retrieved by one button, and a
// trade composed in one dialog. Each sends the game's own moves, in order, in one request.
import { h, seatName } from './ui.js';
import { openModal } from './keys.js';

// The setting "end my turn by itself when only trading is left" (on unless turned off),
// kept in this browser.
const AUTO_END = 'tabletop.euphoria.autoEnd';
function autoEndOn() {
  try { return localStorage.getItem(AUTO_END) !== 'off'; } catch { return true; }
}
export function autoEndSetting() {
  return h('label', { class: 'auto-end' },
    h('input', {
      type: 'checkbox',
      id: 'auto-end',
      checked: autoEndOn(),
      onchange: (ev) => { try { localStorage.setItem(AUTO_END, ev.target.checked ? 'on' : 'off'); } catch { /* private mode */ } },
    }),
    ' End my turn by itself when only trading is left');
}

// The turn (its owner and the first version seen of it) in which the player opened a
// trade: that turn does not end by itself.
let turnSeen = null;
let tradedIn = null;
function turnOf(snap) {
  if (!turnSeen || turnSeen.current !== snap.view.current || snap.version < turnSeen.from) {
    turnSeen = { current: snap.view.current, from: snap.version };
  }
  return turnSeen;
}

/**
 * The move the page makes for the player by itself: after a placement or a retrieval,
 * when only trading and ending the turn are left (or passing, when nothing else is
 * possible), the turn ends, unless the setting is off or the player opened a trade this
 * turn.
 */
export function autoMove(snap) {
  // Every snapshot is looked at, so that the next turn of the same seat is a new one.
  const turn = turnOf(snap);
  if (snap.seat === null || snap.to_act !== snap.seat || snap.status === 'finished') return null;
  if (!autoEndOn() || tradedIn === turn) return null;
  const acts = snap.legal;
  if (!acts.every((a) => a === 'end' || a === 'pass' || a === 'trade')) return null;
  return acts.find((a) => a === 'end' || a === 'pass') || null;
}

/** Buttons for what the game takes as several moves: every die of yours retrieved. */
export function sequences(snap, t) {
  if (snap.seat === null || snap.to_act !== snap.seat) return [];
  const picks = snap.moves.filter((m) => !m.from && m.to && m.to.startsWith('ret:')).map((m) => m.action);
  if (picks.length < 2) return [];
  return [h('button', {
    class: 'act-btn seq-btn',
    id: 'retrieve-all',
    onclick: () => t.socket.send(picks),
  }, `Pick all ${picks.length} of your dice on the board to retrieve`)];
}

/** `trade` opens the trade dialog: what you give, what you ask and to whom, sent as one
 * request of the game's moves in order (`trade`, `offer`, each `give` and `ask`, `propose`). `board` has the
 * goods in the order of a player's supply and hand, how many are supply, and a good's
 * drawing. */
export function composeTrade(action, t, board) {
  if (action !== 'trade') return false;
  const snap = t.snap;
  tradedIn = turnOf(snap);
  openTrade(snap, t, board);
  return true;
}

function openTrade(snap, t, { goods, supply, good }) {
  const v = snap.view;
  const me = snap.seat;
  const p = v.players[me];
  // What I hold of each good, in the order of `goods` (supply, then hand).
  const held = goods.map((g, k) => (k < supply ? p.supply[k] : (p.hand || [])[k - supply] || 0));
  const counter = (max) => h('input', { type: 'number', min: 0, max, value: 0, inputmode: 'numeric' });
  const give = goods.map((g, k) => (held[k] > 0 ? [g, counter(held[k])] : null)).filter(Boolean);
  const ask = goods.map((g) => [g, counter(9)]);
  const partners = [...Array(v.players.length).keys()].filter((s) => s !== me);
  const partner = h('select', { id: 'trade-partner' }, partners.map((s) => h('option', { value: s }, seatName(s, me))));
  const said = h('p', { class: 'trade-said', role: 'status' });
  const row = ([g, input]) => h('label', { class: 'trade-good' }, good(g), ' ', input);
  const dialog = h('dialog', { class: 'trade-dialog', id: 'trade-dialog', 'aria-labelledby': 'trade-title' },
    h('h3', { id: 'trade-title' }, 'Propose a trade'),
    h('label', {}, 'To ', partner),
    h('fieldset', {}, h('legend', {}, 'You give'), give.length ? give.map(row) : h('p', { class: 'muted' }, 'You hold nothing to give.')),
    h('fieldset', {}, h('legend', {}, 'You ask for'), ask.map(row)),
    said,
    h('div', { class: 'trade-buttons' },
      h('button', { type: 'button', id: 'trade-send', onclick: () => {
        const n = (input) => Math.max(0, Math.floor(Number(input.value) || 0));
        const gives = give.flatMap(([g, input]) => Array(n(input)).fill(`give ${g}`));
        const asks = ask.flatMap(([g, input]) => Array(n(input)).fill(`ask ${g}`));
        const both = give.filter(([g, input]) => n(input) > 0 && ask.some(([a, i2]) => a === g && n(i2) > 0));
        if (!gives.length && !asks.length) { said.textContent = 'Choose at least one good to give or ask for.'; return; }
        if (both.length) { said.textContent = `You cannot give and ask for ${both[0][0]} in one offer.`; return; }
        dialog.close();
        t.socket.send(['trade', `offer p${Number(partner.value) + 1}`, ...gives, ...asks, 'propose']);
      } }, 'Send the offer'),
      h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel')));
  // Modal: the focus stays in it, and goes back where it was when it closes (keys.js).
  openModal(dialog);
}
