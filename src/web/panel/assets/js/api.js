/**
 * Calls to `/api` and `/panel/api` with the panel's session cookie. Writes carry the session's
 * CSRF token (`x-switchyard-csrf`), mark themselves as the panel's (`x-switchyard-source`) and
 * name the person signed in, when they gave a name (`x-switchyard-who`).
 */

let csrf = '';

const WHO_KEY = 'switchyard.who';

/** The name the person gave at sign-in, if any. */
export const whoAmI = () => localStorage.getItem(WHO_KEY) ?? '';

/** @param {string} name */
export const rememberWho = (name) =>
  name.trim() ? localStorage.setItem(WHO_KEY, name.trim()) : localStorage.removeItem(WHO_KEY);

/** Thrown when the session is gone; the app shows the sign-in form again. */
export class SignedOut extends Error {
  name = 'SignedOut';
}

/** Learns the CSRF token of the current session; false when not signed in. */
export async function loadSession() {
  const res = await fetch('/panel/api/session', { credentials: 'same-origin' });
  if (res.status === 401) return false;
  if (!res.ok) throw new Error(`the panel session answered ${res.status}`);
  csrf = (await res.json()).csrf ?? '';
  return true;
}

/**
 * One request. Answers `{ status, body }` for every HTTP answer (409 and 422 are answers the
 * pages handle); throws `SignedOut` on 401 and an Error on network failure.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{ status: number, ok: boolean, body: any }>}
 */
export async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (method !== 'GET') {
    headers['x-switchyard-csrf'] = csrf;
    headers['x-switchyard-source'] = 'panel';
    if (whoAmI()) headers['x-switchyard-who'] = whoAmI();
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status === 401) {
    window.dispatchEvent(new CustomEvent('switchyard:signed-out'));
    throw new SignedOut('signed out');
  }
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { error: text };
  }
  return { status: res.status, ok: res.ok, body: parsed };
}

/** A GET that must succeed. @param {string} path */
export async function get(path) {
  const res = await request('GET', path);
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${res.body?.error ?? ''}`);
  return res.body;
}
