import { afterEach, describe, expect, it } from 'vitest';
import { runEval } from './run-eval.ts';

/**
 * Issue 29: each task run's cost from the product's price table (`LLM_PRICES` over
 * `src/stats/prices.ts`), cache hits at their own rate, and the run's cost per resolved task.
 */

const saved = process.env.LLM_PRICES;
const cleanups: (() => void)[] = [];
afterEach(() => {
  if (saved === undefined) delete process.env.LLM_PRICES;
  else process.env.LLM_PRICES = saved;
  for (const c of cleanups.splice(0)) c();
});

describe('eval cost per task (issue 29)', () => {
  it('prices every request of the oracle by LLM_PRICES, cache hits apart, exactly', async () => {
    // The oracle runs as provider `compatible`, model `switchyard-oracle`: priced only when named.
    process.env.LLM_PRICES = JSON.stringify({
      compatible: { 'switchyard-oracle': { input: 2, cacheHit: 0.5, output: 8 } },
    });
    const run = await runEval(['--oracle', '--only', 'js-sum-empty-nochange']);
    cleanups.push(run.cleanup);
    const [r] = run.results.records;
    if (!r) throw new Error('no record');
    expect(r.resolved).toBe(true);
    // What the oracle's server reported: 20 completion tokens a request, a prefix cache.
    expect(r.completionTokens).toBe(20 * r.modelRequests);
    expect(r.cacheHitTokens).toBeGreaterThan(0);
    const miss = r.promptTokens - r.cacheHitTokens;
    // USD per million tokens × tokens × 1000 = nano-dollars, integers.
    const nanos = miss * 2000 + r.cacheHitTokens * 500 + r.completionTokens * 8000;
    expect(Math.round(r.costUsd * 1e9)).toBe(nanos);
    const s = run.results.summary;
    expect(Math.round(s.costUsd * 1e9)).toBe(nanos);
    expect(Math.round((s.costPerResolvedUsd ?? 0) * 1e9)).toBe(nanos);
    expect(run.results.meta).toMatchObject({
      model: 'switchyard-oracle',
      provider: 'compatible',
      oracle: true,
    });
    const table = run.lines.join('\n');
    expect(table).toContain(`| $${r.costUsd.toFixed(4)} |`);
    expect(table).toContain(`cost $${s.costUsd.toFixed(4)}, $${r.costUsd.toFixed(4)} per resolved task`);
    expect(run.code).toBe(0);
  }, 300_000);

  it('refuses an LLM_PRICES that is not a price table before running anything', async () => {
    process.env.LLM_PRICES = '{"compatible": {"m": {"input": "cheap"}}}';
    const { evalMain } = await import('../../../src/eval/cli.ts');
    const lines: string[] = [];
    const code = await evalMain(['--oracle', '--only', 'js-slugify'], (l) => lines.push(l));
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/^cannot run: .*input/s);
  });
});
