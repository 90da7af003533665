import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxJobId } from '../../src/outbox/enqueue.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../kit/fake-github.ts';
import { githubPayloads, sendGitHubEvent } from '../kit/github-webhook.ts';
import { type OwnRedis, startOwnRedis } from './own-redis.ts';

const SECRET = 'restart-secret';
const BURST = 400;
const CONCURRENCY = 16;

interface Delivery {
  id: string;
  commentId: number;
  /** Every status the sender got, in order (0: no answer within the client's time-out). */
  answers: number[];
  /** The card id of the first 2xx answer. */
  card?: string;
}

/**
 * Issue 8: Redis (AOF on, `appendfsync always`) is shut down and started again in the middle of a
 * burst of signed GitHub webhooks. The sender behaves like a retrying client: anything but a 2xx
 * (a 5xx, or no answer within 10 s) is sent again with the same delivery id. No acknowledged
 * webhook may lose its card, and no delivery may make two.
 */
describe('Redis restarts during a burst of webhooks', () => {
  let redis: OwnRedis;
  let github: FakeGitHub;
  let app: TestApp;

  // Its own Redis, product and key prefix per test (issue 20).
  beforeEach(async () => {
    redis = await startOwnRedis();
    github = await startFakeGitHub();
    app = await startTestApp({
      REDIS_URL: redis.url,
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_TOKEN: 'gh-token',
      GITHUB_BOT_LOGIN: github.botLogin,
      GITHUB_API_URL: github.url,
      // A routing job in flight when Redis went away is picked up again by the stalled-job check
      // (one lock's time later): short here, so recovery fits the wait below on a loaded machine.
      JOB_LOCK_MS: '5000',
      // One author's burst in one repository: past the ingest rate limits (issue 31) by design.
      INGEST_RATE_PER_AUTHOR: '0',
      INGEST_RATE_PER_REPO: '0',
      // GitHub's writes spaced as in production (the kit turns it off): reactions trickle out, so
      // the check below sees them still going out after the restart.
      GITHUB_WRITE_SPACING_MS: '1000',
    });
  });
  afterEach(async () => {
    await app?.close();
    await github?.close();
    await redis?.destroy();
  });

  it('issue 8: every webhook answered 2xx has its card (and its seen reaction) after the restart; none twice', async () => {
    const deliveries: Delivery[] = Array.from({ length: BURST }, (_, i) => ({
      id: randomUUID(),
      commentId: 50_000 + i,
      answers: [],
    }));
    const send = async (d: Delivery): Promise<void> => {
      const payload = githubPayloads.mentionComment({
        number: 1 + (d.commentId % 20),
        commentId: d.commentId,
      });
      for (let attempt = 0; attempt < 12; attempt++) {
        const res = await sendGitHubEvent(app.url, 'issue_comment', payload, {
          secret: SECRET,
          deliveryId: d.id,
          headers: {},
        }).catch(() => undefined);
        const status = res?.status ?? 0;
        d.answers.push(status);
        if (res && status >= 200 && status < 300) {
          d.card ??= ((await res.json()) as { card: string }).card;
          return;
        }
        await res?.arrayBuffer().catch(() => {});
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    let answered = 0;
    let inFlight = 0;
    let inFlightAtShutdown = 0;
    let next = 0;
    let restarted: Promise<void> | undefined;
    const restartAt = Math.floor(BURST / 3);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < BURST; i = next++) {
          inFlight += 1;
          await send(deliveries[i] as Delivery);
          inFlight -= 1;
          answered += 1;
          if (answered === restartAt) {
            // Mid-burst: SHUTDOWN, a moment with no Redis at all, then the same dir again.
            restarted = (async () => {
              inFlightAtShutdown = inFlight;
              await redis.shutdown();
              await new Promise((r) => setTimeout(r, 1500));
              await redis.start();
            })();
          }
        }
      }),
    );
    await restarted;

    // The restart really happened while requests were in flight.
    expect(restarted).toBeDefined();
    const acknowledged = deliveries.filter((d) => d.card);
    expect(acknowledged).toHaveLength(BURST);

    const { redis: r, keys } = app.ctx;
    expect(inFlightAtShutdown).toBeGreaterThan(0);
    // Every acknowledged delivery's card is stored, listed, and its delivery claimed.
    const missing: string[] = [];
    for (const d of acknowledged) {
      const card = d.card as string;
      const [stored, listed] = await Promise.all([
        r.exists(keys.card(card)),
        r.zscore(keys.cardsByTime(), card),
      ]);
      if (!stored || listed === null) missing.push(card);
    }
    expect(missing).toEqual([]);
    // One card per delivery: no two deliveries share one, and nothing else was stored.
    expect(new Set(acknowledged.map((d) => d.card)).size).toBe(BURST);
    expect(await r.zcard(keys.cardsByTime())).toBe(BURST);

    // The workers reconnected too: every card's routing job ran after the restart, and its "seen"
    // reaction is queued in the outbox (GitHub writes go out about one a second, as GitHub asks,
    // so they are not all sent yet) while the outbox keeps writing to GitHub, no reaction twice.
    await waitFor(
      async () => ((await app.ctx.queues.route.getJobCounts('completed')).completed ?? 0) >= BURST,
      'every routing job to complete',
      30_000,
    ).catch(async (err: Error) => {
      const counts = await app.ctx.queues.route.getJobCounts();
      throw new Error(`${err.message}; routing jobs: ${JSON.stringify(counts)}`);
    });
    const routed = await Promise.all(
      acknowledged.map((d) => app.ctx.queues.route.getJobState(d.card as string)),
    );
    expect(routed.filter((s) => s !== 'completed')).toEqual([]);
    const seen = await Promise.all(
      acknowledged.map((d) => app.ctx.queues.outbox.getJobState(outboxJobId(`seen:${d.card}`))),
    );
    expect(seen.filter((s) => s === 'unknown' || s === 'failed')).toEqual([]);
    // GitHub's writes keep going out after the restart. Each of the 20 tickets' status comments
    // goes first (a ticket's own message before the background 👀, issue 45), three seconds apart
    // as GitHub asks of notifying writes: on a loaded machine the reactions can sit behind all of
    // them for a minute, so any write counts here; on failure, say where the outbox's jobs are.
    const writes = () => github.calls.filter((c) => c.method === 'POST' && c.status < 300).length;
    const before = writes();
    await waitFor(() => writes() >= before + 3, 'GitHub writes to keep going out', 30_000).catch(
      async (err: Error) => {
        const counts = await app.ctx.queues.outbox.getJobCounts();
        throw new Error(
          `${err.message}; ${writes() - before} more of ${writes()} written; outbox jobs: ${JSON.stringify(counts)}`,
        );
      },
    );
    const posts = github.callsTo('POST', /\/issues\/comments\/\d+\/reactions$/);
    const perComment = new Map<string, number>();
    for (const c of posts.filter((c) => c.status < 300))
      perComment.set(c.path, (perComment.get(c.path) ?? 0) + 1);
    expect([...perComment.values()].filter((n) => n > 1)).toEqual([]);
  }, 120_000);
});
