import { afterEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { attachCard } from '../../../src/tickets/attach.ts';
import { createTicket } from '../../../src/tickets/ticket-store.ts';
import { metricsText, startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';

const SECRET = 'gh-growth-secret';
const DAY_S = 24 * 3600;

/** Issue 31 "growth is bounded by design": what one author, one repository or one comment can make Redis hold. */
describe('issue 31: ingest growth is bounded', () => {
  let gh: FakeGitHub | undefined;
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    await gh?.close();
    app = gh = undefined;
  });

  /** A GitHub app without workers: what a webhook stores is all there is to measure. */
  async function start(env: Record<string, string> = {}): Promise<TestApp> {
    gh = await startFakeGitHub({ botLogin: 'switchyard-bot', token: 'ghp_test' });
    app = await startTestApp(
      {
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_TOKEN: 'ghp_test',
        GITHUB_API_URL: gh.url,
        GITHUB_BOT_LOGIN: 'switchyard-bot',
        ...env,
      },
      { workers: false },
    );
    return app;
  }

  const send = (a: TestApp, event: string, payload: unknown) =>
    sendGitHubEvent(a.url, event, payload, { secret: SECRET });

  /** The bytes Redis holds for this app's keys (`MEMORY USAGE`, exact for strings): the shared Redis's other tenants don't count. */
  async function storedBytes(a: TestApp): Promise<number> {
    const { redis, keys } = a.ctx;
    let total = 0;
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${keys.prefix}:*`, 'COUNT', 5000);
      cursor = next;
      for (const key of found)
        total += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
    } while (cursor !== '0');
    return total;
  }

  /** A 60 kB comment body that mentions nobody, different per edit. */
  const bigBody = (edit: number) =>
    Array.from({ length: 1000 }, (_, i) => `edit ${edit}, line ${i}: the build log says nothing new here.`)
      .join('\n')
      .slice(0, 60_000);

  // Recent times: an object older than the dedupe window is a replay by itself (issue 31).
  const since = Date.now() - 3_600_000;
  const edited = (commentId: number, edit: number) => {
    const at = new Date(since + edit * 1000).toISOString();
    const p = P.mentionComment({ commentId, body: bigBody(edit), updatedAt: at });
    return { ...p, action: edit === 0 ? 'created' : 'edited' };
  };

  it('200 edits of one 60 kB comment keep one full text: Redis grows by far less than 200 × 60 kB', async () => {
    const a = await start({ INGEST_RATE_PER_AUTHOR: '0', INGEST_RATE_PER_REPO: '0' });
    const first = await send(a, 'issue_comment', edited(9_001, 0));
    expect(await first.json()).toMatchObject({ status: 'new' });
    const before = await storedBytes(a);
    const cards: string[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(a, 'issue_comment', edited(9_001, 1 + round * 20 + i))),
      );
      for (const res of answers) {
        expect(res.status).toBe(202);
        const body = (await res.json()) as { status: string; card: string };
        expect(body.status).toBe('new');
        cards.push(body.card);
      }
    }
    const grew = (await storedBytes(a)) - before;
    // Every edit's whole text kept would be 200 × 60 kB = 12 MB; each card's own record (its text
    // cut to 4,000 characters) is what remains.
    expect(grew).toBeLessThan(2_000_000);
    const fullTexts = await Promise.all(cards.map((id) => a.ctx.redis.exists(a.ctx.keys.cardFull(id))));
    expect(fullTexts.filter((n) => n === 1)).toHaveLength(1);
    // The one kept is the newest edit's (the last answered of the last round went last in its script).
    const newest = fullTexts.indexOf(1);
    expect(await a.ctx.redis.get(a.ctx.keys.cardFull(cards[newest] as string))).toContain('edit ');
    expect(await a.ctx.redis.strlen(a.ctx.keys.cardFull(cards[newest] as string))).toBeGreaterThan(50_000);
  });

  it('a card that mentions nobody keeps its text UNATTACHED_CARD_TTL_HOURS; attaching it (in the same script) gives it RETENTION_DAYS', async () => {
    const a = await start({ UNATTACHED_CARD_TTL_HOURS: '24', RETENTION_DAYS: '30' });
    const quiet = await send(
      a,
      'issue_comment',
      P.mentionComment({ commentId: 9_100, body: `just a note\n${bigBody(1)}` }),
    );
    const asked = await send(a, 'issue_comment', P.mentionComment({ commentId: 9_101 }));
    const quietId = ((await quiet.json()) as { card: string }).card;
    const askedId = ((await asked.json()) as { card: string }).card;
    const { redis, keys } = a.ctx;
    for (const key of [keys.card(quietId), keys.cardFull(quietId)]) {
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(DAY_S - 60);
      expect(ttl).toBeLessThanOrEqual(DAY_S);
    }
    expect(await redis.ttl(keys.card(askedId))).toBeGreaterThan(30 * DAY_S - 60);

    const askedCard = await loadCard(a.ctx, askedId);
    const quietCard = await loadCard(a.ctx, quietId);
    if (!askedCard || !quietCard) throw new Error('cards not stored');
    const ticket = await createTicket(a.ctx, askedCard, { why: 'asked' });
    expect(await attachCard(a.ctx, ticket.id, quietCard, 'same issue')).toBe(true);
    for (const key of [keys.card(quietId), keys.cardFull(quietId)])
      expect(await redis.ttl(key)).toBeGreaterThan(30 * DAY_S - 60);
  });

  it('a card that mentions nobody and opens a ticket (code or a rule opened it) lives RETENTION_DAYS from then', async () => {
    const a = await start({ UNATTACHED_CARD_TTL_HOURS: '2', RETENTION_DAYS: '7' });
    const res = await send(
      a,
      'issue_comment',
      P.mentionComment({ commentId: 9_200, body: 'the tests are red again' }),
    );
    const id = ((await res.json()) as { card: string }).card;
    expect(await a.ctx.redis.ttl(a.ctx.keys.card(id))).toBeLessThanOrEqual(2 * 3600);
    const card = await loadCard(a.ctx, id);
    if (!card) throw new Error('card not stored');
    await createTicket(a.ctx, card, { why: 'a rule matched' });
    expect(await a.ctx.redis.ttl(a.ctx.keys.card(id))).toBeGreaterThan(7 * DAY_S - 60);
  });

  it('past INGEST_RATE_PER_AUTHOR in a minute an author’s webhooks are answered 202 rate_limited and store nothing; others go on', async () => {
    const a = await start({ INGEST_RATE_PER_AUTHOR: '3', INGEST_RATE_PER_REPO: '100' });
    const bodies: { status: string; card?: string; limit?: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send(
        a,
        'issue_comment',
        P.mentionComment({ commentId: 9_300 + i, author: 'mallory' }),
      );
      expect(res.status).toBe(202);
      bodies.push((await res.json()) as { status: string });
    }
    expect(bodies.map((b) => b.status)).toEqual(['new', 'new', 'new', 'rate_limited', 'rate_limited']);
    expect(bodies[3]).toMatchObject({ ok: true, status: 'rate_limited', limit: 'author' });
    expect(await a.ctx.redis.zcard(a.ctx.keys.cardsByTime())).toBe(3);
    expect(await a.ctx.redis.zcard(a.ctx.keys.cardsIntake())).toBe(3);
    // Another author in the same repository is not held back by mallory.
    const other = await send(a, 'issue_comment', P.mentionComment({ commentId: 9_310, author: 'ada' }));
    expect(await other.json()).toMatchObject({ status: 'new' });
    const metrics = await metricsText(a.url);
    expect(metrics).toMatch(/switchyard_ingest_rate_limited_total\{source="github",scope="author"\} 2/);
  });

  it('a rate-limited delivery is not claimed: once the minute has passed the same delivery is taken', async () => {
    const a = await start({ INGEST_RATE_PER_AUTHOR: '1' });
    const payload = (id: number) => P.mentionComment({ commentId: id, author: 'eve' });
    const ok = await sendGitHubEvent(a.url, 'issue_comment', payload(9_400), { secret: SECRET });
    expect(await ok.json()).toMatchObject({ status: 'new' });
    const held = await sendGitHubEvent(a.url, 'issue_comment', payload(9_401), {
      secret: SECRET,
      deliveryId: 'held-1',
    });
    expect(await held.json()).toMatchObject({ status: 'rate_limited' });
    expect(await a.ctx.redis.exists(a.ctx.keys.seen('github', 'held-1'))).toBe(0);
    // The minute's counter gone (as its TTL would take it), GitHub's manual redelivery is new.
    await a.ctx.redis.del(a.ctx.keys.ingestRate('github:author:eve'));
    const again = await sendGitHubEvent(a.url, 'issue_comment', payload(9_401), {
      secret: SECRET,
      deliveryId: 'held-1',
    });
    expect(await again.json()).toMatchObject({ status: 'new' });
  });

  it('past INGEST_RATE_PER_REPO in a minute a repository’s webhooks are rate_limited, whoever sends them; another repository goes on', async () => {
    const a = await start({ INGEST_RATE_PER_AUTHOR: '100', INGEST_RATE_PER_REPO: '4' });
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await send(
        a,
        'issue_comment',
        P.mentionComment({ commentId: 9_500 + i, author: `person${i}` }),
      );
      statuses.push(((await res.json()) as { status: string }).status);
    }
    expect(statuses).toEqual(['new', 'new', 'new', 'new', 'rate_limited', 'rate_limited']);
    const limited = await send(a, 'issue_comment', P.mentionComment({ commentId: 9_520, author: 'person9' }));
    expect(await limited.json()).toMatchObject({ status: 'rate_limited', limit: 'place' });
    const elsewhere = await send(
      a,
      'issue_comment',
      P.mentionComment({ repo: 'acme/other', commentId: 9_530, author: 'person9' }),
    );
    expect(await elsewhere.json()).toMatchObject({ status: 'new' });
    expect(await metricsText(a.url)).toMatch(
      /switchyard_ingest_rate_limited_total\{source="github",scope="place"\} 3/,
    );
  });
});
