// The page router, the page's one entry point: `/` is the lobby, `/play/ID` a table,
// `/replay/ID` a finished game move by move, `/rules/GAME` a game's rules, `/learn/GAME`
// a game's lessons and `/learn/GAME/ID` one lesson, `/players/NAME` a player's profile,
// `/leaderboard/GAME` a game's leaderboard, `/tournaments/ID` a tournament. Each page is a module loaded when
// its address is opened; the helpers they share are in ui.js, so no page imports this.
import { h } from './ui.js';

async function main() {
  const root = document.getElementById('root');
  const m = location.pathname.match(/^\/play\/([0-9a-fA-F]+)\/?$/);
  const rules = location.pathname.match(/^\/rules\/([^/]+)\/?$/);
  if (rules) {
    const { showRules } = await import('./rules.js');
    await showRules(root, decodeURIComponent(rules[1]));
    return;
  }
  const replay = location.pathname.match(/^\/replay\/([0-9a-fA-F]+)\/?$/);
  if (replay) {
    const { showReplay } = await import('./replay.js');
    await showReplay(root, replay[1]);
    return;
  }
  const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (player) {
    const { showProfile } = await import('./profile.js');
    await showProfile(root, decodeURIComponent(player[1]));
    return;
  }
  const board = location.pathname.match(/^\/leaderboard\/([^/]+)\/?$/);
  if (board) {
    const { showLeaderboard } = await import('./leaderboard.js');
    await showLeaderboard(root, decodeURIComponent(board[1]));
    return;
  }
  const tournament = location.pathname.match(/^\/tournaments\/([^/]+)\/?$/);
  if (tournament) {
    const { showTournament } = await import('./tournaments.js');
    await showTournament(root, decodeURIComponent(tournament[1]));
    return;
  }
  const learn = location.pathname.match(/^\/learn\/([a-z-]+)(?:\/([A-Za-z0-9_-]+))?\/?$/);
  if (learn) {
    const { showLearn } = await import('./learn.js');
    await showLearn(root, learn[1], learn[2]);
  } else if (m) {
    const { showTable } = await import('./table.js');
    const token = new URLSearchParams(location.search).get('token');
    await showTable(root, m[1], token);
  } else {
    const { showLobby } = await import('./lobby.js');
    await showLobby(root);
  }
}

main().catch((e) => {
  document.getElementById('root').replaceChildren(h('p', { class: 'error' }, `Something went wrong: ${e.message}`));
});
