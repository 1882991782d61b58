// A table's chat: seats write under their names, spectators under one they give; the
// table's own notes ("Seat 1 (Ada) asked for a hint") are lines of it too.
import { h, api, nameEl, withNames } from './ui.js';

/** The chat of table `t` (see table.js for `t`). */
export function makeChat(t) {
  const { id, token } = t;
  const chatList = h('ol', { class: 'chat-list', id: 'chat' });
  const chatText = h('input', { id: 'chat-text', maxlength: '500', placeholder: 'say something', autocomplete: 'off' });
  const chatName = token ? null : h('input', {
    id: 'chat-name', class: 'seat-name', maxlength: '24', placeholder: 'your name',
    value: localStorage.getItem('tabletop.name') || '',
  });
  const chatError = h('p', { class: 'error', id: 'chat-error' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: (ev) => { ev.preventDefault(); sendChat(); } },
    chatName, chatText, h('button', { id: 'chat-send', class: 'small', type: 'submit' }, 'Send'));
  const panel = h('details', { class: 'panel chat-panel', open: true },
    h('summary', {}, 'Chat'), chatList, chatForm, chatError);

  // Chat lines by seq: each shown once, in order.
  const chatSeen = new Set();
  function addChat(line) {
    if (!line || chatSeen.has(line.seq)) return;
    chatSeen.add(line.seq);
    const mark = line.seat === null ? ' (watching)' : (line.seat === (t.snap && t.snap.seat) ? ' (you)' : '');
    // A table's own note ("Seat 1 (Ada) asked for a hint", "You asked for a hint": the
    // server tells a seat's notes to its own player in the second person) is a sentence
    // of its own, without a writer; it names seats in its text.
    const note = line.kind && line.kind !== 'chat';
    const item = note
      ? h('li', { class: `chat-line note seat-${line.seat}`, dataset: { seq: String(line.seq) } }, h('span', { class: 'chat-said' }, withNames(line.text)))
      : h('li', { class: `chat-line ${line.seat === null ? 'spectator' : `seat-${line.seat}`}`, dataset: { seq: String(line.seq) } },
        h('strong', {}, nameEl(line.name), mark), ' ', h('span', { class: 'chat-said' }, line.text));
    const after = [...chatList.children].find((el) => Number(el.dataset.seq) > line.seq);
    chatList.insertBefore(item, after || null);
    chatList.scrollTop = chatList.scrollHeight;
  }

  async function sendChat() {
    chatError.textContent = '';
    const text = chatText.value.trim();
    if (!text) return;
    const body = { text };
    if (chatName) {
      body.name = chatName.value.trim();
      try { localStorage.setItem('tabletop.name', body.name); } catch { /* private mode */ }
    }
    try {
      addChat(await api(`/api/tables/${id}/chat`, { method: 'POST', token, body }));
      chatText.value = '';
    } catch (e) { chatError.replaceChildren(...withNames(e.message, [...(t.snap ? t.snap.names : []), body.name || ''])); }
  }

  return {
    panel,
    /** Shows a line (once, in order of its seq). */
    add: addChat,
    /** Reads the lines said so far. */
    async load() {
      try { (await api(`/api/tables/${id}/chat`, { token })).lines.forEach(addChat); } catch { /* the socket brings new lines */ }
    },
  };
}
