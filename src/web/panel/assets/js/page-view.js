import { h } from './dom.js';

/**
 * Each navigation draws into a view of its own, so only the newest one shows (issue 16). A page
 * renders after its API answers; without this, an older navigation whose answer came late (the
 * tickets list still loading when the person switched to Queues, or to 中文) drew over the newer
 * page. The page shown stays until the newest view has drawn something; a view a later navigation
 * superseded is taken out at once, so whatever its page draws after a slow answer lands in a
 * detached element, and its timers (which check `isConnected`) stop.
 */

/** @type {{ view: HTMLElement, shown: boolean } | null} */
let newest = null;

/**
 * A view for one navigation, placed in `root` before the page shown now.
 * @param {HTMLElement} root
 * @returns {{ view: HTMLElement, isNewest: () => boolean, show: () => void }}
 */
export function openView(root) {
  if (newest && !newest.shown) newest.view.remove();
  const mine = { view: h('div', { class: 'page-view' }), shown: false };
  newest = mine;
  const isNewest = () => newest === mine;
  /** Takes out the page shown before, once this view has drawn (or failed, or finished). */
  const show = () => {
    if (!isNewest() || mine.shown) return;
    mine.shown = true;
    observer.disconnect();
    for (const other of [...root.children]) if (other !== mine.view) other.remove();
  };
  const observer = new MutationObserver(show);
  observer.observe(mine.view, { childList: true });
  // Before the page shown now: what the new page lays out (a scroll to one version, say) is
  // where it stays once the old one is taken out.
  root.prepend(mine.view);
  return { view: mine.view, isNewest, show };
}
