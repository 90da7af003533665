import { get } from '../api.js';

const POLL_MS = 2000;
const CLOSED = new Set(['done', 'cancelled']);

/**
 * Issue 49 item 1: the ticket page's one poll. Every two seconds while the ticket is open, and
 * at once when asked (`now`), it reads the ticket and its timeline and hands them to the page;
 * the branch's changes are read again when a commit, a PR or the state is new. A closed ticket
 * is read once more and then left; a page navigated away from stops.
 * @param {HTMLElement} root the page's view (detached once the person navigates away)
 * @param {string} id
 * @param {{ detail: (tk: any) => void, timeline: (items: any[], live: boolean) => void, changes: (c: any) => void }} on
 */
export function liveTicket(root, id, on) {
  const base = `/api/tickets/${encodeURIComponent(id)}`;
  let timer = 0;
  let changesSeen = '';
  let busy = false;
  const tick = async () => {
    clearTimeout(timer);
    if (!root.isConnected || busy) return;
    busy = true;
    let open = false;
    try {
      const [tk, tl] = await Promise.all([get(base), get(`${base}/timeline`)]);
      if (!root.isConnected) return;
      open = !CLOSED.has(tk.state);
      on.detail(tk);
      on.timeline(tl.items, open);
      const mark = `${tk.state}:${tl.items.filter((/** @type {any} */ i) => i.kind === 'commit' || i.kind === 'pr').length}`;
      if (mark !== changesSeen) {
        on.changes(await get(`${base}/changes`));
        changesSeen = mark;
      }
    } catch {
      return; // Signed out or gone: the page says so when it is drawn again.
    } finally {
      busy = false;
      if (open && root.isConnected) timer = window.setTimeout(() => void tick(), POLL_MS);
    }
  };
  return { now: () => void tick() };
}
