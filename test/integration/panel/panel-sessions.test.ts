import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

const TOKEN = 'panel-sessions-admin-token-0123456789';

/** Issue 14 "secrets hygiene": server-side panel sessions, throttled sign-in, capped bodies. */
describe('panel sessions are server-side; sign-in is throttled; bodies are capped', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp(
      { ADMIN_TOKEN: TOKEN, SIGN_IN_FAILURES_PER_IP: '3', SIGN_IN_FAILURES_GLOBAL: '1000' },
      { workers: false },
    );
  });
  afterEach(() => app.close());

  const signIn = (token: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
  const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const prompts = (cookie: string) => fetch(`${app.url}/api/prompts`, { headers: { cookie } });
  const post = (path: string, headers: Record<string, string>) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers, redirect: 'manual' });

  it('sign-out ends the session server-side: the old cookie no longer opens /api', async () => {
    const cookie = cookieOf(await signIn(TOKEN));
    expect((await prompts(cookie)).status).toBe(200);
    expect((await post('/panel/sign-out', { cookie })).status).toBe(303);
    const after = await prompts(cookie);
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'session_invalid' });
  });

  it('"sign out everywhere" ends every session, from the panel or with the bearer token', async () => {
    const a = cookieOf(await signIn(TOKEN));
    const b = cookieOf(await signIn(TOKEN));
    expect((await prompts(b)).status).toBe(200);
    expect(
      (await post('/panel/sign-out-everywhere', { cookie: a, origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await prompts(b)).status).toBe(200);
    expect((await post('/panel/sign-out-everywhere', {})).status).toBe(401);
    expect((await post('/panel/sign-out-everywhere', { cookie: a })).status).toBe(303);
    expect((await prompts(a)).status).toBe(401);
    expect((await prompts(b)).status).toBe(401);
    const c = cookieOf(await signIn(TOKEN));
    const byBearer = await post('/panel/sign-out-everywhere', { authorization: `Bearer ${TOKEN}` });
    expect(await byBearer.json()).toEqual({ ended: 1 });
    expect((await prompts(c)).status).toBe(401);
  });

  it('after 3 failed sign-ins from one address even the right token gets a 429 with Retry-After', async () => {
    const other = await startTestApp(
      { ADMIN_TOKEN: TOKEN, SIGN_IN_FAILURES_PER_IP: '3', SIGN_IN_FAILURES_GLOBAL: '1000' },
      { workers: false },
    );
    try {
      const tryIn = (token: string) =>
        fetch(`${other.url}/panel/sign-in`, {
          method: 'POST',
          body: new URLSearchParams({ token }),
          redirect: 'manual',
        });
      for (let i = 0; i < 3; i++)
        expect((await tryIn(`wrong-${i}`)).headers.get('location')).toBe('/panel/?signin=failed');
      const refused = await tryIn(TOKEN);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.json()).toMatchObject({ code: 'sign_in_throttled' });
    } finally {
      await other.close();
    }
  });

  it('the global limit holds whatever address a guesser claims', async () => {
    const other = await startTestApp(
      { ADMIN_TOKEN: TOKEN, SIGN_IN_FAILURES_PER_IP: '1000', SIGN_IN_FAILURES_GLOBAL: '2' },
      { workers: false },
    );
    try {
      for (let i = 0; i < 2; i++)
        await fetch(`${other.url}/panel/sign-in`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `10.0.0.${i}` },
          body: new URLSearchParams({ token: 'wrong' }),
          redirect: 'manual',
        });
      const refused = await fetch(`${other.url}/panel/sign-in`, {
        method: 'POST',
        headers: { 'x-forwarded-for': '10.9.9.9' },
        body: new URLSearchParams({ token: TOKEN }),
        redirect: 'manual',
      });
      expect(refused.status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('a sign-in body over 4 KB and an API body over 1 MiB are 413 before parsing', async () => {
    const big = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${'a'.repeat(5000)}`,
      redirect: 'manual',
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'body_too_large' });
    const huge = await fetch(`${app.url}/api/prompts`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ baseRevision: 0, team: { about: 'x'.repeat(1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'body_too_large' });
    // Streamed without a length: refused once the cap is passed, not buffered whole.
    const chunks = new ReadableStream<Uint8Array>({
      start(ctrl) {
        for (let i = 0; i < 20; i++) ctrl.enqueue(new Uint8Array(128 * 1024).fill(32));
        ctrl.close();
      },
    });
    const streamed = await fetch(`${app.url}/panel/api/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('a short ADMIN_TOKEN is refused at start-up, naming the variable and the minimum', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'admin-token-123' })).toThrow(
      /ADMIN_TOKEN: must be at least 32 characters/,
    );
    expect(loadConfig({ ADMIN_TOKEN: 'x'.repeat(32) }).ADMIN_TOKEN).toHaveLength(32);
  });
});
