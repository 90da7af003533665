import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalMain } from '../../../src/eval/cli.ts';
import type { EvalRecord } from '../../../src/eval/eval-record.ts';
import { readExchanges } from '../../../src/eval/traffic-file.ts';
import { loadBuiltins, savePrompts } from '../../../src/prompts/index.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { ownedPrefixes, testRedis } from '../../kit/redis.ts';
import { runEval } from './run-eval.ts';

/**
 * Issue 29 `--prompts <version|draft>`: every task under the product's published prompt settings
 * and under a candidate — a saved version, or a draft in a file — read from the product's Redis,
 * interleaved, each task world with its arm's settings installed before it starts; both arms'
 * resolve rate and cost, and the candidate's difference paired by task with a 95 % interval.
 */

const { redis } = testRedis();
const productPrefix = ownedPrefixes()();
const work = mkdtempSync(join(tmpdir(), 'eval-ab-'));
const cleanups: (() => void)[] = [() => rmSync(work, { recursive: true, force: true })];
const saved = { KEY_PREFIX: process.env.KEY_PREFIX, LLM_PRICES: process.env.LLM_PRICES };

// Team paragraphs reach every system prompt; the candidate's is much longer, so it costs more.
const PUBLISHED = 'We are the published team (marker pub-91c2).';
const CANDIDATE = `We are the candidate team (marker cand-7f3a). ${'Say what you changed and why. '.repeat(60)}`;

beforeAll(async () => {
  const deps = { redis, keys: createKeys(productPrefix), builtins: await loadBuiltins(), sizeCap: 200_000 };
  const meta = { source: 'api', who: 'test' } as const;
  // r1 is the candidate; r2, saved after it, is what the product has published.
  expect(await savePrompts(deps, { baseRevision: 0, team: { about: CANDIDATE } }, meta)).toMatchObject({
    revision: 1,
  });
  expect(await savePrompts(deps, { baseRevision: 1, team: { about: PUBLISHED } }, meta)).toMatchObject({
    revision: 2,
  });
  process.env.KEY_PREFIX = productPrefix;
  process.env.LLM_PRICES = JSON.stringify({
    compatible: { 'switchyard-oracle': { input: 2, cacheHit: 0.5, output: 8 } },
  });
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  for (const c of cleanups.splice(0)) c();
});

/** Every system prompt a task run's product sent, from the run's recording. */
const systemPrompts = (recording: string, label: string) =>
  readExchanges(recording, label).map((e) => {
    const body = e.request.body as { messages: { role: string; content: string }[] };
    return body.messages.find((m) => m.role === 'system')?.content ?? '';
  });

describe('eval A/B of a prompt change (issue 29)', () => {
  it('runs each task under the published version and a saved one, interleaved, and compares them paired by task', async () => {
    const recording = join(work, 'rec-version');
    const run = await runEval([
      '--oracle',
      // py-leap-year-nochange is held out (split test): an A/B run takes dev alone unless told.
      '--split',
      'all',
      '--only',
      'js-slugify,py-leap-year-nochange',
      '--prompts',
      'r1',
      '--record',
      recording,
    ]);
    cleanups.push(run.cleanup);
    expect(run.code).toBe(0);
    const { records, arms, comparison, meta, summary } = run.results;
    expect(meta.prompts).toEqual({ published: 'r2', candidate: 'r1' });
    // Interleaved: each task under both arms before the next task.
    expect(records.map((r) => `${r.id} ${r.arm}`)).toEqual([
      'js-slugify published',
      'js-slugify candidate',
      'py-leap-year-nochange published',
      'py-leap-year-nochange candidate',
    ]);
    for (const r of records) expect(r, `${r.id} ${r.arm}`).toMatchObject({ resolved: true, honest: true });
    // Each arm's worlds ran with that arm's prompt text, in every request.
    for (const task of ['js-slugify', 'py-leap-year-nochange']) {
      const published = systemPrompts(recording, `${task}__published-1`);
      const candidate = systemPrompts(recording, `${task}__candidate-1`);
      expect(published.length).toBeGreaterThan(2);
      expect(candidate.length).toBeGreaterThan(2);
      for (const p of published) expect(p.includes('pub-91c2') && !p.includes('cand-7f3a')).toBe(true);
      for (const p of candidate) expect(p.includes('cand-7f3a') && !p.includes('pub-91c2')).toBe(true);
    }
    expect(arms?.published).toMatchObject({ tasks: 2, runs: 1, resolved: 2 });
    expect(arms?.candidate).toMatchObject({ tasks: 2, runs: 1, resolved: 2 });
    // The whole run counts each task once per arm: 4 task runs, 4 resolved (not "4 of 2").
    expect(summary).toMatchObject({ tasks: 4, runs: 1, resolved: 4 });
    const arm = (id: string, a: string) => records.find((r) => r.id === id && r.arm === a) as EvalRecord;
    const diffs = ['js-slugify', 'py-leap-year-nochange'].map(
      (id) => arm(id, 'candidate').costUsd - arm(id, 'published').costUsd,
    );
    // The candidate's longer prompt costs more on every task; both resolve everything.
    for (const d of diffs) expect(d).toBeGreaterThan(0);
    expect(comparison).toMatchObject({
      pairs: 2,
      leftOut: 0,
      resolveRate: { published: 1, candidate: 1, difference: { mean: 0, low: 0, high: 0 } },
    });
    const cost = comparison?.costUsd.difference;
    expect(cost?.mean).toBeCloseTo((diffs[0]! + diffs[1]!) / 2, 12);
    // Two pairs: t with one degree of freedom, 12.706 standard errors either side.
    const half = (12.706 * Math.abs(diffs[0]! - diffs[1]!)) / Math.SQRT2 / Math.SQRT2;
    expect(cost?.high).toBeCloseTo((cost?.mean ?? 0) + half, 12);
    const text = run.lines.join('\n');
    expect(text).toContain('| js-slugify [candidate] | 1 | github-issue | yes | yes |');
    expect(text).toContain('| published | r2 | 2 | 2 | 100.0 % |');
    expect(text).toContain('| candidate | r1 | 2 | 2 | 100.0 % |');
    expect(text).toMatch(
      /candidate − published over 2 paired task runs: resolve rate \+0\.0 points \(95 % interval \+0\.0 points to \+0\.0 points\); cost per task run \+\$0\.\d{4} \(95 % interval [−+]\$\d\.\d{4} to \+\$\d\.\d{4}\)/,
    );
  }, 400_000);

  it('takes a draft from a file, checked as a save would check it, as the candidate', async () => {
    const draft = join(work, 'draft.json');
    writeFileSync(
      draft,
      JSON.stringify({ baseRevision: 2, team: { about: 'A draft team (marker draft-5e1d).' } }),
    );
    const recording = join(work, 'rec-draft');
    const run = await runEval([
      '--oracle',
      '--split',
      'all',
      '--only',
      'py-leap-year-nochange',
      '--prompts',
      draft,
      '--record',
      recording,
    ]);
    cleanups.push(run.cleanup);
    expect(run.code).toBe(0);
    expect(run.results.meta.prompts).toEqual({ published: 'r2', candidate: `draft ${draft}` });
    for (const p of systemPrompts(recording, 'py-leap-year-nochange__candidate-1'))
      expect(p.includes('draft-5e1d') && !p.includes('pub-91c2')).toBe(true);
    expect(run.results.comparison).toMatchObject({
      pairs: 1,
      resolveRate: { difference: { mean: 0, low: null } },
    });
    expect(run.lines.join('\n')).toContain('resolve rate +0.0 points (one pair: no interval)');
  }, 300_000);

  it('refuses a candidate it cannot have before running anything', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, JSON.stringify({ team: { about: 'ok' }, overides: {} }));
    const cases: [string, RegExp][] = [
      ['r9', /^--prompts r9: the product has no prompt version r9 \(KEY_PREFIX t-.*; its newest is r2\)$/],
      [
        'draft',
        /^--prompts draft: name a saved version \(r12 or 12\) or a draft in a file: the product keeps no draft/,
      ],
      [bad, /^--prompts .*bad\.json: a save would refuse it: overides: /],
    ];
    for (const [spec, why] of cases) {
      const lines: string[] = [];
      const code = await evalMain(['--oracle', '--only', 'js-slugify', '--prompts', spec], (l) =>
        lines.push(l),
      );
      expect(code, spec).toBe(2);
      expect(lines.join('\n'), spec).toMatch(why);
    }
  });
});
