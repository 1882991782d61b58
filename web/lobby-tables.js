// The lobby's lists of tables: waiting for players, playing, finished; newest first, a
// page at a time, filtered by game, each with its seats, options, and the ways in (play
// a seat of this browser's, join an open one, watch, replay).
import { h, api, nameEl, ratedName, withNames, tokens } from './ui.js';

// A bot seat's player in words: its level and "bot" ("medium bot"), from the seat's spec.
export function botWords(spec) {
  const m = /^ismcts:(\d+)$/.exec(spec);
  if (m) return `ISMCTS bot, ${m[1]} iterations`;
  return `${spec} bot`;
}

/**
 * The lists, as an element (`tables`) and `refresh` (reloads them; they also reload
 * themselves every few seconds). `games` is `GET /api/games`, `about` each game
 * described for people (`GET /api/games/{game}`) by name, `title` a game's title.
 */
export function makeTables({ games, about, title }) {
  const tables = h('div', { class: 'tables' });

  // The lobby's lists: newest first, a page at a time (the API's `limit` and `before`),
  // by the table's status as stored: `open` (no move yet), `running`, `finished`.
  const PAGE = 30;
  const lists = {
    open: { rows: [], more: false },
    running: { rows: [], more: false },
    finished: { rows: [], more: false },
  };
  let gameFilter = '';
  const filter = h('select', { id: 'lobby-game', onchange: () => { gameFilter = filter.value; refresh(); } },
    h('option', { value: '' }, 'all games'),
    games.map((g) => h('option', { value: g.name }, title(g.name))));

  const query = (status, before) => `/api/tables?status=${status}&limit=${PAGE}`
    + (gameFilter ? `&game=${encodeURIComponent(gameFilter)}` : '')
    + (before ? `&before=${encodeURIComponent(before)}` : '');

  async function load(status, before) {
    let page = [];
    try { page = await api(query(status, before)); } catch { /* shown empty */ }
    const list = lists[status];
    list.rows = before ? list.rows.concat(page) : page;
    list.more = page.length === PAGE;
  }

  // Where a table stands, in words: a table with a seat nobody has taken waits for
  // players; a full one plays (from its first move on, or before it); a paused one says
  // why beside this.
  const waiting = (t) => (t.open_seats || []).length > 0;
  const standing = (t) => {
    if (t.status === 'finished') return 'finished';
    if (t.status === 'abandoned') return 'abandoned';
    return waiting(t) ? 'waiting for players' : 'playing';
  };

  // A table's options in words, from its game's own description: each one that differs
  // from the game's default (none: the standard rules).
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  function optionWords(t) {
    const described = about[t.game] ? about[t.game].options : [];
    const words = described
      .filter((o) => o.input !== 'data' && t.options && o.key in t.options && !same(t.options[o.key], o.default))
      .map((o) => {
        const v = t.options[o.key];
        if (o.input === 'choice') {
          const c = o.choices.find((choice) => same(choice.value, v));
          return `${o.label}: ${c ? c.label : String(v)}`;
        }
        if (o.input === 'toggle') return v ? o.label : `${o.label}: off`;
        if (o.input === 'seat') return `${o.label}: seat ${Number(v) + 1}`;
        return `${o.label}: ${v === null ? (o.none || 'none') : v}`;
      });
    return words.length ? words.join(' · ') : 'standard rules';
  }

  // The name this browser joins open seats under (kept between visits).
  const myName = h('input', {
    id: 'my-name', class: 'seat-name', maxlength: '24', placeholder: 'your name',
    value: localStorage.getItem('tabletop.name') || '',
    oninput: () => { try { localStorage.setItem('tabletop.name', myName.value); } catch { /* private mode */ } },
  });
  const joinError = h('p', { class: 'error', id: 'join-error' });

  async function join(t, seat) {
    joinError.textContent = '';
    const name = myName.value.trim();
    try {
      const seated = await api(`/api/tables/${t.id}/seats/${seat}/join`, { method: 'POST', body: name ? { name } : {} });
      tokens.put(t.id, seated.seat, seated.token);
      location.href = seated.invite;
    } catch (e) { joinError.replaceChildren(...withNames(e.message, [name])); refresh(); }
  }

  const seriesText = (t) => (t.series
    ? [`game ${t.series.games + 1} of a series · wins `, t.series.wins.map((w, i) => [i ? ', ' : '', nameEl(t.seats[i] ? t.seats[i].name : `Seat ${i + 1}`), ` ${w}`])]
    : null);

  // Who won a finished table (the API's `winners`), in words.
  function wonBy(t) {
    const w = (t.winners || []).filter((s) => t.seats[s]);
    if (t.status !== 'finished' || !w.length) return null;
    const names = w.map((s, i) => [i ? (i === w.length - 1 ? ' and ' : ', ') : '', nameEl(t.seats[s].name)]);
    return h('span', { class: 'won' }, w.length > 1 ? ['shared win: ', names] : ['won by ', names]);
  }

  function drawTables() {
    const row = (t) => {
      const mine = tokens.get(t.id);
      const who = t.seats.map((s, i) => {
        const sep = i ? ' · ' : '';
        if (s.player === 'open') return [sep, `Seat ${s.seat + 1}: open`];
        // An account's name links to its profile, its rating at this game beside it; a
        // bot's fixed rating goes with its level.
        if (s.player === 'human') return [sep, ratedName(s.name, { account: Boolean(s.account), rating: s.rating })];
        const rated = s.rating === undefined ? '' : [', ', h('span', { class: 'sr-only' }, 'rating '), String(s.rating)];
        return [sep, nameEl(s.name), ' (', botWords(s.player), rated, ')'];
      });
      return h('li', { class: 'table-row' },
        h('span', { class: 'tag' }, title(t.game)),
        h('span', { class: `status ${t.status}` }, standing(t)),
        wonBy(t),
        t.paused ? h('span', { class: 'status paused' }, t.paused) : null,
        h('span', { class: 'who' }, who),
        h('span', { class: 'options' }, optionWords(t)),
        h('span', { class: 'hints', dataset: { hints: t.table && t.table.hints ? 'on' : 'off' } }, t.table && t.table.hints ? 'hints on' : 'no hints'),
        seriesText(t) ? h('span', { class: 'series' }, seriesText(t)) : null,
        t.seed_chosen ? h('span', { class: 'seed-chosen', title: 'The creator chose the seed and may know the hidden cards.' }, 'seed chosen') : null,
        h('span', { class: 'links' },
          Object.entries(mine).map(([seat, tok]) => h('a', { class: 'button', href: `/play/${t.id}?token=${tok}` }, `Play seat ${Number(seat) + 1}`)),
          (t.open_seats || []).map((seat) => h('button', { class: 'primary join', id: `join-${t.id}-${seat}`, onclick: () => join(t, seat) }, `Join seat ${seat + 1}`)),
          h('a', { class: 'button', href: `/play/${t.id}` }, t.status === 'finished' ? 'See the end' : 'Watch'),
          t.status === 'finished' ? h('a', { class: 'button replay', id: `replay-${t.id}`, href: `/replay/${t.id}` }, 'Replay') : null));
    };
    // Three panels by what a visitor can do: join, watch, look back. "Older tables" pages
    // through the stored status the panel draws from.
    const panel = (id, heading, rows, statuses) => {
      const more = statuses.filter((st) => lists[st].more);
      const older = more.map((st) => h('button', {
        class: 'older', id: `older-${st}`,
        onclick: async () => { await load(st, lists[st].rows[lists[st].rows.length - 1].id); drawTables(); },
      }, 'Older tables'));
      return h('div', { class: 'panel', id: `tables-${id}` },
        h('h2', {}, `${heading} (${rows.length}${more.length ? '+' : ''})`),
        rows.length ? h('ul', {}, rows.map(row)) : h('p', { class: 'muted' }, 'None yet.'), older);
    };
    const open = lists.open.rows;
    tables.replaceChildren(
      h('div', { class: 'filters' },
        h('label', { class: 'opt' }, h('span', {}, 'Show'), filter),
        h('label', { class: 'opt' }, h('span', {}, 'Join as'), myName)),
      joinError,
      panel('waiting', 'Waiting for players', open.filter(waiting), ['open']),
      panel('playing', 'Playing', open.filter((t) => !waiting(t)).concat(lists.running.rows), ['running']),
      panel('finished', 'Finished', lists.finished.rows, ['finished']));
  }

  // Reloads the first page of each list (pages loaded with "Older tables" are kept only
  // until the next refresh).
  async function refresh() {
    await Promise.all([load('open'), load('running'), load('finished')]);
    drawTables();
  }
  setInterval(() => {
    if (Object.values(lists).every((l) => l.rows.length <= PAGE)) refresh();
  }, 5000);
  return { tables, refresh };
}
