// The games this server offers and each one's board module. A module of its own, apart
// from ui.js, so that the board modules (which import ui.js) are loaded by a module that
// none of them imports.
import { api } from './ui.js';

/** The games this server offers (`GET /api/games`: each one's name and default
 * options), fetched once per page: the pages keep no list of their own. */
let offered = null;
export function games() {
  if (!offered) offered = api('/api/games');
  return offered;
}

/** The module that draws a game's board (`web/GAME.js`, named after the game), for a game
 * this server offers. */
export async function gameModule(name) {
  const list = await games();
  if (!list.some((g) => g.name === name)) throw new Error(`this server offers no game "${name}"`);
  return import(`./${name}.js`);
}
