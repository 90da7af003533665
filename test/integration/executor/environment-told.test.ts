import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/** Issue 28 "the environment, told": the executor's prompt names its branch, base, network and sandbox facts. */
describe('the executor is told where it runs (issue 28)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld({ SANDBOX_NETWORK: 'none' });
  });
  afterEach(async () => {
    await w.close();
  });

  it('issue 28: the environment block names the ticket’s branch and base once the checkout exists, the network, and what does not persist between commands', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: 'On it.' }]),
      () => toolCalls(['read_file', { path: 'README.md' }]),
      () => toolCalls(['report', { status: 'working', summary: 'Read it.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please read the README of acme/web'));
    await flow.done();
    const prompts = w.llm.requests.filter((r) => roleOf(r) === 'executor').map((r) => r.system ?? '');
    // Before the checkout: the branch the host will make; after: the branch and its base.
    expect(prompts[0]).toMatch(
      /- branch: sy\/T\d+-please-read-the-readme-of-acme, made by the host with the checkout/,
    );
    expect(prompts.at(-1)).toMatch(
      /- branch: sy\/T\d+-please-read-the-readme-of-acme \(made by the host; commit_and_push pushes it\), based on main/,
    );
    expect(prompts.at(-1)).toContain(
      'one sandbox per command, checkout at /workspace, network none; cwd, variables, HOME and /tmp do not persist; background processes end with the command; no stdin',
    );
  });
});
