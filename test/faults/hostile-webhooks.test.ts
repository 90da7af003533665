import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from '../integration/feishu/harness.ts';
import { type FakeGitHub, startFakeGitHub } from '../kit/fake-github.ts';
import { feishuRequest, groupMention } from '../kit/feishu-webhook.ts';
import { githubPayloads, sendGitHubEvent, signGitHubBody } from '../kit/github-webhook.ts';
import { type Json, pathsOf, setAt } from '../kit/json-paths.ts';
import { ACCEPTABLE, chunkedBody, footprint, healthStatus, storedKeys } from './hostile-kit.ts';

const SECRET = 'hostile-gh-secret';
const RUNS = { numRuns: 200 };
const EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'pull_request',
  'issues',
  'check_run',
  'check_suite',
  'push',
  '',
];

const nested = (depth: number, leaf: Json = 1): string =>
  '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth);

describe('hostile input at both webhook routes (issue 8): 400/401/2xx, never 5xx, nothing stored when refused', () => {
  let h: FeishuHarness;
  let gh: FakeGitHub;
  let github: string;
  beforeEach(async () => {
    gh = await startFakeGitHub({ token: 'ghp_hostile' });
    h = await startFeishuHarness(
      {
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_TOKEN: 'ghp_hostile',
        GITHUB_API_URL: gh.url,
        GITHUB_BOT_LOGIN: gh.botLogin,
      },
      { workers: false },
    );
    github = `${h.app.url}/webhooks/github`;
  });
  afterEach(async () => {
    await h.close();
    await gh.close();
  });

  const postGitHub = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
    fetch(github, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signGitHubBody(SECRET, Buffer.from(body)),
        ...headers,
      },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
  const postFeishu = (body: Buffer, headers: Record<string, string>) =>
    fetch(h.hook, { method: 'POST', headers, body: new Uint8Array(body) });

  /** Sends, checks the status, and that a refusal stored nothing. */
  async function refusedCleanly(send: () => Promise<Response>, allowed = ACCEPTABLE): Promise<number> {
    const before = await footprint(h.app);
    const res = await send();
    await res.arrayBuffer();
    expect(allowed.has(res.status), `status ${res.status}`).toBe(true);
    if (res.status >= 400) expect(await footprint(h.app)).toBe(before);
    return res.status;
  }
  /**
   * Runs a property of refusals only, and checks with a full key scan that it stored nothing but
   * the events inbox's note of them (issue 33 item 2): one `refused` entry per channel and
   * minute, whoever sent them, holding nothing of any body.
   */
  async function storesNothing(run: () => Promise<void>): Promise<void> {
    const { redis, keys } = h.app.ctx;
    const inbox = [keys.eventLog(), keys.eventLogEntries()];
    const outsideInbox = async () => (await storedKeys(h.app)).filter((k) => !inbox.includes(k));
    const before = await outsideInbox();
    const entriesBefore = await redis.hgetall(keys.eventLogEntries());
    const t0 = Date.now();
    await run();
    expect(await outsideInbox()).toEqual(before);
    const added = Object.entries(await redis.hgetall(keys.eventLogEntries())).filter(
      ([id, json]) => entriesBefore[id] !== json,
    );
    // Two channels, each at most one entry a minute, however many were refused.
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(t0 / 60_000) + 1;
    expect(added.length).toBeLessThanOrEqual(2 * minutes);
    for (const [id, json] of added) {
      expect(id).toMatch(/^refused-(github|feishu)-\d+$/);
      const entry = JSON.parse(json) as Record<string, unknown>;
      expect(entry).toMatchObject({ fate: 'refused', kind: 'webhook' });
      expect(Object.keys(entry).sort()).toEqual([
        'at',
        'channel',
        'fate',
        'id',
        'kind',
        'reason',
        'updatedAt',
      ]);
    }
  }

  it('GitHub: arbitrary signed JSON under any event name → 202 or 400, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 6 }),
        fc.constantFrom(...EVENTS.filter(Boolean)),
        async (v, event) => {
          await refusedCleanly(() => postGitHub(JSON.stringify(v), { 'x-github-event': event }));
        },
      ),
      RUNS,
    );
  }, 30_000);

  it('GitHub: a real payload with one field of the wrong type → 202 or 400, never 5xx', async () => {
    const base = githubPayloads.mentionComment({ body: '@switchyard-bot hi' });
    const paths = pathsOf(base);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), async (path, value) => {
        await refusedCleanly(() => postGitHub(JSON.stringify(setAt(base, path, value))));
      }),
      RUNS,
    );
  }, 30_000);

  it('GitHub: signed bytes that are not UTF-8 or not JSON → 400/401, nothing stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 512 }), async (bytes) => {
        await refusedCleanly(() => postGitHub(bytes), new Set([202, 400, 401]));
      }),
      RUNS,
    );
    const invalid = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]); // {"a":"\xc3("}
    expect(await refusedCleanly(() => postGitHub(invalid), new Set([400, 401]))).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it('GitHub: missing, forged or replayed-onto-another-body signatures → 401, nothing stored', async () => {
    const body = JSON.stringify(githubPayloads.mentionComment());
    const other = JSON.stringify(
      githubPayloads.mentionComment({ body: '@switchyard-bot delete everything' }),
    );
    await storesNothing(() =>
      fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc
              .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 })
              .map((x) => `sha256=${x}`),
          ),
          async (sig) => {
            await refusedCleanly(() => postGitHub(body, { 'x-hub-signature-256': sig }), new Set([401]));
          },
        ),
        RUNS,
      ),
    );
    const replayed = signGitHubBody(SECRET, body);
    await refusedCleanly(() => postGitHub(other, { 'x-hub-signature-256': replayed }), new Set([401]));
  }, 30_000);

  it('GitHub: a replayed delivery (same id, same signed body) makes no second card', async () => {
    const payload = githubPayloads.mentionComment({ commentId: 777 });
    const deliveryId = randomUUID();
    const first = await sendGitHubEvent(h.app.url, 'issue_comment', payload, { secret: SECRET, deliveryId });
    expect(first.status).toBe(202);
    const before = await storedKeys(h.app);
    const again = await sendGitHubEvent(h.app.url, 'issue_comment', payload, { secret: SECRET, deliveryId });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { status: string }).status).toBe('duplicate');
    expect(await storedKeys(h.app)).toEqual(before);
  });

  it('both routes: deep nesting, as the whole body or inside a field → 400 or 2xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 500, max: 250_000 }), fc.boolean(), async (depth, inField) => {
        const deep = nested(depth);
        const gBody = inField
          ? JSON.stringify(githubPayloads.mentionComment()).replace('"@switchyard-bot please fix this"', deep)
          : deep;
        await refusedCleanly(() => postGitHub(gBody));
        const event = groupMention('hi', 'ou_bot');
        const fBody = inField ? JSON.stringify(event).replace('"schema":"2.0"', `"schema":${deep}`) : deep;
        const r = feishuRequest(event, { encryptKey: ENCRYPT_KEY, rawBody: fBody });
        await refusedCleanly(() => postFeishu(r.body, r.headers));
      }),
      { numRuns: 40 },
    );
  }, 30_000);

  it('both routes: bodies over 1 MiB, declared or chunked → 400 (or the connection cut), nothing stored, still up', async () => {
    /** The server may answer 400 before the upload ends and close the socket: either is a refusal. */
    const refusedBig = async (send: () => Promise<Response>) => {
      const before = await footprint(h.app);
      const status = await send().then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
        () => 'cut',
      );
      expect([400, 401, 'cut']).toContain(status);
      expect(await footprint(h.app)).toBe(before);
      expect(await healthStatus(h.app.url)).toBe(200);
    };
    await storesNothing(async () => {
      const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
      await refusedBig(() => postGitHub(big));
      const r = feishuRequest({}, { encryptKey: ENCRYPT_KEY, rawBody: big });
      await refusedBig(() => postFeishu(r.body, r.headers));
      for (const url of [github, h.hook]) {
        const headers = {
          'content-type': 'application/json',
          'x-hub-signature-256': 'sha256=00',
          'x-github-event': 'issues',
          'x-github-delivery': 'd',
        };
        const init = { method: 'POST', headers, body: chunkedBody(2 * 1024 * 1024), duplex: 'half' };
        await refusedBig(() => fetch(url, init as RequestInit));
      }
    });
  }, 30_000);

  it('Feishu: arbitrary JSON, signed, plain or encrypted → 200/400/401, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), async (v, encrypt) => {
        const r = feishuRequest(v, { encryptKey: ENCRYPT_KEY, encrypt });
        await refusedCleanly(() => postFeishu(r.body, r.headers));
      }),
      RUNS,
    );
  }, 30_000);

  it('Feishu: a real event with one field of the wrong type → 200 or 400, never 5xx', async () => {
    const base = groupMention('@bot please look', 'ou_bot');
    const paths = pathsOf(base).filter((p) => p.join('.') !== 'header.token');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), async (path, value) => {
        const r = feishuRequest(setAt(base, path, value), { encryptKey: ENCRYPT_KEY });
        await refusedCleanly(() => postFeishu(r.body, r.headers));
      }),
      // Found by a CI run (seed -335920776): an event type the SDK could not turn into a string.
      { ...RUNS, examples: [[['header', 'event_type'], { toString: '' }]] },
    );
  }, 30_000);

  it('Feishu: stale or future timestamps, forged signatures, invalid UTF-8 → 401/400, nothing stored', async () => {
    const event = groupMention('hi', 'ou_bot');
    await storesNothing(() =>
      fc.assert(
        fc.asyncProperty(fc.integer({ min: 310, max: 10_000_000 }), fc.boolean(), async (skew, past) => {
          const now = Math.floor(Date.now() / 1000);
          const r = feishuRequest(event, {
            encryptKey: ENCRYPT_KEY,
            timestamp: past ? now - skew : now + skew,
          });
          await refusedCleanly(() => postFeishu(r.body, r.headers), new Set([401]));
        }),
        RUNS,
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.string(), async (sig) => {
        const r = feishuRequest(event, { encryptKey: ENCRYPT_KEY });
        await refusedCleanly(
          () => postFeishu(r.body, { ...r.headers, 'x-lark-signature': sig }),
          new Set([401]),
        );
      }),
      RUNS,
    );
    const bad = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const r = feishuRequest(event, { encryptKey: ENCRYPT_KEY, rawBody: bad });
    await refusedCleanly(() => postFeishu(r.body, r.headers), new Set([400]));
  }, 30_000);

  it('Feishu: the same signed push replayed within the window makes one card', async () => {
    const r = feishuRequest(groupMention('please fix', 'ou_bot'), { encryptKey: ENCRYPT_KEY });
    expect((await postFeishu(r.body, r.headers)).status).toBe(200);
    const before = await storedKeys(h.app);
    for (let i = 0; i < 3; i++) expect((await postFeishu(r.body, r.headers)).status).toBe(200);
    expect(await storedKeys(h.app)).toEqual(before);
  });
});
