// The lobby: pick a game, its options and seats, create a table, share its links; the
// open and running tables; the account and tournaments panels.
import { h, api, aboutGame, nameEl, withNames, tokens, rulesHref } from './ui.js';
import { games as offered } from './games.js';
import { botWords, makeTables } from './lobby-tables.js';
import { accountPanel } from './account.js';
import { tournamentsPanel } from './tournaments.js';

const SEAT_KINDS = [
  ['human', 'Person'],
  ['account', 'Person with an account (name it)'],
  ['open', 'Open seat (anyone may join)'],
  ['random', 'Bot: random'],
  ['heuristic', 'Bot: heuristic'],
  ['pimc', 'Bot: PIMC'],
  ['easy', 'Bot: easy'],
  ['medium', 'Bot: medium'],
  ['hard', 'Bot: hard'],
  ['ismcts:5000', 'Bot: ISMCTS 5000'],
];

// One option's input, from its description (`GET /api/games/{game}`): a choice of words,
// a toggle, a number (empty meaning `none` where allowed), or a seat counted from 1.
// `readValue` gives the value as the config's JSON has it.
function optionInput(opt, players) {
  const id = `opt-${opt.key}`;
  const value = opt.default;
  if (opt.input === 'choice') {
    const sel = h('select', { id, name: opt.key },
      opt.choices.map((c, i) => h('option', { value: String(i), selected: JSON.stringify(c.value) === JSON.stringify(value) }, c.label)));
    sel.readValue = () => opt.choices[Number(sel.value)].value;
    return sel;
  }
  if (opt.input === 'toggle') {
    const box = h('input', { id, name: opt.key, type: 'checkbox', checked: value === true });
    box.readValue = () => box.checked;
    return box;
  }
  if (opt.input === 'seat') {
    // People count seats from 1; the config counts from 0.
    const num = h('input', { id, name: opt.key, type: 'number', min: '1', max: String(players), value: String((value || 0) + 1), step: '1' });
    num.readValue = () => Number(num.value) - 1;
    return num;
  }
  const num = h('input', {
    id, name: opt.key, type: 'number', step: '1', min: String(opt.min), max: String(opt.max),
    value: value === null ? '' : String(value), placeholder: opt.none || '',
    // Wide enough for its placeholder ("no limit (the rulebook)") to show whole.
    style: opt.none ? { width: `${Math.max(10, opt.none.length + 5)}ch` } : null,
  });
  num.readValue = () => (num.value.trim() === '' && opt.none ? null : Number(num.value));
  return num;
}

export async function showLobby(root) {
  document.title = 'Tabletop — lobby';
  document.getElementById('top-info').textContent = '';
  const games = await offered();
  const about = {};
  await Promise.all(games.map(async (g) => { about[g.name] = await aboutGame(g.name); }));
  const title = (name) => (about[name] ? about[name].title : name);
  let chosen = games[0];
  const gamePicker = h('div', { class: 'game-picker' });
  const form = h('div', { class: 'panel create' });
  const result = h('div', { class: 'result' });
  const { tables, refresh } = makeTables({ games, about, title });

  function drawForm() {
    gamePicker.replaceChildren(...games.map((g) => h('div', { class: 'game-card' }, h('button', {
      class: `game-choice ${g.name === chosen.name ? 'chosen' : ''}`,
      id: `game-${g.name}`,
      onclick: () => { chosen = g; drawForm(); },
    }, h('strong', {}, title(g.name)), h('small', {}, about[g.name].summary)),
    h('a', { class: 'rules-link', id: `rules-${g.name}`, href: rulesHref(g.name) }, `How to play ${title(g.name)}`))));
    const inputs = {};
    // Card data (`data`) comes from a card file, not from this form.
    const described = about[chosen.name].options.filter((o) => o.input !== 'data');
    const players = described.find((o) => o.key === 'players');
    const opts = described.filter((o) => o.group !== 'variant').map((o) => {
      inputs[o.key] = optionInput(o, players ? players.max : 2);
      return h('label', { class: 'opt', for: `opt-${o.key}`, title: o.help }, h('span', {}, o.label), inputs[o.key]);
    });
    // The variants, folded: each with its one-line explanation in view.
    const variants = described.filter((o) => o.group === 'variant').map((o) => {
      inputs[o.key] = optionInput(o, players ? players.max : 2);
      return h('div', { class: 'variant-opt' },
        h('label', { class: 'opt', for: `opt-${o.key}` }, h('span', {}, o.label), inputs[o.key]),
        h('small', { class: 'opt-help', id: `help-${o.key}` }, o.help));
    });
    const variantFold = variants.length ? h('details', { class: 'variants', id: 'variants' },
      h('summary', {}, `Variants (${variants.length})`, h('small', { class: 'muted' }, ' rules some tables change; a first game needs none')),
      variants) : null;
    const seatsBox = h('div', { class: 'seats' });
    const seatSelects = [];
    const seatNames = [];
    const seatOpenNotes = [];
    function drawSeats() {
      const n = 'players' in inputs ? Math.max(1, Math.min(6, inputs.players.readValue() || 2)) : 2;
      while (seatSelects.length < n) {
        const i = seatSelects.length;
        seatSelects.push(h('select', { id: `seat-${i}` }, SEAT_KINDS.map(([v, t]) => h('option', { value: v, selected: v === (i === 0 ? 'human' : 'random') }, t))));
      }
      seatSelects.length = n;
      while (seatNames.length < n) {
        const i = seatNames.length;
        seatNames.push(h('input', { id: `seat-name-${i}`, class: 'seat-name', maxlength: '24', placeholder: 'name (optional)', 'aria-label': `Seat ${i + 1}: name (optional)` }));
        seatOpenNotes.push(h('small', { class: 'seat-open-note', id: `seat-open-note-${i}`, hidden: true }, 'named by whoever takes it'));
      }
      seatNames.length = n;
      seatOpenNotes.length = n;
      // An open seat is named by whoever takes it from the lobby: no name box for it.
      const showNames = () => seatSelects.forEach((s, i) => {
        const open = s.value === 'open';
        seatNames[i].hidden = open;
        seatOpenNotes[i].hidden = !open;
      });
      seatSelects.forEach((s) => { s.onchange = showNames; });
      showNames();
      seatsBox.replaceChildren(...seatSelects.map((s, i) => h('div', { class: 'opt seat-opt' },
        h('label', { for: `seat-${i}` }, `Seat ${i + 1}`), s, seatNames[i], seatOpenNotes[i])));
    }
    if (inputs.players) inputs.players.addEventListener('input', drawSeats);
    drawSeats();
    const seed = h('input', { id: 'seed', type: 'number', min: '0', placeholder: 'random' });
    // Hints: the coach suggests moves to the player whose turn it is (everyone is told).
    const hints = h('select', { id: 'hints' },
      h('option', { value: '' }, 'where a bot plays'),
      h('option', { value: 'on' }, 'on'),
      h('option', { value: 'off' }, 'off'));
    // Rated: every person plays as an account, and the result moves their ratings.
    const rated = h('input', { id: 'rated', type: 'checkbox' });
    const error = h('p', { class: 'error' });
    const create = h('button', { id: 'create', class: 'primary', onclick: async () => {
      error.textContent = '';
      const options = {};
      for (const [k, inp] of Object.entries(inputs)) options[k] = inp.readValue();
      const seatOf = (s, i) => {
        const name = seatNames[i].value.trim();
        // An account's seat names the account; it opens from that account's "My tables".
        if (s.value === 'account') return { player: 'human', account: name };
        return name && s.value !== 'open' ? { player: s.value, name } : s.value;
      };
      const body = { game: chosen.name, options, seats: seatSelects.map(seatOf) };
      if (rated.checked) body.rated = true;
      if (seed.value !== '') body.seed = Number(seed.value);
      if (hints.value) body.table = { hints: hints.value === 'on' };
      try {
        const table = await api('/api/tables', { method: 'POST', body });
        showCreated(table);
        refresh();
      } catch (e) { error.replaceChildren(...withNames(e.message, seatNames.map((n) => n.value.trim()))); }
    } }, 'Create table');
    form.replaceChildren(
      h('p', { class: 'learn-line' }, 'New to it? ',
        h('a', { class: 'button', id: `learn-${chosen.name}`, href: `/learn/${encodeURIComponent(chosen.name)}` }, `Learn to play ${title(chosen.name)}`),
        ' a guided lesson on real positions, then a game against the easy bot.'),
      h('h2', {}, `New ${title(chosen.name)} table`),
      h('div', { class: 'opts' }, opts),
      variantFold,
      h('h3', {}, 'Seats'), seatsBox,
      h('label', { class: 'opt', for: 'hints', title: 'The coach may suggest moves to the player whose turn it is; everyone sees who asked.' }, h('span', {}, 'Hints'), hints),
      h('label', { class: 'opt', for: 'rated', title: 'Every person plays signed in to an account (name the others\' accounts); no undo, no hints.' }, h('span', {}, 'Rated'), rated),
      h('label', { class: 'opt' }, h('span', {}, 'seed'), seed),
      h('p', { class: 'muted' }, 'Leave the seed empty for a fair game: a chosen seed is shown to every player, since whoever knows it can know the hidden cards.'),
      create, error,
    );
  }

  function showCreated(table) {
    const base = location.origin;
    const rows = table.seats.map((s) => {
      if (s.player === 'open') return h('li', {}, `Seat ${s.seat + 1}: open — anyone may take it from the lobby`);
      if (!s.token && s.account) return h('li', {}, `Seat ${s.seat + 1}: `, nameEl(s.name), ' — opens from this account\'s "My tables" where it is signed in');
      if (!s.token) return h('li', {}, `Seat ${s.seat + 1}: `, nameEl(s.name), ` (${botWords(s.player)})`);
      tokens.put(table.id, s.seat, s.token);
      const link = `${base}/play/${table.id}?token=${s.token}`;
      // A seat without a name of its own is only its number.
      const who = s.name === `Seat ${s.seat + 1}` ? [`Seat ${s.seat + 1}`] : [`Seat ${s.seat + 1} (`, nameEl(s.name), ')'];
      return h('li', {}, ...who, ' — invite link: ',
        h('input', { class: 'link', readonly: true, value: link, 'aria-label': `Seat ${s.seat + 1}: invite link`, onclick: (e) => e.target.select() }),
        h('a', { class: 'button', id: `play-seat-${s.seat}`, href: link }, 'Play this seat'));
    });
    const watch = `${base}/play/${table.id}`;
    result.replaceChildren(h('div', { class: 'panel created' },
      h('h2', {}, `Table ${table.id} created`),
      h('p', {}, 'Send each player their own link; it is their key to the seat.'),
      h('ul', {}, rows),
      h('p', {}, 'Spectators: ', h('input', { class: 'link', readonly: true, value: watch, 'aria-label': 'Spectators\' link', onclick: (e) => e.target.select() }),
        h('a', { class: 'button', href: watch }, 'Watch'))));
    // The links are what the player came for: bring them into view.
    result.scrollIntoView({ block: 'start' });
  }

  drawForm();
  root.replaceChildren(h('div', { class: 'lobby' },
    h('section', {}, h('h1', {}, 'Choose a game'), gamePicker, form, result),
    h('section', {}, accountPanel(),
      h('p', { class: 'panel leaderboards', id: 'leaderboards' }, 'Leaderboards: ',
        games.map((g, i) => [i ? ' · ' : '', h('a', { href: `/leaderboard/${encodeURIComponent(g.name)}` }, title(g.name))])),
      tournamentsPanel(),
      tables)));
  refresh();
}
