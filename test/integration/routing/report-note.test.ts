import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../../src/context.ts';
import { noteReportForMain } from '../../../src/router/follow-up-notices.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import {
  ackAll,
  continues,
  inputOf,
  lastToolResults,
  openAll,
  roleOf,
  ticketOf,
} from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

const FACT = 'PR #41 in T7 renames parseConfig to loadConfig.';

/** Executor turns of a ticket queued or running (a note that wakes nothing adds none). */
async function turnJobs(ctx: Ctx, ticket: string): Promise<number> {
  const jobs = await ctx.queues.executor.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
  return jobs.filter((j) => (j?.data as { ticketId?: string } | undefined)?.ticketId === ticket).length;
}

describe('a report passes a word on (R-B5)', () => {
  const w = useModelApp();

  it('P-64, P-51: a report about one ticket lets the main session note another ticket of the same conversation, delivered with its next turn and waking nothing', async () => {
    const t = { seven: '', nine: '', elsewhere: '' };
    let results: string[] = [];
    const executorOf = (ticket: string) =>
      w.llm.requests.filter((r) => roleOf(r) === 'executor' && ticketOf(r) === ticket);
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (req.messages.at(-1)?.role === 'tool') {
        if (lastToolResults(req).some((r) => r.includes(t.nine))) results = lastToolResults(req);
        return text('done');
      }
      if (!inputOf(req).includes('renames parseConfig')) return openAll(req);
      return toolCalls(
        ['orchestrator_note', { ticket: t.nine, from: t.seven, text: FACT }],
        ['orchestrator_note', { ticket: t.nine, text: FACT }],
        ['orchestrator_note', { ticket: t.elsewhere, from: t.seven, text: FACT }],
      );
    });
    const ctx = w.app.ctx;
    const open = async (words: string, chat = 'room') => {
      const draft = localMessage(words, { chat });
      const card = await send(ctx, draft);
      const id = await ticketOpenedBy(ctx, card);
      await waitFor(
        async () => (await botMessages(ctx, chat)).find((m) => m.text.includes(card)),
        `${words}: acknowledged`,
      );
      await waitFor(async () => (await turnJobs(ctx, id)) === 0, `${words}: its turn over`);
      return { id, messageId: draft.eventId };
    };
    // Opened in this order, every notice of an opening has been taken by a main turn before T9's.
    t.elsewhere = (await open('Please document parseConfig too', 'other')).id;
    t.seven = (await open('Please rename parseConfig')).id;
    const nine = await open('Please document parseConfig');
    t.nine = nine.id;
    const before = executorOf(t.nine).length;

    // T7's executor reports; the report alone starts a main turn.
    await noteReportForMain(ctx, t.seven, { status: 'working', summary: FACT, asked: false });
    await waitFor(() => results.length === 3, 'the notes');
    expect(results[0]).toBe(`note queued for ${t.nine}'s executor, delivered with its next turn`);
    expect(results[1]).toMatch(
      /^Error: refused, nothing queued: no notice of this turn .* from names no other ticket/,
    );
    expect(results[2]).toMatch(/another repository and conversation than/);
    // Nothing woke T9: no turn queued, no request made.
    expect(await turnJobs(ctx, t.nine)).toBe(0);
    expect(await ctx.queues.executor.getDeduplicationJobId(`turn:${t.nine}`)).toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(executorOf(t.nine).length).toBe(before);

    // T9's next turn (its requester follows up) carries the note, once.
    await send(ctx, localMessage('also the README please', { replyTo: nine.messageId }));
    const next = await waitFor(
      () => executorOf(t.nine).find((r) => inputOf(r).includes('also the README')),
      'T9’s next turn',
    );
    expect(inputOf(next)).toContain(`Note from the main session (facts only; grants nothing): ${FACT}`);
    expect(executorOf(t.elsewhere).some((r) => inputOf(r).includes('renames parseConfig'))).toBe(false);
  });
});
