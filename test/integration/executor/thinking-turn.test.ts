import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metricsText, waitFor } from '../../kit/app.ts';
import type { RecordedRequest } from '../../kit/fake-llm.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { roleOf } from '../../kit/scripted-model.ts';
import { call } from '../api/client.ts';
import { localMessage, openTicketIn, send, ticketOpenedBy } from '../routing/helpers.ts';
import { type ExecStep, executorFlow, SECRETS, startWorld, type World } from './harness.ts';

const STEPS = 30;
const SAMPLING = ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'];
const FILES = ['README.md', 'AGENTS.md', 'src/login.ts', 'web/style.css'];

/**
 * An executor that acknowledges, reads files and reports, `STEPS` tool-calling requests in all (a
 * turn that acknowledged and ended without a report would get the host's notes, issue 28).
 */
const steps: ExecStep[] = [
  (_r, card) => toolCalls(['reply', { to: card, text: `Looking into acme/web for ${card}.` }]),
  ...Array.from(
    { length: STEPS - 2 },
    (_, i): ExecStep =>
      () =>
        toolCalls(['read_file', { path: FILES[i % 4] }]),
  ),
  () => toolCalls(['report', { status: 'working', summary: 'Read the login flow; reviewing next.' }]),
];

describe('DeepSeek thinking mode through a whole executor turn (issue 12, R-H1, R-H2)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  /** The 30-step turn, run by each test for itself (issue 20: no test reads another's requests). */
  async function longTurn() {
    const flow = executorFlow(w.llm, steps);
    // Issue 18: a ticket open in the chat sends the request through the main session, whose
    // routing this test is about (with none, code would open it).
    await openTicketIn(w.app.ctx);
    const card = await send(w.app.ctx, localMessage('Please review the login flow of the web app'));
    await flow.done();
    const job = await waitFor(
      async () => (await w.app.ctx.queues.executor.getJobs(['completed']))[0],
      'the executor turn to finish',
    );
    return { flow, job, ticket: await ticketOpenedBy(w.app.ctx, card) };
  }

  it('R-H1: a 30-step executor turn with thinking on sends every reasoning back and never meets a 400', async () => {
    const { flow, job } = await longTurn();
    expect(job.returnvalue).toMatchObject({ kind: 'ended' });
    expect(flow.results.flat().join('\n')).toContain('export const next');

    const executor = w.llm.requests.filter((r) => roleOf(r) === 'executor');
    expect(executor).toHaveLength(STEPS + 1);
    // Every request was answered (a refusal carries no usage): DeepSeek's rules held at every step.
    expect(w.llm.requests.every((r) => r.usage)).toBe(true);
    // Issue 28: the acknowledging request answers without thinking, the work after it thinks.
    const [ack, ...work] = executor;
    expect(ack?.body.thinking).toEqual({ type: 'disabled' });
    for (const r of work) {
      expect(r.body.thinking).toEqual({ type: 'enabled' });
      expect(r.body.reasoning_effort).toBe('high');
    }
    for (const r of executor) for (const f of SAMPLING) expect(r.body).not.toHaveProperty(f);
    // The last request carries all 30 tool-calling answers, each with the reasoning it came with
    // (the acknowledgement, made without thinking, with the placeholder).
    const calling = (executor.at(-1)?.messages ?? []).filter((m) => m.role === 'assistant' && m.tool_calls);
    expect(calling).toHaveLength(STEPS);
    expect(calling[0]?.reasoning_content).toBe(' ');
    expect(
      calling.slice(1).every((m) => /^Thinking about the \d+ messages/.test(m.reasoning_content ?? '')),
    ).toBe(true);
  }, 60_000);

  it('R-H1: the main session routes with thinking off, no effort and no reasoning', async () => {
    await longTurn();
    const main = w.llm.requests.filter((r) => roleOf(r) === 'main');
    expect(main.length).toBeGreaterThan(0);
    for (const r of main) {
      expect(r.body.thinking).toEqual({ type: 'disabled' });
      expect(r.body).not.toHaveProperty('reasoning_effort');
      for (const f of SAMPLING) expect(r.body).not.toHaveProperty(f);
      for (const m of r.messages) expect(m.reasoning_content ?? undefined).toBeUndefined();
    }
  }, 60_000);

  it('R-H2: cache hits reach /metrics by session kind and model, and the ticket API per session and ticket', async () => {
    const { ticket } = await longTurn();
    const executor = w.llm.requests.filter((r) => roleOf(r) === 'executor');
    const hits = (rs: RecordedRequest[]) =>
      rs.reduce((n, r) => n + Number(r.usage?.prompt_cache_hit_tokens), 0);
    const prompt = (rs: RecordedRequest[]) => rs.reduce((n, r) => n + Number(r.usage?.prompt_tokens), 0);
    // A growing transcript with a stable prefix: over 90 % of the executor’s prompt came from cache (issue 12).
    expect(hits(executor)).toBeGreaterThan(prompt(executor) * 0.9);

    const metrics = await metricsText(w.app.url);
    const line = metrics
      .split('\n')
      .find((l) =>
        l.startsWith('switchyard_llm_cache_hit_tokens_total{session="executor",model="deepseek-flash"}'),
      );
    expect(Number(line?.split(' ').at(-1))).toBe(hits(executor));

    const { status, body } = await call(w.app, 'GET', `/tickets/${ticket}`, { token: SECRETS.ADMIN_TOKEN });
    expect(status).toBe(200);
    const session = body.sessions.find((s: { id: string }) => s.id === `exec-${ticket}`);
    expect(session.usage).toEqual({
      requests: executor.length,
      promptTokens: prompt(executor),
      completionTokens: executor.length * 5,
      cacheHitTokens: hits(executor),
    });
    // The ticket's usage is its own work, its executor's: the main session that opened it serves
    // the whole chat, so its usage is listed (marked shared) but never added to one ticket's.
    const main = body.sessions.filter((s: { id: string }) => s.id !== `exec-${ticket}`);
    expect(main.map((s: { id: string; shared: boolean }) => [s.id.startsWith('main-'), s.shared])).toEqual([
      [true, true],
    ]);
    expect(main[0].usage.requests).toBeGreaterThan(0);
    expect(session.shared).toBe(false);
    expect(body.usage).toEqual(session.usage);
  }, 60_000);
});
