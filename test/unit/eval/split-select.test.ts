import { describe, expect, it } from 'vitest';
import { evalMain } from '../../../src/eval/cli.ts';

/** Issue 47: which split runs — all by default, dev under --prompts, so tuning never sees test. */
describe('eval --split', () => {
  it('refuses a split that is not dev, test or all', async () => {
    const lines: string[] = [];
    expect(await evalMain(['--oracle', '--split', 'train'], (l) => lines.push(l))).toBe(2);
    expect(lines).toEqual(['--split is dev, test or all, not train']);
  });

  it('runs only the split asked for, and an A/B run only dev unless told', async () => {
    const lines: string[] = [];
    // js-slugify is dev, py-roman-subtractive test: nothing is left to run, so nothing starts.
    expect(
      await evalMain(['--oracle', '--split', 'test', '--only', 'js-slugify'], (l) => lines.push(l)),
    ).toBe(1);
    expect(
      await evalMain(['--oracle', '--prompts', 'r1', '--only', 'py-roman-subtractive'], (l) => lines.push(l)),
    ).toBe(1);
    expect(lines).toEqual([
      'no task of the test split among those chosen (--split all runs every one)',
      'no task of the dev split among those chosen (--split all runs every one)',
    ]);
  });
});
