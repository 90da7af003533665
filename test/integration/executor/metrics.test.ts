import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsText, waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/** The value of one sample line, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && want.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}

/**
 * Issue 17 "metrics": model-request latency and tokens by session kind and model, cache hits,
 * sandbox command durations, deliveries by channel and outcome, and BullMQ's own depth per queue.
 */
describe('issue 17: /metrics', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld();
  });
  afterAll(async () => {
    await w.close();
  });

  it('issue 17: a ticket’s model requests, command and reply show in Prometheus names, each family declared once', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Counting the lines of acme/web (${card}).` }]),
      () => toolCalls(['run_command', { command: 'exit 3' }]),
    ]);
    await send(w.app.ctx, localMessage('Please count the lines of the README'));
    await flow.done();
    const text = await waitFor(async () => {
      const t = await metricsText(w.app.url);
      return sample(t, 'switchyard_outbox_deliveries_total', { channel: 'local', outcome: 'sent' })
        ? t
        : undefined;
    }, 'a delivery counted');

    const exec = { session: 'executor', model: 'deepseek-flash' };
    expect(
      sample(text, 'switchyard_llm_request_duration_seconds_count', { ...exec, outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'switchyard_llm_request_duration_seconds_bucket', { ...exec, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'switchyard_llm_tokens_total', { ...exec, kind: 'prompt' })).toBeGreaterThan(0);
    expect(sample(text, 'switchyard_llm_requests_total', { ...exec, outcome: 'ok' })).toBeGreaterThanOrEqual(
      3,
    );
    expect(sample(text, 'switchyard_llm_cache_hit_tokens_total', exec)).toBeGreaterThan(0);
    // Issue 33 item 8: spend by the price table, for the dashboard's cost per day.
    expect(sample(text, 'switchyard_llm_cost_usd_total', exec)).toBeGreaterThan(0);
    expect(
      sample(text, 'switchyard_sandbox_command_duration_seconds_count', {
        tool: 'run_command',
        outcome: 'exit_nonzero',
      }),
    ).toBe(1);
    for (const queue of ['route', 'main', 'executor', 'outbox', 'status', 'safety'])
      expect(sample(text, 'bullmq_job_count', { queue, state: 'waiting' }), queue).toBeDefined();
    expect(sample(text, 'bullmq_job_count', { queue: 'outbox', state: 'completed' })).toBeGreaterThan(0);
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(types.length).toBe(new Set(types.map((l) => l.split(' ')[2])).size);
  });
});
