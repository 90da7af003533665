import { describe, expect, it } from 'vitest';
import { mapAtMost } from '../../../src/eval/map-at-most.ts';
import { LIST_READS_AT_ONCE } from '../../../src/eval/read-results.ts';

/**
 * The Eval page's list (`GET /api/eval/runs`) reads up to 200 results files of up to 32 MiB each:
 * never all at once, so a folder of large runs cannot hold 6 GiB in memory for one request.
 */
describe('mapAtMost', () => {
  it('keeps at most n calls under way and answers in the items’ order, however they finish', async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 50 }, (_, i) => i);
    const out = await mapAtMost(items, LIST_READS_AT_ONCE, async (i) => {
      running += 1;
      most = Math.max(most, running);
      // Later items finish sooner: the order of the answers is not the order of finishing.
      await new Promise((r) => setTimeout(r, (50 - i) % 7));
      running -= 1;
      return i * 2;
    });
    expect(out).toEqual(items.map((i) => i * 2));
    expect(most).toBe(LIST_READS_AT_ONCE);
    expect(LIST_READS_AT_ONCE).toBe(8);
  });

  it('answers nothing for no items, fewer lanes than the limit for few, and passes a failure on', async () => {
    await expect(mapAtMost([], 8, async () => 1)).resolves.toEqual([]);
    await expect(mapAtMost([1, 2], 8, async (x) => x + 1)).resolves.toEqual([2, 3]);
    await expect(
      mapAtMost([1, 2, 3], 2, async (x) => {
        if (x === 2) throw new Error('results.json vanished');
        return x;
      }),
    ).rejects.toThrow('results.json vanished');
  });
});
