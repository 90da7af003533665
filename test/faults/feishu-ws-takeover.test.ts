import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../src/cards/ingest.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../kit/fake-feishu.ts';
import { groupMention } from '../kit/feishu-webhook.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const LEASE_MS = 4000;

describe('issue 16: one Feishu long connection per deployment, taken over when its holder dies', () => {
  let feishu: FakeFeishu;
  let reader: TestApp;
  const procs: BotProcess[] = [];
  const prefix = ownPrefix();
  const env = () => ({
    ROLE: 'web',
    PORT: '0',
    LOG_LEVEL: 'info',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    FEISHU_APP_ID: feishu.appId,
    FEISHU_APP_SECRET: feishu.appSecret,
    FEISHU_DOMAIN: feishu.url,
    FEISHU_WS_LEASE_MS: String(LEASE_MS),
  });
  const lc = () => feishu.longConnection;
  /** The process whose pid the lease names. */
  const holder = async () => {
    const value = await reader.ctx.redis.get(reader.ctx.keys.feishuWsLease());
    return procs.find((p) => value?.split(':')[1] === String(p.child.pid));
  };
  const cardCount = async (eventId: string) => {
    const ids = await reader.ctx.redis.zrange(reader.ctx.keys.cardsByTime(), 0, -1);
    const cards = await Promise.all(ids.map((id) => loadCard(reader.ctx, id)));
    return cards.filter((c) => c?.eventId === eventId).length;
  };

  beforeAll(async () => {
    feishu = await startFakeFeishu();
    // Reads what the processes stored (same prefix); it opens no connection of its own.
    reader = await startTestApp({ KEY_PREFIX: prefix }, { workers: false });
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await reader.close();
    await feishu.close();
  });

  it('issue 16: a second web process opens no second connection; SIGKILL of the holder → the other takes over within the lease, never two at once', async () => {
    procs.push(startBotProcess(env()));
    await waitFor(() => lc().openCount() === 1, 'the first connection', 60_000);
    procs.push(startBotProcess(env()));
    await waitFor(() => procs[1]?.output().includes('listening on'), 'the second web process', 60_000);
    // Several lease periods with both processes up: still one connection, one endpoint call.
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS));
    expect(lc().connections).toHaveLength(1);
    expect(lc().maxOpen()).toBe(1);
    expect(feishu.callsTo(/^\/callback\/ws\/endpoint$/)).toHaveLength(1);

    const before = groupMention('before the crash', feishu.bot.openId);
    expect((await lc().deliver(before))?.code).toBe(200);
    expect(await cardCount(before.header.event_id)).toBe(1);

    const first = await holder();
    expect(first).toBeDefined();
    first?.kill9();
    const killedAt = Date.now();
    await waitFor(
      () => lc().openCount() === 1 && lc().connections.length === 2,
      'the take-over',
      30_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}: connections ${JSON.stringify(lc().connections)}, endpoint calls ${feishu.callsTo(/^\/callback/).length}\n${procs.map((p) => p.output().slice(-3000)).join('\n---\n')}`,
      );
    });
    const tookOver = (lc().connections[1]?.openedAt ?? 0) - killedAt;
    // The lease lapses at most LEASE_MS after the kill, a taker looks every LEASE_MS/4, then connects.
    expect(tookOver).toBeLessThan(LEASE_MS + LEASE_MS / 4 + 3000);
    expect(lc().maxOpen()).toBe(1);
    const second = await holder();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const after = groupMention('after the crash', feishu.bot.openId);
    expect((await lc().deliver(after))?.code).toBe(200);
    expect(await cardCount(after.header.event_id)).toBe(1);

    // A clean shutdown gives the lease up at once.
    expect(await second?.stop()).toBe(0);
    expect(await reader.ctx.redis.exists(reader.ctx.keys.feishuWsLease())).toBe(0);
    await waitFor(() => lc().openCount() === 0, 'the connection closed on shutdown');
  }, 120_000);
});
