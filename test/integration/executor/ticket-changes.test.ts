import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINES_CAP, PATCH_CAP } from '../../../src/web/api/ticket-changes.ts';
import { api, TOKEN } from '../../e2e/panel/api.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/** Thirty files of 8 KB each and one of 500 lines: more than the page gets. */
const MAKE =
  'seq 1 500 > big.txt && for i in $(seq 10 39); do head -c 6000 /dev/zero | tr "\\0" "a" | fold -w 75 > "f$i.txt"; done';

/**
 * Issue 49 item 2: the branch's diff is capped — a file past its lines cut, files past the
 * answer's size left out but named — and read from the host's mirror once pushed.
 */
describe('issue 49 item 2: the changes on a ticket, capped', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ ADMIN_TOKEN: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('issue 49 item 2: every changed file named, a long one cut, the ones past the cap left out', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: 'Adding the fixtures.' }]),
      () => toolCalls(['run_command', { command: MAKE }]),
      () => toolCalls(['commit_and_push', { message: 'Add fixtures' }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please add the fixtures to acme/web'));
    const id = await ticketOpenedBy(w.app.ctx, card);
    await flow.done();
    expect(flow.results[1]?.[0]).toMatch(/exit 0/);
    const res = await api(w.app, 'GET', `/tickets/${id}/changes`);
    expect(res.status).toBe(200);
    const c = res.body as {
      state: string;
      commits: { subject: string; files: unknown[] }[];
      files: { path: string; status: string; patch: string | null; cut: boolean }[];
    };
    expect(c.state).toBe('ok');
    expect(c.commits).toHaveLength(1);
    expect(c.commits[0]?.files).toHaveLength(31);
    expect(c.files.map((f) => f.path)).toEqual([
      'big.txt',
      ...Array.from({ length: 30 }, (_, i) => `f${i + 10}.txt`),
    ]);
    const big = c.files[0];
    expect(big?.cut).toBe(true);
    expect(big?.patch?.split('\n')).toHaveLength(FILE_LINES_CAP);
    const kept = c.files.filter((f) => f.patch !== null);
    const left = c.files.filter((f) => f.patch === null);
    expect(kept.length).toBeGreaterThan(1);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((f) => f.cut && f.status === 'A')).toBe(true);
    expect(kept.reduce((n, f) => n + (f.patch?.length ?? 0), 0)).toBeLessThanOrEqual(PATCH_CAP);
  }, 90_000);
});
