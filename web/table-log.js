// A table's game log: what each move did, newest first in the log panel, the latest moves
// told one event at a time in the news line (in the order it happened) and marked on
// the board.
import { h, api, seatName, withNames } from './ui.js';
import { announce } from './keys.js';

/** The log of table `t` (see table.js for `t`). */
export function makeLog(t) {
  const { id, token } = t;
  // What the latest moves did, one event at a time, in the order it happened (said to a
  // screen reader through the page's polite live region, keys.js).
  const news = h('div', { class: 'news', id: 'news', hidden: true });
  const logList = h('ol', { class: 'log-list', id: 'log' });
  const panel = h('details', { class: 'panel log-panel', open: true },
    h('summary', {}, 'Game log ', h('small', { class: 'muted' }, '(newest first)')), logList);

  // Entries by index (each `{index, seat, events}`), the events still to be told one at
  // a time, and the elements each entry has in the log panel.
  const entries = new Map();
  const entryItems = new Map();
  const queue = [];
  let telling = null;
  let current = null;
  let logLoaded = false;

  function latestEntry() {
    let last = null;
    for (const e of entries.values()) if (!last || e.index > last.index) last = e;
    return last;
  }

  /** The log panel's item for an entry, made (in index order, newest first) if new. */
  function entryItem(entry) {
    let item = entryItems.get(entry.index);
    if (item) return item;
    const list = h('ul', { class: 'log-events' });
    item = h('li', { class: `log-entry seat-${entry.seat}`, dataset: { index: entry.index, seat: entry.seat } },
      h('div', { class: 'log-head' }, `Move ${entry.index + 1} · `, seatName(entry.seat, t.snap ? t.snap.seat : null)), list);
    item.events = list;
    entryItems.set(entry.index, item);
    const after = [...logList.children].find((li) => Number(li.dataset.index) < entry.index);
    logList.insertBefore(item, after || null);
    return item;
  }

  function eventItem(ev) {
    return h('li', { class: 'log-event', dataset: { kind: ev.kind || '' } }, withNames(ev.text));
  }

  /**
   * Takes log entries in. Known ones are skipped; new ones go to the log panel, told one
   * event at a time (`tell`) when they arrive live, or at once when `quiet` (the log read
   * when the page opens).
   */
  function takeEntries(list, quiet) {
    for (const entry of [...(list || [])].sort((a, b) => a.index - b.index)) {
      if (entries.has(entry.index)) continue;
      entries.set(entry.index, entry);
      if (quiet || !entry.events.length) entryItem(entry).events.append(...entry.events.map(eventItem));
      else for (const ev of entry.events) queue.push({ entry, ev });
    }
    while (logList.children.length > 5000) {
      const gone = logList.lastElementChild;
      entryItems.delete(Number(gone.dataset.index));
      gone.remove();
    }
    if (!telling) tell();
  }

  // Tells the queued events in order, each on its own for a moment, marking what it
  // touched on the board; a long burst is told faster.
  function tell() {
    // Behind (a page that was away, bots moving in a row): catch up at once on all but
    // the last few, which are told one by one, so the news stays within a move or two of
    // the board and the status line.
    while (queue.length > 4) {
      const old = queue.shift();
      entryItem(old.entry).events.append(eventItem(old.ev));
    }
    const next = queue.shift();
    if (!next) {
      telling = setTimeout(() => {
        telling = null;
        if (queue.length) { tell(); return; }
        current = null;
        news.hidden = true;
        document.body.dataset.news = 'idle';
        t.board.mark([], 'flash');
      }, 900);
      return;
    }
    document.body.dataset.news = 'busy';
    const item = entryItem(next.entry);
    const li = eventItem(next.ev);
    li.classList.add('fresh');
    item.events.append(li);
    setTimeout(() => li.classList.remove('fresh'), 2500);
    news.hidden = false;
    news.replaceChildren(h('span', { class: `news-text seat-${next.entry.seat}` }, withNames(next.ev.text)));
    announce(next.ev.text);
    current = next.ev;
    t.board.mark([current], 'flash');
    // Others' moves are told slowly enough to follow, the viewer's own faster, and a
    // long burst (bots moving in a row) faster still, so the log never lags far behind.
    const mine = t.snap && next.entry.seat === t.snap.seat;
    telling = setTimeout(tell, queue.length > 3 ? 300 : (mine ? 500 : 1200));
  }

  // Fills a gap in the log (a reconnection, a burst longer than the server keeps).
  let filling = false;
  async function fillLog(from) {
    if (filling) return;
    filling = true;
    try {
      const got = await api(`/api/tables/${id}/log?since=${from}`, { token });
      takeEntries(got.entries, !logLoaded);
      logLoaded = true;
      // The snapshot on show may be newer than the log read.
      if (t.snap) { takeEntries(t.snap.events, false); t.board.redraw(); }
    } catch { /* the next snapshot tries again */ }
    filling = false;
  }

  return {
    news,
    panel,
    /** Takes in the entries a new snapshot carries, reading the log where it has a gap. */
    follow(snap) {
      const known = entries.size ? Math.max(...entries.keys()) + 1 : 0;
      const fresh = (snap.events || []).filter((e) => e.index >= known);
      if (!logLoaded) fillLog(0);
      else if (fresh.length && fresh[0].index > known) fillLog(known);
      else takeEntries(snap.events, false);
    },
    /** The entries known, in order. */
    entries: () => [...entries.values()].sort((a, b) => a.index - b.index),
    /** Marks on the board what the last move touched, and the event being told. */
    markBoard() {
      const last = latestEntry();
      t.board.mark(last ? last.events : [], 'last-move');
      t.board.mark(current ? [current] : [], 'flash');
    },
  };
}
