import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession } from '../../../src/web/panel/panel-session.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

const TOKEN = 'panel-auth-admin-token-0123456789abcdef';

/** Every `/api` write the product has (CONTRACT "HTTP"), with a body each would accept. */
const WRITES: [method: string, path: string, body: unknown][] = [
  ['PUT', '/api/prompts', { baseRevision: 0, team: {}, overrides: {}, skills: [] }],
  ['POST', '/api/prompts/restore', { baseRevision: 0, defaults: true }],
  ['PUT', '/api/policy', { mode: 'explicit', rules: [] }],
  ['POST', '/api/tickets/T-1/pause', {}],
  ['POST', '/api/tickets/T-1/resume', {}],
  ['POST', '/api/local/messages', { text: 'hello' }],
  ['POST', '/panel/api/preview', {}],
  // Issue 33 item 5: who may change a budget; issue 33 item 3: who may resend a delivery;
  // issue 29: who may start a paid eval run (no eval model here: 422 once let in).
  ['PUT', '/api/budgets', { dailyUsd: 1 }],
  ['POST', '/api/tickets/T-1/deliveries/retry', { key: 'status:T-1:edit:1' }],
  ['POST', '/api/eval/ab', { version: 1 }],
];

/**
 * The panel's sign-in and the `/api` guard (issue 6): the bearer token or a signed panel session;
 * a panel write also needs the session's CSRF token.
 */
describe('panel auth: cookie, CSRF and the /api guard', () => {
  let app: TestApp;
  let cookie: string;
  let csrf: string;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    const res = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    csrf = (await send('GET', '/panel/api/session', undefined, { cookie })).body.csrf;
  });
  afterEach(() => app.close());

  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  it('signing in sets an HTTP-only, SameSite=Strict, Path=/ cookie that is not the token', async () => {
    const res = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^sy_panel=v1\./);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toContain(TOKEN);
    expect(csrf).toMatch(/^[\w-]{20,}$/);
  });

  it('a wrong token or a cross-site form gets no cookie', async () => {
    const wrong = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: 'wrong-token!' }),
      redirect: 'manual',
    });
    expect(wrong.headers.get('location')).toBe('/panel/?signin=failed');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const crossSite = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('set-cookie')).toBeNull();
    // X-Forwarded-Host names the origin only from a trusted proxy: here there is none.
    const claimed = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    expect(claimed.status).toBe(403);
    expect(claimed.headers.get('set-cookie')).toBeNull();
  });

  it('behind a proxy listed in TRUSTED_PROXIES, the forwarded host is the origin a form comes from', async () => {
    const behind = await startTestApp(
      { ADMIN_TOKEN: TOKEN, TRUSTED_PROXIES: '127.0.0.1, ::1' },
      { workers: false },
    );
    try {
      const res = await fetch(`${behind.url}/panel/sign-in`, {
        method: 'POST',
        headers: { origin: 'https://switchyard.example', 'x-forwarded-host': 'switchyard.example' },
        body: new URLSearchParams({ token: TOKEN }),
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('set-cookie')).toMatch(/^sy_panel=/);
    } finally {
      await behind.close();
    }
  });

  it.each(WRITES)(
    '%s %s: 401 without credentials, with a wrong bearer, a forged or an expired cookie',
    async (method, path, body) => {
      const forged = `sy_panel=${cookie.slice('sy_panel='.length, -4)}AAAA`;
      const otherKey = `sy_panel=${newSession('another-deployment-token', Date.now()).value}`;
      const expired = `sy_panel=${newSession(TOKEN, Date.now() - 13 * 3600_000).value}`;
      for (const headers of [
        {},
        { authorization: 'Bearer wrong-token' },
        { cookie: forged, 'x-switchyard-csrf': csrf },
        { cookie: otherKey, 'x-switchyard-csrf': csrf },
        { cookie: expired, 'x-switchyard-csrf': csrf },
        { cookie: `sy_panel=${TOKEN}`, 'x-switchyard-csrf': csrf },
      ]) {
        const res = await send(method, path, body, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
      }
    },
  );

  it.each(WRITES)(
    '%s %s: 403 with a valid cookie but no or a wrong CSRF header; passes with both',
    async (method, path, body) => {
      expect((await send(method, path, body, { cookie })).body).toMatchObject({ code: 'csrf_required' });
      expect((await send(method, path, body, { cookie })).status).toBe(403);
      const wrong = await send(method, path, body, { cookie, 'x-switchyard-csrf': `${csrf.slice(0, -2)}xx` });
      expect(wrong).toMatchObject({ status: 403, body: { code: 'csrf_mismatch' } });
      const ok = await send(method, path, body, { cookie, 'x-switchyard-csrf': csrf });
      expect([401, 403]).not.toContain(ok.status);
      const bearer = await send(method, path, body, { authorization: `Bearer ${TOKEN}` });
      expect([401, 403]).not.toContain(bearer.status);
    },
  );

  it('reads with the cookie need no CSRF header; without ADMIN_TOKEN the panel session is refused', async () => {
    expect((await send('GET', '/api/prompts', undefined, { cookie })).status).toBe(200);
    const off = await startTestApp({}, { workers: false });
    try {
      const res = await fetch(`${off.url}/api/prompts`, { headers: { cookie } });
      expect(res.status).toBe(401);
      const signIn = await fetch(`${off.url}/panel/sign-in`, {
        method: 'POST',
        body: new URLSearchParams({ token: TOKEN }),
        redirect: 'manual',
      });
      expect(signIn.headers.get('location')).toBe('/panel/?signin=disabled');
    } finally {
      await off.close();
    }
  });
});
