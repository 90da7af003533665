import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { createRuntime } from '../../../src/runtime.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { apiRoutes } from '../../../src/web/api-routes.ts';
import { createApp } from '../../../src/web/app.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { localMessage, send } from '../routing/helpers.ts';

const TOKEN = 'route-properties-admin-token-0123456789';

/**
 * Every `/api` and `/panel` route the app serves, with the body fields its handler reads. A route
 * added to the app but missing here fails the coverage test below.
 */
const ROUTES: { method: string; path: string; fields?: string[] }[] = [
  { method: 'GET', path: '/panel' },
  { method: 'GET', path: '/panel/' },
  { method: 'GET', path: '/panel/assets/*' },
  { method: 'POST', path: '/panel/sign-in' },
  { method: 'POST', path: '/panel/sign-out' },
  { method: 'POST', path: '/panel/sign-out-everywhere' },
  { method: 'GET', path: '/panel/api/session' },
  { method: 'POST', path: '/panel/api/preview', fields: ['baseRevision', 'team', 'overrides', 'skills'] },
  { method: 'GET', path: '/panel/github-app/callback' },
  { method: 'GET', path: '/panel/api/github-app' },
  { method: 'POST', path: '/panel/api/github-app/manifest', fields: ['publicUrl', 'name', 'org'] },
  { method: 'POST', path: '/panel/api/github-app/conversions', fields: ['code', 'state'] },
  { method: 'GET', path: '/panel/api/feishu-app' },
  { method: 'POST', path: '/panel/api/feishu-app/registrations', fields: ['name'] },
  { method: 'POST', path: '/panel/api/feishu-app/registrations/:id/poll' },
  { method: 'GET', path: '/api/prompts' },
  { method: 'PUT', path: '/api/prompts', fields: ['baseRevision', 'team', 'overrides', 'skills'] },
  { method: 'GET', path: '/api/prompts/versions' },
  { method: 'GET', path: '/api/prompts/versions/:rev' },
  { method: 'POST', path: '/api/prompts/restore', fields: ['baseRevision', 'revision', 'defaults'] },
  { method: 'GET', path: '/api/policy' },
  { method: 'PUT', path: '/api/policy', fields: ['baseRevision', 'mode', 'rules'] },
  { method: 'GET', path: '/api/tickets' },
  { method: 'GET', path: '/api/needs-you' },
  { method: 'GET', path: '/api/tickets/:id' },
  { method: 'GET', path: '/api/tickets/:id/trajectory' },
  { method: 'GET', path: '/api/tickets/:id/timeline' },
  { method: 'GET', path: '/api/tickets/:id/changes' },
  { method: 'GET', path: '/api/tickets/:id/screenshots/:shot' },
  { method: 'POST', path: '/api/tickets/:id/pause' },
  { method: 'POST', path: '/api/tickets/:id/resume' },
  { method: 'POST', path: '/api/tickets/:id/deliveries/retry', fields: ['key'] },
  { method: 'GET', path: '/api/cards/:id/text' },
  { method: 'POST', path: '/api/local/messages', fields: ['text', 'chat', 'replyTo'] },
  { method: 'GET', path: '/api/local/messages' },
  { method: 'GET', path: '/api/local/examples' },
  { method: 'GET', path: '/api/home' },
  { method: 'GET', path: '/api/queues' },
  { method: 'GET', path: '/api/stats/daily' },
  { method: 'GET', path: '/api/stats/queue-depth' },
  { method: 'GET', path: '/api/budgets' },
  { method: 'PUT', path: '/api/budgets', fields: ['ticketUsd', 'dailyUsd'] },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: '/api/eval/runs' },
  { method: 'GET', path: '/api/eval/runs/:run' },
  { method: 'GET', path: '/api/eval/runs/:run/trajectories/:task/:n' },
  { method: 'GET', path: '/api/eval/ab' },
  { method: 'POST', path: '/api/eval/ab', fields: ['version', 'draft'] },
  { method: 'GET', path: '/api/chat-repos' },
  { method: 'PUT', path: '/api/chat-repos/:chat', fields: ['repo'] },
  { method: 'GET', path: '/api/chat-languages' },
  { method: 'PUT', path: '/api/chat-languages/:chat', fields: ['lang'] },
  // bull-board behind the panel's sign-in (issue 17): its pages, files and JSON API.
  ...[
    '',
    '/metrics-history',
    '/job-schedulers',
    '/queue/:queueName',
    '/queue/:queueName/:jobId',
    '/static/*',
    '/api/redis/stats',
    '/api/queues',
    '/api/job-schedulers',
    '/api/queues/:queueName/metrics',
    '/api/queues/:queueName/default-job-options',
    '/api/queues/:queueName/workers',
    '/api/queues/:queueName/rate-limit',
    '/api/queues/:queueName/job-data-schema',
    '/api/queues/:queueName/:jobId/logs',
    '/api/queues/:queueName/:jobId/flow',
    '/api/queues/:queueName/:jobId',
  ].map((path) => ({ method: 'GET', path: `/panel/queues/board${path}` })),
  ...[
    '/api/queues/pause',
    '/api/queues/resume',
    '/api/queues/:queueName/retry/:queueStatus',
    '/api/queues/:queueName/promote',
    '/api/queues/:queueName/clean/:queueStatus',
    '/api/queues/:queueName/pause',
    '/api/queues/:queueName/resume',
    '/api/queues/:queueName/empty',
    '/api/queues/:queueName/job-schedulers/:schedulerId/remove',
    '/api/queues/:queueName/job-schedulers/:schedulerId/run',
    '/api/queues/:queueName/:jobId/retry',
    '/api/queues/:queueName/:jobId/clean',
    '/api/queues/:queueName/:jobId/promote',
    '/api/queues/:queueName/:jobId/remove-unprocessed-children',
    '/api/queues/:queueName/rate-limit/release',
  ].map((path) => ({ method: 'PUT', path: `/panel/queues/board${path}` })),
  {
    method: 'POST',
    path: '/panel/queues/board/api/queues/:queueName/add',
    fields: ['name', 'data', 'options'],
  },
  { method: 'PUT', path: '/panel/queues/board/api/queues/:queueName/concurrency', fields: ['concurrency'] },
  {
    method: 'PUT',
    path: '/panel/queues/board/api/queues/:queueName/rate-limit',
    fields: ['max', 'duration'],
  },
  { method: 'PUT', path: '/panel/queues/board/api/queues/:queueName/obliterate', fields: ['force'] },
  {
    method: 'PATCH',
    path: '/panel/queues/board/api/queues/:queueName/job-schedulers/:schedulerId',
    fields: ['pattern', 'every', 'tz'],
  },
  {
    method: 'PATCH',
    path: '/panel/queues/board/api/queues/:queueName/:jobId/update-data',
    fields: ['jobData'],
  },
  { method: 'PATCH', path: '/panel/queues/board/api/queues/:queueName/:jobId/delay', fields: ['runAt'] },
  {
    method: 'PATCH',
    path: '/panel/queues/board/api/queues/:queueName/:jobId/priority',
    fields: ['priority', 'lifo'],
  },
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const ascii = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

/** Path parameters: real ids and queue names, plausible ones, encoded junk, traversal and huge numbers. */
const param = fc.oneof(
  fc.constantFrom(
    'T1',
    'T1:cards',
    'T1:inbox',
    '0',
    '1',
    'T999999',
    'outbox',
    'failed',
    'completed',
    '..%2F..%2Fetc',
    '9'.repeat(40),
    '%00',
    'local-x',
  ),
  fc.stringMatching(/^[\w.-]{1,30}$/),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

/** A body: JSON of any shape, the route's own fields with values of any type, text or bytes. */
const bodyFor = (fields: string[] | undefined) =>
  fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .dictionary(fc.constantFrom(...(fields?.length ? fields : ['x'])), fc.jsonValue(), { maxKeys: 5 })
      .map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }),
    fc.constant(undefined),
  );

interface Credentials {
  cookie: string;
  csrf: string;
}

const headersFor = (creds: () => Credentials) =>
  fc
    .record({
      auth: fc.constantFrom(
        'none',
        'bearer',
        'wrong-bearer',
        'garbage',
        'cookie',
        'cookie+csrf',
        'forged-cookie',
      ),
      type: fc.constantFrom(
        undefined,
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/plain',
      ),
      origin: fc.constantFrom(undefined, 'null', 'https://evil.example', '::not a url::'),
      extra: ascii(40),
    })
    .map(({ auth, type, origin, extra }) => {
      const h: Record<string, string> = { 'x-switchyard-who': extra };
      const { cookie, csrf } = creds();
      if (auth === 'bearer') h.authorization = `Bearer ${TOKEN}`;
      if (auth === 'wrong-bearer') h.authorization = `Bearer ${TOKEN.slice(0, -1)}x`;
      if (auth === 'garbage') h.authorization = extra;
      if (auth.startsWith('cookie')) h.cookie = cookie;
      if (auth === 'cookie+csrf') h['x-switchyard-csrf'] = csrf;
      if (auth === 'forged-cookie') h.cookie = `sy_panel=v1.${extra.replace(/[^\w]/g, '')}.1.x`;
      if (type) h['content-type'] = type;
      if (origin) h.origin = origin;
      return h;
    });

/**
 * Issue 14 "input costs nothing": arbitrary methods, headers and bodies, signed in and not, on
 * every `/api` and `/panel` route: never a 5xx, and a refused request writes nothing.
 */
describe('every /api and /panel route under arbitrary requests', () => {
  let app: TestApp;
  let feishu: FakeFeishu;
  let creds: Credentials = { cookie: '', csrf: '' };
  const served: string[] = [];

  beforeEach(async () => {
    // The Feishu scan's registration endpoint answers on loopback, never on the internet.
    feishu = await startFakeFeishu();
    app = await startTestApp(
      {
        ADMIN_TOKEN: TOKEN,
        SIGN_IN_FAILURES_PER_IP: '100000',
        SIGN_IN_FAILURES_GLOBAL: '100000',
        FEISHU_DOMAIN: feishu.url,
      },
      { workers: false },
    );
    const { ctx } = app;
    const cardId = await send(ctx, localMessage('Please rename the config module'));
    await createTicket(ctx, (await loadCard(ctx, cardId))!, { why: 'explicit request' });
    const hono = createApp(ctx, apiRoutes(ctx, await createRuntime(ctx)));
    for (const r of hono.routes)
      if (r.method !== 'ALL' && /^\/(api|panel)(\/|$)/.test(r.path)) served.push(`${r.method} ${r.path}`);
    await signInAgain();
  });
  afterEach(async () => {
    await app.close();
    await feishu.close();
  });

  async function signInAgain() {
    const res = await fetch(`${app.url}/panel/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: TOKEN }),
      redirect: 'manual',
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const session = await fetch(`${app.url}/panel/api/session`, { headers: { cookie } });
    creds = { cookie, csrf: ((await session.json()) as { csrf: string }).csrf };
  }

  /** Every key under the test's prefix with its serialized value (sign-in counters aside). */
  async function snapshot(): Promise<Map<string, string>> {
    const { redis, keys } = app.ctx;
    // KEYS, not SCAN: one round trip on a shared test Redis that holds every other test's keys too.
    const names = (await redis.keys(`${keys.prefix}:*`)).filter((k) => !k.includes(':sign-in-failures:'));
    const tx = redis.pipeline();
    for (const k of names) tx.dumpBuffer(k);
    const rows = (await tx.exec()) ?? [];
    return new Map(names.map((k, i) => [k, (rows[i]?.[1] as Buffer | null)?.toString('hex') ?? '']));
  }

  it('covers every /api and /panel route the app serves', () => {
    const covered = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(served.filter((r) => !covered.has(r))).toEqual([]);
    expect(served.length).toBeGreaterThanOrEqual(ROUTES.length);
  });

  const GROUPS: [string, RegExp][] = [
    ['panel pages and session', /^\/panel(\/|\/assets\/\*|\/api\/session)?$/],
    ['panel sign-in and sign-out', /^\/panel\/sign-/],
    ['prompt settings and preview', /^\/(api\/prompts|panel\/api\/preview)/],
    ['policy', /^\/api\/policy/],
    ['tickets and cards', /^\/api\/(tickets|cards|needs-you)/],
    ['local chat and queues', /^\/api\/(local|queues)/],
    ['chat repositories and languages', /^\/api\/chat-(repos|languages)/],
    ['charts', /^\/api\/stats/],
    ['budgets (issue 33 item 5)', /^\/api\/budgets$/],
    ['home (issue 33)', /^\/api\/home$/],
    ['events inbox (issue 33 item 2)', /^\/api\/events$/],
    ['eval runs (issue 29)', /^\/api\/eval\//],
    ['GitHub App manifest flow', /^\/panel\/(api\/)?github-app/],
    ['Feishu app by scanning (issue 33 item 6)', /^\/panel\/api\/feishu-app/],
    ['queue board (bull-board)', /^\/panel\/queues\/board/],
  ];

  it('every route is in one property group', () => {
    for (const r of ROUTES)
      expect(
        GROUPS.filter(([, re]) => re.test(r.path)),
        r.path,
      ).toHaveLength(1);
  });

  for (const [group, re] of GROUPS) {
    const routes = ROUTES.filter((r) => re.test(r.path));
    it(`${group}: never a 5xx; refused requests write nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...routes)
            .chain((route) =>
              fc.tuple(
                fc.constant(route),
                fc.oneof({ weight: 4, arbitrary: fc.constant(route.method) }, fc.constantFrom(...METHODS)),
                bodyFor(route.fields),
              ),
            ),
          fc.array(param, { minLength: 3, maxLength: 3 }),
          headersFor(() => creds),
          ascii(30),
          async ([route, method, body], params, headers, query) => {
            let i = 0;
            const path = route.path.replace(/:\w+|\*/g, () => params[i++] ?? 'x');
            const before = await snapshot();
            const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
            const res = await fetch(`${app.url}${path}?q=${encodeURIComponent(query)}&chat=${params[2]}`, {
              method,
              headers,
              redirect: 'manual',
              ...(withBody ? { body } : {}),
            });
            await res.arrayBuffer();
            expect(res.status, `${method} ${path}`).toBeLessThan(500);
            const refused = res.status >= 400 || /signin=/.test(res.headers.get('location') ?? '');
            if (refused) expect(await snapshot(), `${method} ${path} answered ${res.status}`).toEqual(before);
            // A sign-out (or sign-out everywhere) ends the session the next runs use.
            if (route.path.startsWith('/panel/sign-out') && res.status < 400) await signInAgain();
          },
        ),
        { numRuns: 50 },
      );
    });
  }
});
