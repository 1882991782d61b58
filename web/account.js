// The lobby's account panel (docs/accounts.md): signed out, a form to sign in or sign up;
// signed in, the name, "My tables" (those where it is my turn first, finished ones with
// their result) and a button to sign out. The session is an HttpOnly cookie the server
// sets: this page never sees it. The tab's title counts the tables waiting for me.
import { h, api, profileHref } from './ui.js';

/** The account panel, filled once the server says who is signed in. */
export function accountPanel() {
  const panel = h('div', { class: 'panel account', id: 'account' });
  draw();
  return panel;

  async function draw() {
    try {
      // Asked first: it answers a visitor who is not signed in without an error.
      const session = await api('/api/session');
      if (session.signed_in) signedIn(await api('/api/me'));
      else signedOut();
    } catch (e) {
      panel.replaceChildren(h('p', { class: 'error' }, e.message));
    }
  }

  function signedOut() {
    const name = h('input', { id: 'account-name', autocomplete: 'username', maxlength: 24 });
    const password = h('input', { id: 'account-password', type: 'password', autocomplete: 'current-password' });
    const error = h('p', { class: 'error', id: 'account-error', role: 'alert' });
    async function send(path) {
      error.textContent = '';
      try {
        await api(path, { method: 'POST', body: { name: name.value, password: password.value } });
        password.value = '';
        draw();
      } catch (e) {
        error.textContent = e.message;
      }
    }
    panel.replaceChildren(
      h('h2', {}, 'Your account'),
      h('p', { class: 'muted' }, 'Guests play without one. An account keeps your tables in one list, opens your seats on any browser where you sign in, and has a rating per game.'),
      h('label', { class: 'opt', for: 'account-name' }, h('span', {}, 'Name'), name),
      h('label', { class: 'opt', for: 'account-password' }, h('span', {}, 'Password (8 characters or more)'), password),
      h('button', { id: 'sign-in', onclick: () => send('/api/session') }, 'Sign in'),
      ' ',
      h('button', { id: 'sign-up', onclick: () => send('/api/accounts') }, 'Sign up'),
      error,
    );
  }

  function signedIn(me) {
    const waiting = me.tables.filter((t) => t.your_turn).length;
    const base = document.title.replace(/^\(\d+\) /, '');
    document.title = waiting ? `(${waiting}) ${base}` : base;
    const ratings = me.ratings.map((r) => h('li', {}, h('a', { href: `/leaderboard/${encodeURIComponent(r.game)}` }, r.game), `: ${r.rating} (${r.games} rated game${r.games === 1 ? '' : 's'})`));
    const rows = me.tables.map((t) => h('li', { class: t.your_turn ? 'your-turn' : '' },
      h('a', { href: `/play/${t.id}` }, `${t.game} with ${t.players.join(', ')}`),
      ` — ${tableWords(t)}`));
    panel.replaceChildren(
      h('h2', {}, 'Signed in as ', h('a', { id: 'my-profile', href: profileHref(me.name) }, h('bdi', {}, me.name))),
      ratings.length ? h('ul', { class: 'ratings' }, ratings) : h('p', { class: 'muted' }, 'No rated games yet.'),
      h('h3', {}, 'My tables'),
      rows.length ? h('ul', { class: 'my-tables', id: 'my-tables' }, rows) : h('p', { class: 'muted' }, 'No tables yet: create one below while signed in, and your seat is kept here.'),
      h('button', {
        id: 'sign-out',
        onclick: async () => {
          await api('/api/session', { method: 'DELETE' }).catch(() => {});
          document.title = base;
          draw();
        },
      }, 'Sign out'),
    );
  }
}

/** Where one of my tables stands, in words. */
function tableWords(t) {
  if (t.result) return t.result.place === 0 ? 'finished: you won' : `finished: your place ${t.result.place + 1}`;
  if (t.status === 'abandoned') return 'abandoned';
  if (t.your_turn) return 'your turn';
  if (t.status === 'open' && t.to_act === undefined) return 'waiting for players';
  return 'waiting for the others';
}
