import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEISHU_CALLBACKS, FEISHU_EVENTS, FEISHU_SCOPES } from '../../../src/channels/feishu/app-needs.ts';
import { loadConfig } from '../../../src/config.ts';
import { checkFeishu } from '../../../src/doctor/check-feishu.ts';
import { sayIn } from '../../../src/doctor/doctor-text.ts';
import { parseEnvFile } from '../../../src/env-file.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';

const TOKEN = 'feishu-app-scan-admin-token-0123456789';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
type Answer = { status: number; body: any };

/** A signed-in panel session over HTTP, as the page's own fetches are (cookie and CSRF token). */
async function signIn(
  app: TestApp,
): Promise<(method: string, path: string, body?: unknown) => Promise<Answer>> {
  const res = await fetch(`${app.url}/panel/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ token: TOKEN }),
    redirect: 'manual',
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const session = await fetch(`${app.url}/panel/api/session`, { headers: { cookie } });
  const { csrf } = (await session.json()) as { csrf: string };
  return async (method, path, body) => {
    const r = await fetch(`${app.url}${path}`, {
      method,
      headers: { cookie, 'x-switchyard-csrf': csrf, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 33 item 6: a Feishu app in one scan, through the panel's routes against the fake Feishu's
 * registration endpoint (the pinned SDK's `registerApp` protocol: begin, then polls until the
 * person confirms on their phone).
 */
describe('panel: create the Feishu app by scanning a QR code (issue 33 item 6)', () => {
  let fake: FakeFeishu;
  let app: TestApp;
  let panel: Awaited<ReturnType<typeof signIn>>;
  const polls = () => fake.registration.calls.filter((c) => c.form.action === 'poll');
  const userCodeOf = (link: string) => new URL(link).searchParams.get('user_code') ?? '';
  /** Polls as the page does, waiting as long as the answer says, until it is no longer "waiting". */
  const pollUntilSettled = async (id: string): Promise<Answer> => {
    for (;;) {
      const res = await panel('POST', `/panel/api/feishu-app/registrations/${id}/poll`);
      if (res.body?.status !== 'waiting') return res;
      await sleep(res.body.retryAfterMs);
    }
  };

  beforeEach(async () => {
    fake = await startFakeFeishu();
    fake.registration.settings.intervalSeconds = 1;
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, FEISHU_DOMAIN: fake.url }, { workers: false });
    panel = await signIn(app);
  });
  afterEach(async () => {
    await app?.close();
    await fake?.close();
  });

  it('the scan presets exactly what the bot needs; confirmed, it becomes .env lines the Open API accepts, and only a secret-free record is kept', async () => {
    const info = await panel('GET', '/panel/api/feishu-app');
    expect(info.body).toMatchObject({ appId: null, created: null, accountsUrl: fake.url, eventMode: 'ws' });
    expect(info.body.needs).toEqual({
      scopes: FEISHU_SCOPES,
      events: FEISHU_EVENTS,
      callbacks: FEISHU_CALLBACKS,
    });

    const started = await panel('POST', '/panel/api/feishu-app/registrations', { name: 'Yard bot' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ intervalMs: 1000, id: expect.stringMatching(/^[\w-]{24}$/) });
    expect(started.body.link).toMatch(new RegExp(`^${fake.url}/page/launcher\\?user_code=`));
    expect(started.body.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(fake.registration.calls[0]?.form).toEqual({
      action: 'begin',
      archetype: 'PersonalAgent',
      auth_method: 'client_secret',
      request_user_info: 'open_id',
    });
    // The browser never sees Feishu's device code.
    const deviceCode = String(fake.registration.calls[0]?.reply.device_code);
    expect(deviceCode.length).toBeGreaterThan(20);
    expect(JSON.stringify(started.body)).not.toContain(deviceCode);

    const id = started.body.id as string;
    expect((await panel('POST', `/panel/api/feishu-app/registrations/${id}/poll`)).body.status).toBe(
      'waiting',
    );
    // Asked again at once: answered from the gate, Feishu is not polled sooner than it asked.
    const early = await panel('POST', `/panel/api/feishu-app/registrations/${id}/poll`);
    expect(early.body).toMatchObject({ status: 'waiting', retryAfterMs: expect.any(Number) });
    expect(polls()).toHaveLength(1);

    const view = fake.registration.scan(started.body.link, { openId: 'ou_ada' });
    expect(view).toMatchObject({ name: 'Yard bot', createOnly: true, discarded: false });
    expect(view.scopes).toEqual(FEISHU_SCOPES.map((s) => s.scope));
    expect(view.events).toEqual([...FEISHU_EVENTS]);
    expect(view.callbacks).toEqual([...FEISHU_CALLBACKS]);
    const made = fake.registration.confirm(view.userCode);

    const done = await pollUntilSettled(id);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('created');
    expect(done.body.app).toMatchObject({ appId: made.appId, brand: 'feishu', openId: 'ou_ada' });
    const vars = parseEnvFile(done.body.env);
    expect(vars).toEqual({ FEISHU_APP_ID: made.appId, FEISHU_APP_SECRET: made.appSecret });
    // Never sooner than Feishu asked: no poll was answered slow_down.
    expect(polls().map((c) => c.reply.error ?? 'credentials')).toEqual([
      ...polls()
        .slice(0, -1)
        .map(() => 'authorization_pending'),
      'credentials',
    ]);

    // With those lines the Feishu channel is on: the doctor gets a token, the bot, a long connection.
    const config = loadConfig({ FEISHU_DOMAIN: fake.url, ...vars });
    expect(config.feishuEnabled).toBe(true);
    const findings = await checkFeishu(config, 5_000, sayIn('en'));
    expect(findings.map((f) => f.status)).toEqual(['ok']);

    // The secret is nowhere in Redis; the app's id and who made it are.
    const { redis, keys } = app.ctx;
    const stored = await Promise.all((await redis.keys(`${keys.prefix}:*`)).map((k) => redis.dump(k)));
    expect(stored.join('')).not.toContain(made.appSecret);
    const after = await panel('GET', '/panel/api/feishu-app');
    expect(after.body.created).toMatchObject({ appId: made.appId, brand: 'feishu', openId: 'ou_ada' });
    // The credentials came once: the scan is over.
    const again = await panel('POST', `/panel/api/feishu-app/registrations/${id}/poll`);
    expect(again).toMatchObject({ status: 404, body: { code: 'registration_unknown' } });
  }, 30_000);

  it('declined on the phone, expired at Feishu or here, or Feishu unreachable: each is told apart', async () => {
    const start = async () => (await panel('POST', '/panel/api/feishu-app/registrations', {})).body;

    const declined = await start();
    fake.registration.scan(declined.link);
    fake.registration.deny(userCodeOf(declined.link));
    expect((await pollUntilSettled(declined.id)).body).toEqual({ status: 'refused' });

    const stale = await start();
    fake.registration.expire(userCodeOf(stale.link));
    expect((await pollUntilSettled(stale.id)).body).toEqual({ status: 'expired' });

    // Past the expiry Feishu gave, the panel says so without asking Feishu again.
    fake.registration.settings.expiresInSeconds = 1;
    const short = await start();
    await sleep(1100);
    const before = polls().length;
    expect((await pollUntilSettled(short.id)).body).toEqual({ status: 'expired' });
    expect(polls()).toHaveLength(before);

    fake.registration.settings.expiresInSeconds = 600;
    fake.registration.settings.dropNext = 1;
    const down = await panel('POST', '/panel/api/feishu-app/registrations', {});
    expect(down).toMatchObject({ status: 503, body: { code: 'feishu_unreachable' } });
    expect(down.body.error).toMatch(/Feishu's accounts service could not be reached/);

    const flaky = await start();
    fake.registration.settings.dropNext = 1;
    const lost = await panel('POST', `/panel/api/feishu-app/registrations/${flaky.id}/poll`);
    expect(lost).toMatchObject({ status: 503, body: { code: 'feishu_unreachable', retryAfterMs: 1000 } });
    // The scan survives a lost connection: the next poll reaches Feishu again.
    await sleep(1000);
    fake.registration.scan(flaky.link, { brand: 'lark' });
    fake.registration.confirm(userCodeOf(flaky.link));
    const made = await pollUntilSettled(flaky.id);
    expect(made.body.status).toBe('created');
    // A Lark tenant's app needs Lark's Open API.
    expect(parseEnvFile(made.body.env).FEISHU_DOMAIN).toBe('https://open.larksuite.com');
    expect(made.body.app.brand).toBe('lark');
  }, 30_000);

  it("Feishu's slow_down is obeyed: the interval grows by five seconds for the rest of the scan", async () => {
    const started = (await panel('POST', '/panel/api/feishu-app/registrations', {})).body;
    const begun = fake.registration.calls.length;
    expect((await panel('POST', `/panel/api/feishu-app/registrations/${started.id}/poll`)).body.status).toBe(
      'waiting',
    );
    // Another client polls the same device code, so the bot's next poll comes too soon for Feishu.
    const deviceCode = String(fake.registration.calls[begun - 1]?.reply.device_code);
    await fetch(`${fake.url}/oauth/v1/app/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'poll', device_code: deviceCode }),
    });
    await sleep(1000);
    const slowed = await panel('POST', `/panel/api/feishu-app/registrations/${started.id}/poll`);
    expect(fake.registration.calls.slice(begun).map((c) => c.reply.error)).toEqual([
      'authorization_pending',
      'slow_down',
      'slow_down',
    ]);
    expect(slowed.body).toMatchObject({ status: 'waiting', retryAfterMs: 6000 });
    const early = await panel('POST', `/panel/api/feishu-app/registrations/${started.id}/poll`);
    expect(early.body.retryAfterMs).toBeGreaterThan(5000);
    expect(fake.registration.calls.slice(begun)).toHaveLength(3);
  }, 30_000);

  it('a scan is polled only by the panel session that began it; a bearer caller cannot begin one', async () => {
    const bearer = await fetch(`${app.url}/panel/api/feishu-app/registrations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bearer.status).toBe(403);
    expect(await bearer.json()).toMatchObject({ code: 'panel_session_required' });
    // An outsider (no session) is refused, and so is a session's cookie without its CSRF token.
    const begin = (headers: Record<string, string>) =>
      fetch(`${app.url}/panel/api/feishu-app/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await begin({})).status).toBe(401);
    const signInRes = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    const cookieOnly = await begin({
      cookie: (signInRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
    });
    expect(cookieOnly.status).toBe(403);
    expect(await cookieOnly.json()).toMatchObject({ code: 'csrf_required' });
    const refused = await panel('POST', '/panel/api/feishu-app/registrations', { name: '<script>' });
    expect(refused.status).toBe(400);
    expect(fake.registration.calls).toHaveLength(0);

    const started = (await panel('POST', '/panel/api/feishu-app/registrations', {})).body;
    const other = await signIn(app);
    const stolen = await other('POST', `/panel/api/feishu-app/registrations/${started.id}/poll`);
    expect(stolen).toMatchObject({ status: 404, body: { code: 'registration_unknown' } });
    expect(polls()).toHaveLength(0);
    const own = await panel('POST', `/panel/api/feishu-app/registrations/${started.id}/poll`);
    expect(own.body).toMatchObject({ status: 'waiting' });
    await waitFor(() => polls().length === 1, 'the own session polled Feishu');
  }, 30_000);
});
