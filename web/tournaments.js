// The lobby's Tournaments panel (docs/accounts.md, Tournaments): the tournaments
// (`GET /api/tournaments`), each linked to its own page; signed in, a form to make one.
// A tournament's page (`/tournaments/ID`): its players, Join / Leave / Start as the API
// allows, each round's tables linked, and the standings with their tie-breaks.
import { h, api, aboutGame, nameEl, ratedName } from './ui.js';
import { games as offered } from './games.js';

const FORMATS = { round_robin: 'Round robin', swiss: 'Swiss' };
const STATUS = { open: 'open to join', running: 'running', finished: 'finished' };
const FILLS = [['', 'No bots (a bye instead)'], ['easy', 'Bot: easy'], ['medium', 'Bot: medium'], ['hard', 'Bot: hard']];

const href = (id) => `/tournaments/${encodeURIComponent(id)}`;
const title = async (game) => (await aboutGame(game).catch(() => ({ title: game }))).title;

/** The lobby's panel: the list, and the form to make one once signed in. */
export function tournamentsPanel() {
  const panel = h('section', { class: 'panel tournaments', id: 'tournaments', 'aria-labelledby': 'tournaments-title' });
  draw();
  return panel;

  async function draw() {
    let list;
    let session;
    try {
      [list, session] = await Promise.all([api('/api/tournaments'), api('/api/session')]);
    } catch (e) {
      panel.replaceChildren(h('h2', { id: 'tournaments-title' }, 'Tournaments'), h('p', { class: 'error' }, e.message));
      return;
    }
    const titles = await Promise.all(list.map((t) => title(t.game)));
    const rows = list.length
      ? h('table', { id: 'tournament-list' },
        h('caption', { class: 'sr-only' }, 'The newest tournaments'),
        h('thead', {}, h('tr', {}, ['Name', 'Game', 'Format', 'Status', 'Players'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, list.map((t, i) => h('tr', { dataset: { id: t.id } },
          h('th', { scope: 'row' }, h('a', { href: href(t.id) }, h('bdi', {}, t.name))),
          h('td', {}, titles[i]),
          h('td', {}, formatWords(t)),
          h('td', {}, STATUS[t.status] || t.status),
          h('td', { class: 'num' }, t.max_players ? `${t.players} of ${t.max_players}` : String(t.players))))))
      : h('p', { class: 'muted', id: 'tournament-list' }, 'No tournaments yet.');
    panel.replaceChildren(
      h('h2', { id: 'tournaments-title' }, 'Tournaments'),
      rows,
      session.signed_in ? await createForm() : h('p', { class: 'muted' }, 'Sign in to make or join a tournament.'));
  }
}

/** A tournament's format in words: "Round robin", "Swiss, 3 rounds, tables of 4". */
function formatWords(t) {
  const words = [FORMATS[t.format] || t.format];
  if (t.format === 'swiss') words.push(`${t.rounds} round${t.rounds === 1 ? '' : 's'}`);
  if (t.table_size > 2) words.push(`tables of ${t.table_size}`);
  return words.join(', ');
}

/** The form that makes a tournament: the game from the API's catalog. */
async function createForm() {
  const games = await offered();
  const about = await Promise.all(games.map((g) => aboutGame(g.name)));
  const name = h('input', { id: 'tournament-name', maxlength: '60', value: 'Friday tournament' });
  const game = h('select', { id: 'tournament-game' }, games.map((g, i) => h('option', { value: g.name }, about[i].title)));
  const format = h('select', { id: 'tournament-format' }, Object.entries(FORMATS).map(([v, t]) => h('option', { value: v }, t)));
  const rounds = h('input', { id: 'tournament-rounds', type: 'number', min: '1', max: '20', step: '1', value: '3' });
  const size = h('input', { id: 'tournament-size', type: 'number', min: '2', step: '1', value: '2' });
  const rated = h('input', { id: 'tournament-rated', type: 'checkbox' });
  const fill = h('select', { id: 'tournament-fill' }, FILLS.map(([v, t]) => h('option', { value: v }, t)));
  const roundsLabel = h('label', { class: 'opt', for: 'tournament-rounds' }, h('span', {}, 'Rounds'), rounds);
  const sizeLabel = h('label', { class: 'opt', for: 'tournament-size' }, h('span', {}, 'Most seats at a table'), size);
  const fillLabel = h('label', { class: 'opt', for: 'tournament-fill' }, h('span', {}, 'Fill empty seats with'), fill);
  const most = () => {
    const a = about[game.selectedIndex];
    return (a && a.players && a.players.max) || 2;
  };
  // Rounds and table size are Swiss settings; a rated tournament has no bots.
  const shown = () => {
    const swiss = format.value === 'swiss';
    roundsLabel.hidden = !swiss;
    size.max = String(most());
    sizeLabel.hidden = !swiss || most() <= 2;
    fillLabel.hidden = rated.checked;
  };
  [game, format, rated].forEach((el) => el.addEventListener('change', shown));
  shown();
  const error = h('p', { class: 'error', id: 'tournament-error', role: 'alert' });
  const create = h('button', { id: 'tournament-create', class: 'primary', onclick: async () => {
    error.textContent = '';
    const body = { name: name.value.trim(), game: game.value, format: format.value };
    if (format.value === 'swiss') {
      body.rounds = Number(rounds.value);
      if (!sizeLabel.hidden) body.table_size = Number(size.value);
    }
    if (rated.checked) body.rated = true;
    else if (fill.value) body.fill = fill.value;
    try {
      const t = await api('/api/tournaments', { method: 'POST', body });
      location.assign(href(t.id));
    } catch (e) { error.textContent = e.message; }
  } }, 'Create tournament');
  return h('div', { class: 'tournament-form' },
    h('h3', {}, 'New tournament'),
    h('label', { class: 'opt', for: 'tournament-name' }, h('span', {}, 'Name'), name),
    h('label', { class: 'opt', for: 'tournament-game' }, h('span', {}, 'Game'), game),
    h('label', { class: 'opt', for: 'tournament-format' }, h('span', {}, 'Format'), format),
    roundsLabel, sizeLabel,
    h('label', { class: 'opt', for: 'tournament-rated', title: 'Every table rated; no bots then.' }, h('span', {}, 'Rated'), rated),
    fillLabel, create, error);
}

/** A tournament's own page (`/tournaments/ID`). */
export async function showTournament(root, id) {
  const box = h('div', { class: 'panel tournament', id: 'tournament' });
  root.replaceChildren(box);
  const error = h('p', { class: 'error', id: 'tournament-error', role: 'alert' });
  async function draw() {
    let t;
    try {
      t = await api(`/api/tournaments/${encodeURIComponent(id)}`);
    } catch (e) {
      document.title = 'No such tournament — Tabletop';
      box.replaceChildren(h('h1', {}, 'Tournament'), h('p', { class: 'error', id: 'tournament-error' }, e.message),
        h('a', { class: 'button', href: '/' }, 'Back to the lobby'));
      return;
    }
    const game = await title(t.game);
    document.title = `${t.name} — Tabletop`;
    document.getElementById('top-info').textContent = `${game} · tournament`;
    // Through `h`, which drops the parts left out (null) and flattens the lists.
    box.replaceChildren(...h('div', {},
      h('h1', {}, h('bdi', {}, t.name)),
      h('p', { id: 'tournament-about' }, `${game} · ${formatWords(t)} · ${STATUS[t.status] || t.status}`,
        t.rated ? ' · rated' : '', t.fill ? ` · bots (${t.fill}) fill empty seats` : '',
        ' · made by ', ratedName(t.creator, { account: true })),
      h('h2', {}, `Players (${t.entrants.length}${t.max_players ? ` of ${t.max_players}` : ''})`),
      h('ul', { id: 'tournament-players' }, t.entrants.map((n) => h('li', {}, ratedName(n, { account: true })))),
      buttons(t), error,
      t.pairings.length ? t.pairings.map(round) : h('p', { class: 'muted' }, 'The first round is paired when the tournament starts.'),
      t.standings.length ? standings(t) : null,
      h('p', {}, h('a', { class: 'button', href: '/' }, 'Back to the lobby'))).childNodes);
  }
  async function act(method, path) {
    error.textContent = '';
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}${path}`, { method });
      await draw();
    } catch (e) { error.textContent = e.message; }
  }
  function buttons(t) {
    if (t.status !== 'open') return null;
    const out = [];
    if (!t.joined) out.push(h('button', { id: 'tournament-join', onclick: () => act('POST', '/join') }, 'Join'));
    if (t.joined && !t.is_creator) out.push(h('button', { id: 'tournament-leave', onclick: () => act('DELETE', '/join') }, 'Leave'));
    if (t.is_creator) out.push(h('button', { id: 'tournament-start', class: 'primary', onclick: () => act('POST', '/start') }, 'Start'));
    return h('p', { class: 'tournament-actions' }, out.flatMap((b, i) => (i ? [' ', b] : [b])));
  }
  await draw();
}

/** One round: each table linked, with its players by seat and, once over, the result. */
function round(r) {
  return h('section', { class: 'tournament-round', id: `round-${r.round}`, 'aria-labelledby': `round-${r.round}-title` },
    h('h2', { id: `round-${r.round}-title` }, `Round ${r.round}`, r.complete ? ' (complete)' : ''),
    h('ol', { class: 'boards' }, r.boards.map((b, i) => {
      const who = b.players.map((p, seat) => [seat ? ' v ' : '', p === null ? 'a bot' : nameEl(p)]);
      const label = `Table ${i + 1}`;
      return h('li', {},
        b.table ? h('a', { class: 'board-link', href: `/play/${encodeURIComponent(b.table)}` }, label) : label, ': ',
        who, ' — ', boardWords(b));
    })));
}

/** Where a board stands, in words. */
function boardWords(b) {
  if (b.bye) return 'a bye (1 point)';
  if (b.abandoned) return 'abandoned (no points)';
  if (!b.over || !b.places) return 'playing';
  const winners = b.players.filter((_, s) => b.places[s] === 0).map((p) => (p === null ? 'a bot' : p));
  return winners.length > 1 ? `a tie between ${winners.join(' and ')}` : `won by ${winners[0]}`;
}

/** The standings table: points, then the tie-breaks in the order they count. */
function standings(t) {
  const pts = (x) => String(Math.round(x * 100) / 100);
  return [h('h2', {}, 'Standings'),
    h('table', { id: 'tournament-standings' },
      h('caption', {}, 'Ranked by points, then Buchholz (the points of everyone met), then Sonneborn-Berger, then the order of joining'),
      h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Points', 'Buchholz', 'Sonneborn-Berger', 'Wins', 'Played', 'Byes'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, t.standings.map((s) => h('tr', {},
        h('td', { class: 'num' }, String(s.rank)),
        h('th', { scope: 'row' }, ratedName(s.name, { account: true })),
        h('td', { class: 'num' }, pts(s.points)),
        h('td', { class: 'num' }, pts(s.buchholz)),
        h('td', { class: 'num' }, pts(s.sonneborn_berger)),
        h('td', { class: 'num' }, String(s.wins)),
        h('td', { class: 'num' }, String(s.played)),
        h('td', { class: 'num' }, String(s.byes))))))];
}
