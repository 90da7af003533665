import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 28: reads of one answer run at the same time. When they are the turn's first work, each
 * needs the checkout that does not exist yet; they all answer, in the answer's order, and the turn
 * needs no retry. (Checkouts made side by side by such reads once collided on their rename,
 * ENOTEMPTY, when a step was being restored: `ensureWorkspace` now makes one at a time per ticket.)
 */
describe('reads together on a checkout not yet made (issue 28)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('issue 28: three reads as the first work of a turn all answer, and the turn runs in one attempt', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: 'On it.' }]),
      () =>
        toolCalls(
          ['read_file', { path: 'README.md' }],
          ['read_file', { path: 'src/login.ts' }],
          ['list_files', {}],
        ),
      () => toolCalls(['report', { status: 'working', summary: 'Read the code.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please look at the login of acme/web'));
    await flow.done();
    const [readme, login, files] = flow.results[1] ?? [];
    expect(readme).toContain('# web');
    expect(login).toContain('export const next');
    expect(files).toContain('src/login.ts');
    const job = await waitFor(
      async () => (await w.app.ctx.queues.executor.getJobs(['completed']))[0],
      'the turn to finish',
    );
    expect(job.attemptsMade).toBe(1);
  });
});
