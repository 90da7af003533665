import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../../src/context.ts';
import { waitFor } from '../../kit/app.ts';
import { text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, openAll, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, routedOf, send, ticketOpenedBy } from '../routing/helpers.ts';

type State = 'waiting' | 'delayed' | 'active' | 'prioritized' | 'completed';

/** A ticket's executor turn jobs in these states, oldest first. */
async function turnJobs(ctx: Ctx, ticket: string, states: State[]): Promise<Job[]> {
  const jobs = await ctx.queues.executor.getJobs(states);
  return jobs
    .filter((j): j is Job => (j?.data as { ticketId?: string } | undefined)?.ticketId === ticket)
    .sort((a, b) => a.timestamp - b.timestamp);
}

const busy = async (ctx: Ctx, ticket: string) =>
  (await turnJobs(ctx, ticket, ['waiting', 'delayed', 'active', 'prioritized'])).length > 0;

/**
 * Issue 46 item 2: one executor turn of a ticket queued at a time is BullMQ's deduplication
 * (`addQueuedJob`). Cards arriving while a turn runs make one follow-up turn, created when the
 * running one finishes — no second job waits on the turn lock in the meantime.
 */
describe('the turn after the running one (issue 46 item 2)', () => {
  const w = useModelApp();

  /** The cards of each executor turn's first request, by ticket; the first turn of `hold` waits for `release`. */
  function script(hold?: Promise<void>) {
    const turns = new Map<string, string[][]>();
    w.llm.respond(async (req) => {
      if (roleOf(req) !== 'executor')
        return req.messages.at(-1)?.role === 'tool' ? text('done') : openAll(req);
      if (continues(req)) return text('ok');
      const ticket = ticketOf(req) ?? '';
      const list = turns.get(ticket) ?? [];
      list.push(cardsIn(req));
      turns.set(ticket, list);
      if (hold && list.length === 1) await hold;
      return text('Noted; nothing else to do.');
    });
    return (ticket: string) => turns.get(ticket) ?? [];
  }

  it('two cards arriving during a turn make one follow-up turn, queued when it ends and started once', async () => {
    const { ctx } = w.app;
    let release = () => {};
    const turnsOf = script(new Promise<void>((r) => (release = r)));
    const request = localMessage('Please rename the CLI flag --colour');
    const first = await send(ctx, request);
    const ticket = await ticketOpenedBy(ctx, first);
    await waitFor(() => turnsOf(ticket).length === 1, 'the first turn under way');

    const also = [
      await send(ctx, localMessage('also the docs', { replyTo: request.eventId })),
      await send(ctx, localMessage('and the changelog', { replyTo: request.eventId })),
    ];
    for (const card of also) await waitFor(() => routedOf(ctx, card), `${card} routed`);
    // The follow-up is kept beside the running job, not queued: nothing waits on the turn lock.
    expect(await turnJobs(ctx, ticket, ['waiting', 'delayed', 'prioritized'])).toEqual([]);

    release();
    await waitFor(() => turnsOf(ticket).length === 2, 'the follow-up turn');
    await waitFor(async () => !(await busy(ctx, ticket)), 'the follow-up turn over');
    expect(turnsOf(ticket)[1]?.sort()).toEqual([...also].sort());
    const [turn, followUp] = await turnJobs(ctx, ticket, ['completed']);
    expect(turnsOf(ticket)).toHaveLength(2);
    // Started once, after the turn before it finished: never picked up to find the lock taken.
    expect(followUp?.attemptsStarted).toBe(1);
    expect(followUp?.processedOn).toBeGreaterThanOrEqual(turn?.finishedOn ?? Number.POSITIVE_INFINITY);
  });

  it('a turn that finds the lock kept by a holder BullMQ gave up on waits once, for it to lapse', async () => {
    const { ctx } = w.app;
    const turnsOf = script();
    const request = localMessage('Please bump the lockfile');
    const ticket = await ticketOpenedBy(ctx, await send(ctx, request));
    await waitFor(() => turnsOf(ticket).length === 1, 'the first turn');
    await waitFor(async () => !(await busy(ctx, ticket)), 'the first turn over');

    // As a frozen runner leaves it after its job failed for good: the lock, for a while yet.
    await ctx.redis.set(ctx.keys.turnLock(ticket), 'turn-gone#1', 'PX', 1500);
    const card = await send(ctx, localMessage('also the README', { replyTo: request.eventId }));
    await waitFor(() => turnsOf(ticket).length === 2, 'the next turn, once the lock lapsed', 15_000);
    expect(turnsOf(ticket)[1]).toEqual([card]);
    await waitFor(async () => !(await busy(ctx, ticket)), 'the next turn over');
    const [, next] = await turnJobs(ctx, ticket, ['completed']);
    // Once to find the lock kept, once when it lapsed.
    expect(next?.attemptsStarted).toBe(2);
  });

  it('a card that joined a job waiting for its retry gets the turn after it when that job fails for good', async () => {
    const { ctx } = w.app;
    const turnsOf = script();
    const request = localMessage('Please tidy the imports');
    const ticket = await ticketOpenedBy(ctx, await send(ctx, request));
    await waitFor(() => turnsOf(ticket).length === 1, 'the first turn');
    await waitFor(async () => !(await busy(ctx, ticket)), 'the first turn over');

    // Every try of the next turn fails once it took its cards: the ticket's notes are unreadable.
    await ctx.redis.set(ctx.keys.ticketNotes(ticket), 'not a list');
    // As scheduleTurn queues it (the same deduplication id), with two tries held until promoted.
    const held = await ctx.queues.executor.add(
      'turn',
      { ticketId: ticket },
      {
        jobId: `turn-${ticket}-held`,
        delay: 60_000,
        attempts: 2,
        backoff: { type: 'fixed', delay: 60_000 },
        deduplication: { id: `turn:${ticket}`, keepLastIfActive: true },
      },
    );
    const taken = await send(ctx, localMessage('also the tests', { replyTo: request.eventId }));
    await waitFor(() => routedOf(ctx, taken), 'the card its turn takes, routed');
    await held.promote();
    await waitFor(
      async () => (await ctx.queues.executor.getJob(held.id ?? ''))?.attemptsMade === 1,
      'a failed try',
    );
    const joined = await send(ctx, localMessage('and the lint config', { replyTo: request.eventId }));
    await waitFor(() => routedOf(ctx, joined), 'the card that joins it during its back-off, routed');
    await (await ctx.queues.executor.getJob(held.id ?? ''))?.promote();
    await waitFor(
      async () => (await ctx.queues.executor.getJobState(held.id ?? '')) === 'failed',
      'the job failed for good',
    );

    await ctx.redis.del(ctx.keys.ticketNotes(ticket));
    await waitFor(
      () => turnsOf(ticket).some((cards) => cards.includes(joined)),
      'a turn holding the card that joined',
    );
  });
});
