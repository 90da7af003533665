import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evalMain } from '../../../src/eval/cli.ts';
import type { RunMeta } from '../../../src/eval/results-file.ts';
import type { TaskRecord } from '../../../src/eval/task-record.ts';

/**
 * Issue 47 `--baseline null`: an agent that acknowledges and does nothing else, driven through the
 * real product like the oracle. It is the score's floor: it must resolve nothing — the no-change
 * tasks included, which need the right answer to the person, not silence.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the null baseline (issue 47)', () => {
  it('resolves no task, not even one that needs nothing changed, and says it ran as the baseline', async () => {
    const results = mkdtempSync(join(tmpdir(), 'eval-null-'));
    dirs.push(results);
    const lines: string[] = [];
    const code = await evalMain(
      ['--baseline', 'null', '--results', results, '--only', 'js-sum-empty-nochange,py-leap-year-nochange'],
      (l) => lines.push(l),
    );
    const [stamp] = readdirSync(results);
    const file = JSON.parse(readFileSync(join(results, stamp as string, 'results.json'), 'utf8')) as {
      meta: RunMeta;
      records: TaskRecord[];
    };
    expect(file.meta).toMatchObject({
      baseline: 'null',
      oracle: false,
      model: 'switchyard-null',
      split: 'all',
    });
    // Issue 47: what the numbers belong to — the product's commit, the model settings, the task set.
    expect(file.meta.productCommit).toMatch(/^[0-9a-f]{40}(-dirty)?$/);
    expect(file.meta.taskSetHash).toMatch(/^[0-9a-f]{64}$/);
    expect(file.meta.settings).toMatchObject({
      executorModel: 'switchyard-null',
      thinking: { main: 'disabled', executor: 'enabled' },
      effort: { main: 'high', executor: 'high' },
      maxTokens: 32_768,
    });
    expect(file.records).toHaveLength(2);
    for (const r of file.records)
      expect(r, r.id).toMatchObject({
        resolved: false,
        answered: false,
        branch: null,
        checkExit: 0,
        acks: 1,
        acknowledgedOnce: true,
      });
    expect(code).toBe(0);
  }, 200_000);

  it('knows one baseline and runs it alone', async () => {
    const lines: string[] = [];
    expect(await evalMain(['--baseline', 'smart'], (l) => lines.push(l))).toBe(2);
    expect(lines[0]).toMatch(/^--baseline knows one agent, null/);
    expect(await evalMain(['--baseline', 'null', '--oracle'], (l) => lines.push(l))).toBe(2);
    expect(lines[1]).toBe('--baseline null is its own agent; drop --oracle and --replay');
  });
});
