import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../../src/channels/github/client.ts';
import { withTurnLock } from '../../../src/executor/turn-lock.ts';
import { pushBranch } from '../../../src/executor/workspace/push-branch.ts';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { newTurnState } from '../../../src/session/turn-state.ts';
import { createFence, type Fence, withFence } from '../../../src/store/fence.ts';
import { FencedError } from '../../../src/store/fenced-error.ts';
import { releaseLease, renewLease, takeFencedLease } from '../../../src/store/lease.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';

/** Issue 46: a runner that lost its turn to a newer one queues, records and renews nothing more. */
describe('fencing a turn (issue 46)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ JOB_LOCK_MS: '1000' }, { workers: false });
  });
  afterAll(() => app.close());

  const reply = (text: string) => ({
    op: 'local.reply' as const,
    chatId: 'c-fence',
    messageId: 'm1',
    text,
  });
  /** A fence on a ticket whose epoch has moved on from `token` to `token + 1`. */
  async function staleFence(ticket: string): Promise<Fence> {
    const { ctx } = app;
    const key = ctx.keys.turnEpoch(ticket);
    await ctx.redis.set(key, '2');
    return createFence(ctx, key, '1');
  }
  const turn = newTurnState('turn-1', 1);

  it('an effect queued under a stale token is refused and nothing is queued; under the current one it is', async () => {
    const { ctx } = app;
    const stale = await staleFence('T-enq');
    const queue = (key: string, text: string) =>
      enqueueEffect(ctx, { key, effect: reply(text), ticketId: 'T-enq' });
    await expect(withFence(stale, () => queue('fenced:stale', 'from the old owner'))).rejects.toThrow(
      FencedError,
    );
    expect(await ctx.queues.outbox.getJob(outboxJobId('fenced:stale'))).toBeUndefined();
    expect(stale.signal.aborted).toBe(true);

    const current = createFence(ctx, ctx.keys.turnEpoch('T-enq'), '2');
    await withFence(current, () => queue('fenced:current', 'from the owner'));
    const job = await ctx.queues.outbox.getJob(outboxJobId('fenced:current'));
    expect(job?.data).toMatchObject({ key: 'fenced:current', ticketId: 'T-enq' });
    // The same key again is the same job, as outside a fence.
    await withFence(current, () => queue('fenced:current', 'from the owner'));
    const same = (await ctx.queues.outbox.getJobs(['waiting', 'active', 'completed'])).filter(
      (j) => j.data.key === 'fenced:current',
    );
    expect(same).toHaveLength(1);
    // Added by BullMQ's own add script, options and all.
    expect(same[0]).toMatchObject({ name: 'local.reply', opts: { attempts: 8 } });
  });

  it("a stale token's transcript append and tool result are refused; the transcript stays as it was", async () => {
    const { ctx } = app;
    const stale = await staleFence('T-tr');
    const current = createFence(ctx, ctx.keys.turnEpoch('T-tr'), '2');
    // The store takes the fence of the turn it is made in, as every other effect of the turn does.
    const store = () => createTranscriptStore({ redis: ctx.redis, keys: ctx.keys });
    const user: ChatMessage = { role: 'user', content: 'hello' };
    await withFence(current, () => store().appendStep('s-fence', [user], turn));

    const answer: ChatMessage = { role: 'assistant', content: 'late answer' };
    await expect(withFence(stale, () => store().appendStep('s-fence', [answer], turn))).rejects.toThrow(
      FencedError,
    );
    const tool: ChatMessage = { role: 'tool', tool_call_id: 'c1', content: 'late result' };
    const result = { ok: true, content: 'late result' } as const;
    await expect(
      withFence(stale, () => store().recordToolResult('s-fence', '0:c1', result, tool)),
    ).rejects.toThrow(FencedError);

    const t = await store().load('s-fence');
    expect(t.messages).toEqual([user]);
    expect(t.step).toBe(1);
    expect(t.results.size).toBe(0);
  });

  it('a take-over while the write is being built refuses it: the compare goes with the write, not before', async () => {
    const { ctx } = app;
    const key = ctx.keys.turnEpoch('T-race');
    await ctx.redis.set(key, '1');
    const fence = createFence(ctx, key, '1');
    const list = ctx.keys.transcript('s-race');
    const write = fence.exec(async (m) => {
      // Another worker takes the turn over after this one began its write, before it went out.
      await ctx.redis.incr(key);
      m.rpush(list, 'late');
    });
    await expect(write).rejects.toThrow(FencedError);
    expect(await ctx.redis.llen(list)).toBe(0);
  });

  it("a GitHub write under a stale token never leaves the process; a read and the current owner's write do", async () => {
    const seen: string[] = [];
    const gh = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 1 }));
    });
    await new Promise<void>((r) => gh.listen(0, '127.0.0.1', r));
    try {
      const client = createGitHubClient({
        baseUrl: `http://127.0.0.1:${(gh.address() as AddressInfo).port}`,
        auth: 'test-token',
        writeSpacingMs: 0,
      });
      const comment = () =>
        client.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 7, body: 'late' });
      const stale = await staleFence('T-gh');
      await expect(withFence(stale, comment)).rejects.toThrow(FencedError);
      await withFence(stale, () => client.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 7 }));
      const current = createFence(app.ctx, app.ctx.keys.turnEpoch('T-gh'), '2');
      await withFence(current, comment);
      expect(seen).toEqual(['GET /repos/o/r/issues/7', 'POST /repos/o/r/issues/7/comments']);
    } finally {
      await new Promise((r) => gh.close(r));
    }
  });

  it('a push under a stale token is refused before anything is imported or pushed', async () => {
    const stale = await staleFence('T-push');
    const ws = {
      repo: 'o/r',
      cloneUrl: 'http://127.0.0.1:9/o/r.git',
      dir: '/nonexistent/checkout',
      home: '/nonexistent/home',
      branch: 'switchyard/T-push',
      base: 'main',
    };
    const mayChangeCi = async () => true;
    const push = withFence(stale, () => pushBranch(app.ctx, ws, 'T-push', 'a'.repeat(40), mayChangeCi));
    await expect(push).rejects.toThrow(FencedError);
  });

  it('the same turn taken over gets a greater token; the old holder can neither renew nor release it', async () => {
    const { ctx } = app;
    const lock = ctx.keys.turnLock('T-lease');
    const epoch = ctx.keys.turnEpoch('T-lease');
    const first = await takeFencedLease(ctx.redis, lock, epoch, 'turn-a', 60_000);
    expect(await takeFencedLease(ctx.redis, lock, epoch, 'turn-b', 60_000)).toBeNull();
    const second = await takeFencedLease(ctx.redis, lock, epoch, 'turn-a', 60_000);
    expect(Number(second?.token)).toBeGreaterThan(Number(first?.token));
    expect(await renewLease(ctx.redis, lock, first?.holder ?? '', 60_000)).toBe(false);
    await releaseLease(ctx.redis, lock, first?.holder ?? '');
    expect(await ctx.redis.get(lock)).toBe(second?.holder);
  });

  it('a runner whose lock lapsed with nobody newer stops, but its failure stands (the job retries)', async () => {
    const { ctx } = app;
    const run = withTurnLock(ctx, 'T-lapse', 'turn-y', async (fence) => {
      // The lock lapses (no renewal reached Redis in time, say) and nobody takes the turn.
      await ctx.redis.del(ctx.keys.turnLock('T-lapse'));
      await waitFor(() => fence.signal.aborted, 'the renewal to find the lock gone', 3_000);
      throw new Error('the model request was aborted');
    });
    await expect(run).rejects.toThrow('the model request was aborted');
  });

  it('a runner whose turn was taken over stops at its next renewal and queues nothing after', async () => {
    const { ctx } = app;
    let resume = () => {};
    const held = new Promise<void>((r) => {
      resume = r;
    });
    let signal: AbortSignal | undefined;
    const old = withTurnLock(ctx, 'T-run', 'turn-x', async (fence) => {
      signal = fence.signal;
      await held;
      return withFence(fence, () =>
        enqueueEffect(ctx, { key: 'run:old', effect: reply('old owner'), ticketId: 'T-run' }),
      );
    });
    await waitFor(() => signal !== undefined, 'the first runner to hold the turn');
    // BullMQ handed the same turn to another worker: it takes the lock over.
    const newer = await withTurnLock(ctx, 'T-run', 'turn-x', async (fence) =>
      withFence(fence, () =>
        enqueueEffect(ctx, { key: 'run:new', effect: reply('new owner'), ticketId: 'T-run' }),
      ),
    );
    expect(newer).toBeUndefined();
    // Renewed every JOB_LOCK_MS / 2: the old runner learns it lost without writing anything.
    await waitFor(() => signal?.aborted === true, 'the old runner to see it lost the turn', 3_000);
    resume();
    expect(await old).toBe('superseded');
    expect(await ctx.queues.outbox.getJob(outboxJobId('run:old'))).toBeUndefined();
    expect(await ctx.queues.outbox.getJob(outboxJobId('run:new'))).toBeDefined();
  });
});
