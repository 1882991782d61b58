// A player's profile (`/players/NAME`): the account's rating at each game it played
// rated (linked to the game's leaderboard), each rating over time as a chart with its
// text alternative (rating-chart.js), and its latest rated games with their results
// and replay links; from `GET /api/players/{name}`.
import { h, api, aboutGame, nameEl, ordinal } from './ui.js';
import { ratingChart, when } from './rating-chart.js';

export async function showProfile(root, name) {
  document.getElementById('top-info').textContent = 'Player';
  let page;
  try {
    page = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    document.title = 'No such player — Tabletop';
    root.replaceChildren(h('div', { class: 'panel profile', id: 'profile' },
      h('h1', {}, 'No such player'),
      h('p', { class: 'error', id: 'profile-error' }, e.message),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    return;
  }
  document.title = `${page.name} — Tabletop`;
  const games = [...new Set([...page.ratings.map((r) => r.game), ...Object.keys(page.history || {})])];
  const titles = {};
  await Promise.all(games.map(async (g) => {
    try { titles[g] = (await aboutGame(g)).title; } catch { titles[g] = g; }
  }));
  const title = (g) => titles[g] || g;
  const board = (g) => h('a', { href: `/leaderboard/${encodeURIComponent(g)}` }, title(g));

  const ratings = page.ratings.length
    ? h('table', { class: 'ratings', id: 'profile-ratings' },
      h('caption', { class: 'sr-only' }, `Ratings of ${page.name}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col' }, 'Rating'), h('th', { scope: 'col' }, 'Rated games'))),
      h('tbody', {}, page.ratings.map((r) => h('tr', { dataset: { game: r.game } },
        h('th', { scope: 'row' }, board(r.game)),
        h('td', { class: 'num rating-value' }, String(r.rating)),
        h('td', { class: 'num' }, String(r.games))))))
    : h('p', { class: 'muted' }, 'No rated games yet: a newcomer is rated 1000 at every game.');

  const charts = Object.entries(page.history || {}).map(([g, points]) => h('section', { class: 'rating-history' },
    h('h3', {}, `${title(g)} over time`), ratingChart(points, title(g), g)));

  const result = (r) => {
    const others = r.players.filter((_, i) => i !== r.seat);
    const won = r.place === 0 ? 'won' : `placed ${ordinal(r.place)}`;
    return h('li', { class: 'recent-game', dataset: { table: r.table } },
      h('strong', {}, title(r.game)),
      others.length ? [' with ', others.map((n, i) => [i ? ', ' : '', nameEl(n)])] : null,
      ` — ${won}, rating ${r.rating_before} → ${r.rating_after} · ${when(r.at)} · `,
      h('a', { href: `/replay/${r.table}`, class: 'replay' }, 'Replay'));
  };

  root.replaceChildren(h('div', { class: 'panel profile', id: 'profile' },
    h('h1', {}, nameEl(page.name)),
    h('h2', {}, 'Ratings'), ratings,
    charts.length ? [h('h2', {}, 'Ratings over time'), charts] : null,
    h('h2', {}, 'Recent rated games'),
    page.recent.length ? h('ul', { id: 'recent-games' }, page.recent.map(result)) : h('p', { class: 'muted' }, 'None yet.'),
    h('p', {}, h('a', { class: 'button', href: '/' }, 'Back to the lobby'))));
}
