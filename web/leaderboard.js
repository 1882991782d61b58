// A game's leaderboard (`/leaderboard/GAME`): the best ratings at the game (`GET
// /api/leaderboard/{game}`), each name linked to its profile, and the bots' fixed ratings
// on the same scale (the game's description, `bot_ratings`); links to the other games'.
import { h, api, aboutGame, ratedName } from './ui.js';
import { games as offered } from './games.js';

export async function showLeaderboard(root, game) {
  let about;
  let rows;
  try {
    [about, rows] = await Promise.all([aboutGame(game), api(`/api/leaderboard/${encodeURIComponent(game)}`)]);
  } catch (e) {
    document.title = 'No such game — Tabletop';
    root.replaceChildren(h('div', { class: 'panel leaderboard', id: 'leaderboard' },
      h('p', { class: 'error', id: 'leaderboard-error' }, e.message),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby')));
    return;
  }
  const title = about.title;
  document.title = `Leaderboard — ${title} — Tabletop`;
  document.getElementById('top-info').textContent = `${title} · leaderboard`;
  const others = (await offered().catch(() => [])).filter((g) => g.name !== game);
  const otherTitles = await Promise.all(others.map(async (g) => (await aboutGame(g.name).catch(() => ({ title: g.name }))).title));

  const head = (...cols) => h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c))));
  const players = rows.length
    ? h('table', { id: 'leaders' },
      h('caption', { class: 'sr-only' }, `The best ratings at ${title}`),
      head('Rank', 'Player', 'Rating', 'Rated games'),
      h('tbody', {}, rows.map((r) => h('tr', {},
        h('td', { class: 'num' }, String(r.rank)),
        h('th', { scope: 'row' }, ratedName(r.name, { account: true })),
        h('td', { class: 'num' }, String(r.rating)),
        h('td', { class: 'num' }, String(r.games))))))
    : h('p', { class: 'muted', id: 'leaders' }, 'Nobody has played a rated game of it yet.');
  const bots = about.bot_ratings || [];
  const botTable = bots.length
    ? h('table', { id: 'bot-ratings' },
      h('caption', { class: 'sr-only' }, `The bots' fixed ratings at ${title}`),
      head('Bot', 'Rating', 'Ladder Elo'),
      h('tbody', {}, bots.map((b) => h('tr', {},
        h('th', { scope: 'row' }, `${b.bot} bot`),
        h('td', { class: 'num' }, String(b.rating)),
        h('td', { class: 'num' }, String(b.elo))))))
    : null;

  root.replaceChildren(h('div', { class: 'panel leaderboard', id: 'leaderboard' },
    h('h1', {}, `${title}: leaderboard`),
    h('p', { class: 'muted' }, 'A rating is 1000 + 40 × (skill − 3 × uncertainty): it rises with wins and as the estimate grows sure. A newcomer shows 1000.'),
    players,
    botTable ? [h('h2', {}, 'The bots\' fixed ratings'),
      h('p', { class: 'muted' }, 'Measured once by a tournament between the bots (the ladder), medium anchored; a rated game against a bot counts against these and never moves them.'),
      botTable] : null,
    others.length ? h('p', {}, 'Other leaderboards: ', others.map((g, i) => [i ? ' · ' : '',
      h('a', { href: `/leaderboard/${encodeURIComponent(g.name)}` }, otherTitles[i])])) : null,
    h('p', {}, h('a', { class: 'button', href: '/' }, 'Back to the lobby'))));
}
