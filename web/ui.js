// What every page shares: making elements, calling the API, the game's description,
// this browser's seat tokens, names as the page shows them, and a few words.

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
    // Over a rate: the seconds to wait (the body's `retry_after`, as `Retry-After`).
    err.retryAfter = data && Number.isFinite(data.retry_after) ? data.retry_after : null;
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
export function setSeatNames(names) { seatNames = Array.isArray(names) ? names.map(String) : []; }

/**
 * A person's or bot's name as the page shows it: in its own `<bdi>`, isolated from its
 * surroundings, so that a name written right to left (or one holding direction marks)
 * never reorders the words around it. Every name the pages show goes through here, as
 * text (never as markup).
 */
export function nameEl(name) {
  return h('bdi', { class: 'pname' }, String(name));
}

/** The address of a player's profile page. */
export function profileHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/**
 * An account's name as a link to its profile, with its rating beside it when one is
 * given ("Ada (rating 1138)", the word for screen readers only); a name without an
 * account (a guest's, a bot's) is plain, with a bot's fixed rating beside it.
 */
export function ratedName(name, { account = false, rating = null } = {}) {
  const shown = account ? h('a', { class: 'player-link', href: profileHref(name) }, nameEl(name)) : nameEl(name);
  if (rating === null || rating === undefined) return shown;
  return [shown, h('span', { class: 'rating' }, ' (', h('span', { class: 'sr-only' }, 'rating '), String(rating), ')')];
}

/** How a seat is called on the page: "You" for the viewer's own, else its name. */
export function seatName(seat, mine) {
  if (seat === mine) return 'You';
  return nameEl(seatNames[seat] || `Seat ${seat + 1}`);
}

/** Each seat's shape, drawn beside its colour wherever a colour alone would tell the seat
 * (a die's pips take the same shape, style.css): colour is never the only cue. */
export const SEAT_SHAPES = ['●', '■', '◆', '▲', '○', '✚'];
export function seatMark(seat) {
  return h('span', { class: `seat-mark seat-${seat}`, 'aria-hidden': 'true' }, SEAT_SHAPES[seat] || String(seat + 1));
}

/** A seat's name in plain words for an accessible name: "you" or its name. */
export function seatWords(seat, mine) {
  return seat === mine ? 'you' : seatNames[seat] || `Seat ${seat + 1}`;
}

/** A seat's full name, marked "(you)" for the viewer's own (a list of page children). */
export function fullName(seat, mine) {
  const name = nameEl(seatNames[seat] || `Seat ${seat + 1}`);
  return seat === mine ? [name, ' (you)'] : [name];
}

/**
 * A text the server wrote (a log event, a table's note, an error naming a name) as page
 * children, each of `known` (the seats' names unless told) in it isolated as [`nameEl`]
 * isolates it. The longest name is taken first where two start at one place; the
 * default "Seat N" names are the server's own words.
 */
export function withNames(text, known = seatNames) {
  const names = [...new Set(known.filter((n) => n && !/^Seat \d+$/.test(n)))]
    .sort((a, b) => b.length - a.length);
  const out = [];
  let rest = String(text);
  while (names.length && rest) {
    let at = -1;
    let found = null;
    for (const n of names) {
      const i = rest.indexOf(n);
      if (i >= 0 && (at < 0 || i < at)) { at = i; found = n; }
    }
    if (found === null) break;
    if (at > 0) out.push(rest.slice(0, at));
    out.push(nameEl(found));
    rest = rest.slice(at + found.length);
  }
  if (rest) out.push(rest);
  return out;
}

/** The address of a game's rules page. */
export function rulesHref(game) {
  return `/rules/${encodeURIComponent(game)}`;
}

/** A wait in words: "1 second", "20 seconds", whole minutes from two minutes on. */
export function waitWords(seconds) {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 120) return `${s} second${s === 1 ? '' : 's'}`;
  return `${Math.ceil(s / 60)} minutes`;
}

export function ordinal(n) {
  return ['1st', '2nd', '3rd'][n] || `${n + 1}th`;
}
