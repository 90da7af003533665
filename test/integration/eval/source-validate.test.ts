import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalMain } from '../../../src/eval/cli.ts';
import { defaultCacheRoot } from '../../../src/eval/source-make.ts';
import { makeSourceRepo, type SourceRepo, sourceTask } from '../../unit/eval/source-repo.ts';

const root = mkdtempSync(join(tmpdir(), 'eval-source-validate-'));
const sources = join(root, 'sources');
const tasks = join(root, 'tasks');
let repo: SourceRepo;
beforeAll(async () => {
  repo = await makeSourceRepo(root, sources);
  sourceTask(tasks, 'real', repo.fix);
  cpSync(join(import.meta.dirname, '../../fixtures/eval/tasks/fixed'), join(tasks, 'fixed'), {
    recursive: true,
  });
}, 60_000);
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  const cache = defaultCacheRoot();
  for (const f of readdirSync(cache).filter((f) => repo && f.startsWith(repo.fix)))
    rmSync(join(cache, f), { recursive: true, force: true });
});

const validate = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await evalMain(['--validate', '--tasks', tasks, ...args], (l) => lines.push(l));
  return { code, lines };
};

/** Issue 47 item 2: `--validate` proves a source task from its clone, and counts one it cannot apart; a run skips it. */
describe('npm run eval -- --validate with source tasks', () => {
  it('with --sources: the made repository fails its hidden tests, and passes with the fix', async () => {
    const { code, lines } = await validate('--sources', sources);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ok {6}real: fails without the patch \(.+\), passes with it/),
    );
    expect(lines.at(-1)).toMatch(/^2 tasks: 2 valid, 0 invalid — checks ran/);
    expect(code).toBe(0);
  });

  it('without a clone: skipped, said once, and never counted as valid', async () => {
    const prior = process.env.EVAL_SOURCES;
    delete process.env.EVAL_SOURCES;
    try {
      const all = await validate();
      expect(all.lines.filter((l) => l.includes('real'))).toEqual([
        'SKIPPED real: not available: needs a clone of octo/widgets (set EVAL_SOURCES)',
      ]);
      expect(all.lines.at(-1)).toMatch(
        /^1 tasks: 1 valid, 0 invalid — 1 skipped, not available \(no clone of their repository; set EVAL_SOURCES\) — /,
      );
      expect(all.code).toBe(0);
      // Nothing validated is no success.
      const only = await validate('--only', 'real');
      expect(only.lines.at(-1)).toMatch(/^0 tasks: 0 valid, 0 invalid — 1 skipped/);
      expect(only.code).toBe(1);
      // A run lists it once and runs nothing.
      const lines: string[] = [];
      const run = await evalMain(['--baseline', 'null', '--tasks', tasks, '--only', 'real'], (l) =>
        lines.push(l),
      );
      expect(lines).toEqual([
        'SKIPPED real: not available: needs a clone of octo/widgets (set EVAL_SOURCES)',
        'no task to run: every one chosen is not available here',
      ]);
      expect(run).toBe(1);
    } finally {
      if (prior !== undefined) process.env.EVAL_SOURCES = prior;
    }
  });
});
