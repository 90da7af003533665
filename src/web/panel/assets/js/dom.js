/**
 * The one way the panel builds markup: elements and text nodes, never HTML strings. Data from
 * the server (team text, messages, ticket titles) can only ever become text.
 */

/**
 * `h('button', { class: 'primary', onclick: fn }, 'Save')`. Children: strings and numbers become
 * text nodes, null/false are skipped, arrays are flattened.
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...unknown} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (name === 'value' && 'value' in el) {
      /** @type {HTMLInputElement} */ (el).value = String(value);
    } else if (name === 'checked' && 'checked' in el) {
      /** @type {HTMLInputElement} */ (el).checked = Boolean(value);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** @param {Node} el @param {unknown[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. @param {Element} el @param {...unknown} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A short local date and time. @param {number | string | null | undefined} at */
export function when(at) {
  if (at === null || at === undefined || at === '') return '—';
  const d = new Date(typeof at === 'number' ? at : Date.parse(at));
  if (Number.isNaN(d.getTime())) return String(at);
  // In the panel's language (issue 16), which `useLang` sets on the page.
  return d.toLocaleString(document.documentElement.lang || undefined, {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
}

/** A status line under a page heading; `kind` is `info`, `ok` or `problem`. */
export function notice(kind, ...children) {
  return h('div', { class: `notice ${kind}`, role: kind === 'problem' ? 'alert' : 'status' }, ...children);
}

/** A brief message at the bottom of the screen. @param {string} text */
export function toast(text) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.classList.add('shown');
  clearTimeout(Number(el.dataset.timer));
  el.dataset.timer = String(setTimeout(() => el.classList.remove('shown'), 3000));
}
