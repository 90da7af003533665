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

  /** A sign-in on another app (its own throttle settings), with the time it took. */
  async function timedSignIn(url: string, token: string, headers: Record<string, string> = {}) {
    const started = performance.now();
    const res = await fetch(`${url}/panel/sign-in`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
    return { res, ms: performance.now() - started };
  }

  it('issue 31: failures from one address slow its later attempts, doubling up to a cap, and the right token still passes', async () => {
    const other = await startTestApp(
      {
        ADMIN_TOKEN: TOKEN,
        SIGN_IN_FAILURES_PER_IP: '3',
        SIGN_IN_FAILURES_GLOBAL: '1000',
        SIGN_IN_DELAY_MS: '300',
        SIGN_IN_DELAY_MAX_MS: '1200',
      },
      { workers: false },
    );
    try {
      for (let i = 0; i < 3; i++)
        expect((await timedSignIn(other.url, `wrong-${i}`)).res.headers.get('location')).toBe(
          '/panel/?signin=failed',
        );
      // The fourth failure waited 300 ms, the fifth 600, the sixth 1200, and so does every later one.
      const waits = [];
      for (let i = 3; i < 6; i++) waits.push((await timedSignIn(other.url, `wrong-${i}`)).ms);
      expect(waits[0]).toBeGreaterThanOrEqual(290);
      expect(waits[1]).toBeGreaterThanOrEqual(590);
      expect(waits[2]).toBeGreaterThanOrEqual(1190);
      // Six failures later the right token is not refused: it waits the cap and signs in.
      const { res, ms } = await timedSignIn(other.url, TOKEN);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/panel/');
      expect(cookieOf(res)).toMatch(/^sy_panel=/);
      expect(ms).toBeGreaterThanOrEqual(1190);
      // Signing in cleared the address's count: the next attempt does not wait.
      const keys = await other.ctx.redis.keys(`${other.ctx.keys.prefix}:*sign-in-failures:ip:*`);
      expect(keys).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('issue 31: guesses sent side by side each wait longer than the one before; an empty form is answered at once and counts for nothing', async () => {
    const other = await startTestApp(
      {
        ADMIN_TOKEN: TOKEN,
        SIGN_IN_FAILURES_PER_IP: '1',
        SIGN_IN_FAILURES_GLOBAL: '1000',
        SIGN_IN_DELAY_MS: '200',
        SIGN_IN_DELAY_MAX_MS: '1600',
      },
      { workers: false },
    );
    try {
      const empty = await Promise.all(Array.from({ length: 20 }, () => timedSignIn(other.url, '')));
      expect(empty.every((e) => e.res.headers.get('location') === '/panel/?signin=failed')).toBe(true);
      expect(await other.ctx.redis.keys(`${other.ctx.keys.prefix}:*sign-in-failures:*`)).toEqual([]);
      // Five guesses at once, after none: 0, 200, 400, 800 and 1,600 ms, not 0 each.
      const waits = (
        await Promise.all(Array.from({ length: 5 }, (_, i) => timedSignIn(other.url, `wrong-${i}`)))
      )
        .map((w) => w.ms)
        .sort((a, b) => a - b);
      expect(waits[4]).toBeGreaterThanOrEqual(1590);
      expect(waits[3]).toBeGreaterThanOrEqual(790);
    } finally {
      await other.close();
    }
  });

  it('issue 31: past the global count every address waits the cap, whatever it claims, and the right token still passes', async () => {
    const other = await startTestApp(
      {
        ADMIN_TOKEN: TOKEN,
        SIGN_IN_FAILURES_PER_IP: '1000',
        SIGN_IN_FAILURES_GLOBAL: '2',
        SIGN_IN_DELAY_MS: '100',
        SIGN_IN_DELAY_MAX_MS: '800',
      },
      { workers: false },
    );
    try {
      for (let i = 0; i < 2; i++) await timedSignIn(other.url, 'wrong', { 'x-forwarded-for': `10.0.0.${i}` });
      const { res, ms } = await timedSignIn(other.url, TOKEN, { 'x-forwarded-for': '10.9.9.9' });
      expect(res.status).toBe(303);
      expect(cookieOf(res)).toMatch(/^sy_panel=/);
      expect(ms).toBeGreaterThanOrEqual(790);
    } finally {
      await other.close();
    }
  });

  it('issue 31: X-Forwarded-For names the client only behind a proxy listed in TRUSTED_PROXIES', async () => {
    const counted = async (app: TestApp) =>
      (await app.ctx.redis.keys(`${app.ctx.keys.prefix}:*sign-in-failures:ip:*`))
        .map((k) => k.slice(k.indexOf(':ip:') + 4))
        .sort();
    const behind = await startTestApp(
      { ADMIN_TOKEN: TOKEN, TRUSTED_PROXIES: '127.0.0.1, ::1' },
      { workers: false },
    );
    try {
      // The proxy appends the address it saw; whatever the client put before it is a claim.
      await timedSignIn(behind.url, 'wrong', { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' });
      await timedSignIn(behind.url, 'wrong', { 'x-forwarded-for': '10.0.0.2' });
      expect(await counted(behind)).toEqual(['10.0.0.1', '10.0.0.2']);
    } finally {
      await behind.close();
    }
    // Without trusted proxies the header is ignored: every attempt counts against the peer.
    await timedSignIn(app.url, 'wrong', { 'x-forwarded-for': '10.0.0.1' });
    const direct = await counted(app);
    expect(direct).toHaveLength(1);
    expect(direct[0]).not.toMatch(/^10\./);
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
