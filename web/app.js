// Shared helpers and the page router: `/` is the lobby, `/play/ID` a table.

/** Makes an element: h('div', {class: 'x', onclick: f}, child, 'text', …). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** A JSON call to the API; throws an Error carrying `code` on a 4xx/5xx. */
export async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error((data && data.message) || `HTTP ${res.status}`);
    err.code = data && data.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

/** A game described for people (`GET /api/games/{game}`: title, options in words,
 * printed components), fetched once per page. */
const abouts = {};
export function aboutGame(name) {
  if (!abouts[name]) abouts[name] = api(`/api/games/${encodeURIComponent(name)}`);
  return abouts[name];
}

/** Tokens this browser was given, by table id: {seat: token}. */
export const tokens = {
  all() {
    try { return JSON.parse(localStorage.getItem('tabletop.tokens') || '{}'); } catch { return {}; }
  },
  get(table) { return this.all()[table] || {}; },
  put(table, seat, token) {
    const all = this.all();
    all[table] = { ...(all[table] || {}), [seat]: token };
    try { localStorage.setItem('tabletop.tokens', JSON.stringify(all)); } catch { /* private mode */ }
  },
};

/** The seats' display names of the table on show (from its snapshots' `names`). */
let seatNames = [];
export function setSeatNames(names) { seatNames = Array.isArray(names) ? names : []; }

/** How a seat is called on the page: "You" for the viewer's own, else its name. */
export function seatName(seat, mine) {
  if (seat === mine) return 'You';
  return seatNames[seat] || `Seat ${seat + 1}`;
}

/** A seat's full name, marked "(you)" for the viewer's own. */
export function fullName(seat, mine) {
  const name = seatNames[seat] || `Seat ${seat + 1}`;
  return seat === mine ? `${name} (you)` : name;
}

export function ordinal(n) {
  return ['1st', '2nd', '3rd'][n] || `${n + 1}th`;
}

async function main() {
  const root = document.getElementById('root');
  const m = location.pathname.match(/^\/play\/([0-9a-fA-F]+)\/?$/);
  if (m) {
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
