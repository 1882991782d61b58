// A game's rules page, `/rules/GAME`: drawn from `GET /api/games/{game}/rules` (sections
// of paragraphs, lists and tables, every table filled by the game from its own data). The
// page keeps no rule text and no game data of its own.
import { h, api } from './ui.js';

/** One block of a section: a paragraph, a list or a table. */
function block(b) {
  if (b.kind === 'paragraph') return h('p', {}, b.text);
  if (b.kind === 'list') return h('ul', { class: 'rules-list' }, b.items.map((item) => h('li', {}, item)));
  if (b.kind === 'table') {
    // On a phone each row becomes a small card whose cells carry their column's name.
    return h('div', { class: 'rules-table-box' },
      h('table', { class: 'rules-table' },
        h('thead', {}, h('tr', {}, b.columns.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, b.rows.map((row) => h('tr', {},
          row.map((cell, i) => h('td', { dataset: { label: b.columns[i] || '' } }, cell)))))));
  }
  return null;
}

/** The id a section's heading gets, for the contents' links. */
function anchor(i) {
  return `rules-${i + 1}`;
}

export async function showRules(root, game) {
  document.getElementById('top-info').textContent = '';
  const back = h('a', { class: 'button small', href: '/', id: 'rules-back' }, 'Back to the lobby');
  let rules;
  try {
    rules = await api(`/api/games/${encodeURIComponent(game)}/rules`);
  } catch (e) {
    document.title = 'Tabletop — rules';
    root.replaceChildren(h('div', { class: 'rules-page' },
      h('div', { class: 'panel' }, h('p', { class: 'error', id: 'rules-error' }, e.message), back)));
    return;
  }
  document.title = `${rules.title} — Tabletop`;
  document.getElementById('top-info').textContent = rules.title;
  const contents = h('nav', { class: 'panel rules-contents', id: 'rules-contents' },
    h('h2', {}, 'Contents'),
    h('ol', {}, rules.sections.map((s, i) => h('li', {}, h('a', { href: `#${anchor(i)}` }, s.heading)))));
  const sections = rules.sections.map((s, i) => h('section', { class: 'panel rules-section', id: anchor(i) },
    h('h2', {}, s.heading), s.blocks.map(block)));
  root.replaceChildren(h('div', { class: 'rules-page', id: 'rules', dataset: { game: rules.name } },
    h('div', { class: 'rules-head' }, h('h1', {}, rules.title), back),
    contents, sections));
  // Opened at a section (a link with #rules-N): go there once it is drawn.
  if (location.hash) {
    const at = document.getElementById(location.hash.slice(1));
    if (at) at.scrollIntoView();
  }
}
