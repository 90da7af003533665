import { t } from './i18n.js';

/**
 * Issue 49 item 6 (axe `scrollable-region-focusable`): a table or text block larger than its box
 * (wider than a phone, a long prompt) scrolls within itself, so a keyboard must reach it: while
 * it scrolls it takes the focus (tabindex 0) and has a name; when it no longer does, both go.
 */

const SCROLLERS = 'table.table, .table-scroll, pre';
const MARK = 'data-scroll-focus';

function nameOf(/** @type {HTMLElement} */ el) {
  if (el.tagName === 'PRE') return t('a11y.scroll.code');
  const caption = el.querySelector('caption')?.textContent?.trim();
  const near = el.closest('section')?.querySelector('h2, h3')?.textContent?.trim();
  return t('a11y.scroll.table', { name: caption || near || document.title });
}

const SCROLLS = /auto|scroll/;

/** Whether the element scrolls: its content is larger than its box, and its overflow scrolls. */
function scrolls(/** @type {HTMLElement} */ el) {
  const style = getComputedStyle(el);
  return (
    (el.scrollWidth > el.clientWidth + 1 && SCROLLS.test(style.overflowX)) ||
    (el.scrollHeight > el.clientHeight + 1 && SCROLLS.test(style.overflowY))
  );
}

function mark(/** @type {ParentNode} */ root) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(SCROLLERS))) {
    const overflows = scrolls(el);
    if (overflows && !el.hasAttribute('tabindex')) {
      el.setAttribute('tabindex', '0');
      el.setAttribute(MARK, '');
      // A table keeps its role (its caption names it); a block becomes a named region.
      if (el.tagName !== 'TABLE') el.setAttribute('role', 'region');
      if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', nameOf(el));
    } else if (!overflows && el.hasAttribute(MARK)) {
      for (const a of ['tabindex', MARK, 'role', 'aria-label']) el.removeAttribute(a);
    }
  }
}

/**
 * Keeps `root`'s scrolling blocks reachable as pages draw (marked in the mutation's own
 * microtask, so a redrawn table is never without its focus) and as the window resizes.
 */
export function watchScrollRegions(/** @type {HTMLElement} */ root) {
  new MutationObserver(() => mark(root)).observe(root, { childList: true, subtree: true });
  let queued = false;
  window.addEventListener('resize', () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      mark(root);
    });
  });
  mark(root);
}
