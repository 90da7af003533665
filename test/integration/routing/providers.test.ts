import { afterEach, describe, expect, it } from 'vitest';
import { metricsText, startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeDialect, type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ackAll, continues, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, openTicketIn, send } from './helpers.ts';

/**
 * A request travelling through routing and an executor's acknowledgement against each provider
 * (issue 12, R-H1): DeepSeek-only fields go only to DeepSeek, so an OpenAI endpoint, which refuses
 * unknown fields with a 400, serves the same flow.
 */
describe('providers: each gets only the fields of its own contract', () => {
  let app: TestApp | undefined;
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });

  async function flow(dialect: FakeDialect, env: Record<string, string>): Promise<FakeLlm> {
    llm = await startFakeLlm({ dialect, handler: scriptedModel({ main: openAll, executor: ackAll }) });
    app = await startTestApp({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k', ...env });
    // Issue 18: a ticket open in the chat sends the request through the main session (otherwise
    // code opens it), so both session kinds speak to the provider.
    await openTicketIn(app.ctx);
    const card = await send(app.ctx, localMessage('Please bump the version of the app'));
    const ctx = app.ctx;
    await waitFor(
      async () => (await botMessages(ctx)).some((m) => m.text.includes(card)),
      'the acknowledgement',
    );
    return llm;
  }

  it('R-H1: LLM_PROVIDER=openai: no thinking, no reasoning_effort, no reasoning_content; the flow works', async () => {
    const l = await flow('openai', { LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4.1' });
    expect(l.requests.map(roleOf)).toEqual(expect.arrayContaining(['main', 'executor']));
    for (const r of l.requests) {
      expect(r.body).not.toHaveProperty('thinking');
      expect(r.body).not.toHaveProperty('reasoning_effort');
      for (const m of r.messages) expect(m).not.toHaveProperty('reasoning_content');
    }
    expect(l.requests.every((r) => r.usage)).toBe(true);
    const metrics = await metricsText(app?.url ?? '');
    expect(metrics).toMatch(/switchyard_llm_cache_hit_tokens_total\{session="main",model="gpt-4.1"\} \d+/);
  });

  it('R-H1: LLM_PROVIDER=deepseek: every request says whether to think, per session kind', async () => {
    const l = await flow('deepseek', { LLM_PROVIDER: 'deepseek', EXECUTOR_REASONING_EFFORT: 'max' });
    // The executor's request after its acknowledgement: the one that thinks.
    await waitFor(
      () => l.requests.some((r) => roleOf(r) === 'executor' && continues(r)),
      'the executor going on',
    );
    for (const r of l.requests) {
      // Issue 28: the executor's acknowledging request (the one opening its turn) goes without thinking.
      const thinks = roleOf(r) === 'executor' && continues(r);
      expect(r.model).toBe('deepseek-flash');
      expect(r.body.thinking).toEqual({ type: thinks ? 'enabled' : 'disabled' });
      expect(r.body.reasoning_effort).toBe(thinks ? 'max' : undefined);
      expect(r.ignored).toEqual([]);
    }
  });

  it('R-H1: a retired model name is refused by DeepSeek and the turn fails saying why', async () => {
    llm = await startFakeLlm({ handler: scriptedModel({ main: openAll, executor: ackAll }) });
    app = await startTestApp({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k', LLM_MODEL: 'deepseek-chat' });
    await openTicketIn(app.ctx);
    await send(app.ctx, localMessage('Please bump the version of the app'));
    const ctx = app.ctx;
    const job = await waitFor(
      async () => (await ctx.queues.main.getJobs(['completed', 'failed']))[0],
      'the main turn',
    );
    expect(JSON.stringify(job.returnvalue ?? job.failedReason)).toMatch(/400.*Model Not Exist/);
  });
});
