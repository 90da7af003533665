import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { reportsOf } from '../../../src/tickets/reports.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeReply, type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, inputOf, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { SECRETS, startWorld, type World } from './harness.ts';

const RESUMED = '[host] A person paused this ticket while you were working';

/**
 * An executor that acknowledges, then does `work` (a long command, a stalled answer) until the
 * ticket is paused and resumed; after the resume it runs `echo again` and reports done.
 */
function pausedScript(w: World, work: (req: RecordedRequest) => FakeReply) {
  const executor: RecordedRequest[] = [];
  w.llm.respond((req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    executor.push(req);
    const results = continues(req) ? lastToolResults(req).join('\n') : '';
    if (results.includes('recorded done')) return text('Done.');
    if (inputOf(req).startsWith('Ticket') && inputOf(req).includes(RESUMED)) {
      if (!continues(req)) return toolCalls(['run_command', { command: 'echo again' }]);
      return toolCalls(['report', { status: 'done', summary: 'Ran it again after the resume.' }]);
    }
    if (!continues(req)) return toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it: the slow check.' }]);
    return work(req);
  });
  return executor;
}

/** Waits for `n` executor requests, then a moment more for any that should not come. */
async function settled(executor: unknown[], n: number): Promise<void> {
  await waitFor(() => executor.length >= n, `${n} executor requests`, 30_000);
  await new Promise((r) => setTimeout(r, 400));
}

const api = (w: World, ticket: string, action: 'pause' | 'resume') =>
  fetch(`${w.app.url}/api/tickets/${ticket}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` },
  }).then((res) => {
    if (!res.ok) throw new Error(`${action} answered ${res.status}`);
  });

/** The executor job that stopped for the pause, once it has. */
const pausedJob = (w: World) =>
  waitFor(
    async () =>
      (await w.app.ctx.queues.executor.getJobs(['completed'])).find(
        (j) => j.returnvalue?.kind === 'stopped' && j.returnvalue?.reason === 'paused',
      ),
    'the turn to stop for the pause',
    20_000,
  );

/** Resumes, then waits for the done report; returns the people-facing replies in the room. */
async function resumeToDone(w: World, ticket: string): Promise<string[]> {
  await api(w, ticket, 'resume');
  await waitFor(
    async () => (await reportsOf(w.app.ctx, ticket)).some((r) => r.status === 'done'),
    'the done report after the resume',
    30_000,
  );
  await new Promise((r) => setTimeout(r, 500));
  return (await botMessages(w.app.ctx)).filter((m) => m.op === 'local.reply').map((m) => m.text);
}

// Each test chains bounded waits (a world started, a command begun, a pause, a resume to done)
// that together exceed the default 30 s when the machine is loaded; the waits keep their bounds.
describe('pause means now (issue 28, R-D2)', { timeout: 90_000 }, () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-D2: a pause kills the sandboxed `sleep 30` under way; after the resume the turn goes on from Redis, told so, with one acknowledgement and a done report', async () => {
    const executor = pausedScript(w, () =>
      toolCalls(['run_command', { command: 'touch started; sleep 30; echo finished' }]),
    );
    const card = await send(w.app.ctx, localMessage('Please run the slow check of acme/web'));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    // The command is running in its sandbox once it has touched its file in the checkout.
    const started = join(workspacePaths(w.app.ctx, ticket).dir, 'started');
    await waitFor(() => existsSync(started), 'the command to start', 30_000);
    await api(w, ticket, 'pause');
    const pausedAt = Date.now();
    const job = await pausedJob(w);
    // Stopped in the middle of the command, not after its 30 s (a generous bound, not a timing claim).
    expect((job.finishedOn ?? 0) - pausedAt).toBeLessThan(15_000);
    expect(job.returnvalue).toMatchObject({ kind: 'stopped', reason: 'paused' });

    const replies = await resumeToDone(w, ticket);
    expect(replies).toEqual(['On it: the slow check.']);
    // The resumed turn: the same card, the note, and the transcript from Redis with the stopped
    // command's result saying what happened.
    const resumed = executor.find((r) => inputOf(r).includes(RESUMED)) as RecordedRequest;
    expect(cardsIn(resumed)).toEqual([card]);
    expect(resumed.messages.some((m) => m.tool_calls?.some((c) => c.function.name === 'reply'))).toBe(true);
    const commandResult = resumed.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    expect(commandResult).toMatch(
      /^\[host\] Stopped after \d+ s: a person paused this ticket while the command ran/,
    );
    expect(commandResult).toContain('Run it again if it is still needed.');
    expect(commandResult).not.toContain('finished');
    // Then: `echo again`, the report, the last word; no step lost, none twice.
    await settled(executor, executor.indexOf(resumed) + 3);
    const after = executor.slice(executor.indexOf(resumed));
    expect(after).toHaveLength(3);
    expect(lastToolResults(after[1] as RecordedRequest).join()).toMatch(/^exit 0\nagain/);
  });

  it('R-D2: a pause aborts a streamed answer that stalled (the idle time-out is minutes away); the resumed turn finishes with one acknowledgement', async () => {
    let stalledAt = 0;
    const executor = pausedScript(w, () => {
      stalledAt ||= Date.now();
      return {
        type: 'message',
        toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }],
        stallAfterEvents: 2,
      };
    });
    const card = await send(w.app.ctx, localMessage('Please run the slow check of acme/web'));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    await waitFor(() => stalledAt > 0, 'the stalled answer', 30_000);
    await new Promise((r) => setTimeout(r, 500));
    await api(w, ticket, 'pause');
    const pausedAt = Date.now();
    const job = await pausedJob(w);
    expect((job.finishedOn ?? 0) - pausedAt).toBeLessThan(15_000);
    expect(job.returnvalue).toMatchObject({ kind: 'stopped', reason: 'paused', before: 'model_request' });

    const replies = await resumeToDone(w, ticket);
    expect(replies).toEqual(['On it: the slow check.']);
    // Nothing of the stalled answer was stored: the resumed turn never saw `npm test` asked for.
    const resumed = executor.find((r) => inputOf(r).includes(RESUMED)) as RecordedRequest;
    const asked = resumed.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name);
    expect(asked).toEqual(['reply']);
    // The acknowledgement, the stalled answer; after the resume three requests.
    await settled(executor, 2 + 3);
    expect(executor).toHaveLength(2 + 3);
  });

  it('R-D2: a turn with no cards of its own (a continuation after the request budget) paused mid-command goes on after the resume', async () => {
    await w.close();
    w = await startWorld({ EXECUTOR_MAX_REQUESTS: '3' });
    const executor: RecordedRequest[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      executor.push(req);
      const results = continues(req) ? lastToolResults(req).join('\n') : '';
      if (results.includes('recorded done')) return text('Done.');
      if (results.includes('recorded working')) return toolCalls(['run_command', { command: 'echo one' }]);
      if (results.includes('reply queued'))
        return toolCalls(['report', { status: 'working', summary: 'Started the slow check.' }]);
      if (inputOf(req).includes(RESUMED))
        return toolCalls(['report', { status: 'done', summary: 'Checked.' }]);
      if (inputOf(req).includes('fresh turn with a fresh budget'))
        return toolCalls(['run_command', { command: 'touch started; sleep 30; echo finished' }]);
      return toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it: the slow check.' }]);
    });
    const card = await send(w.app.ctx, localMessage('Please run the slow check of acme/web'));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    const started = join(workspacePaths(w.app.ctx, ticket).dir, 'started');
    await waitFor(() => existsSync(started), 'the continuation to start its command', 30_000);
    await api(w, ticket, 'pause');
    await pausedJob(w);

    const replies = await resumeToDone(w, ticket);
    expect(replies).toEqual(['On it: the slow check.']);
    const resumed = executor.find((r) => inputOf(r).includes(RESUMED)) as RecordedRequest;
    expect(cardsIn(resumed)).toEqual([]);
    expect(resumed.messages.filter((m) => m.role === 'tool').at(-1)?.content).toMatch(
      /^\[host\] Stopped after/,
    );
  });
});
