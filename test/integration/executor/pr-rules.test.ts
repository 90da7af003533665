import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

describe('yielding (R-C8); honest UI delivery is in ui-screenshots.test.ts', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C8: when a person’s PR holds the same change, the executor closes its own PR and points to theirs in one sentence', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          [
            'write_file',
            { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
          ],
        ),
      () => toolCalls(['commit_and_push', { message: 'Default to /home' }]),
      () => toolCalls(['open_pr', { title: 'Default to /home', body: 'Fallback.' }]),
      () => {
        w.gh.addPull('acme/web', {
          title: 'Fallback to /home',
          head: 'ada/home',
          user: { login: 'ada', type: 'User' },
        });
        return toolCalls(['close_pr', { instead: '#1', reason: 'it is the bot’s own' }]);
      },
      () =>
        toolCalls([
          'close_pr',
          { instead: '#2', reason: 'That PR already makes the same fallback change. Thanks!' },
        ]),
      () =>
        toolCalls([
          'close_pr',
          {
            instead: 'https://github.com/acme/web/pull/2',
            reason: 'it already makes the same fallback change',
          },
        ]),
    ]);
    await send(w.app.ctx, localMessage('Please default the login redirect to /home'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    // This test's own fake GitHub: the bot's PR is #1, the person's #2 (issue 20: it no longer
    // leans on the PR an earlier test opened).
    expect(r[3]).toContain('opened draft PR acme/web#1');
    expect(r[4]).toMatch(/refused: "#1" is not another PR or a branch of acme\/web/);
    expect(r[5]).toMatch(/refused: the reason is one sentence/);
    expect(r[6]).toContain('closed acme/web#1, pointing to #2');
    expect(w.gh.pulls.find((p) => p.number === 1)?.state).toBe('closed');
    expect(w.gh.pulls.find((p) => p.number === 2)?.state).toBe('open');
    const comment = await waitFor(() => w.gh.comments.find((c) => c.number === 1), 'the closing sentence');
    expect(comment.body.split('\n')[0]).toBe(
      'Closing in favour of #2 by @ada: it already makes the same fallback change.',
    );
  });

  it('R-C8: when a person’s branch holds the same change, the executor closes its own PR and points to the branch; the bot’s own branches and unknown ones are refused', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          [
            'write_file',
            { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
          ],
        ),
      () => toolCalls(['commit_and_push', { message: 'Default to /home' }]),
      () => toolCalls(['open_pr', { title: 'Default to /home', body: 'Fallback.' }]),
      () => {
        w.gh.addBranch('acme/web', { name: 'ada/home', author: { login: 'ada', type: 'User' } });
        w.gh.addBranch('acme/web', { name: 'bot-work', author: { login: w.gh.botLogin, type: 'Bot' } });
        return toolCalls(
          ['close_pr', { instead: 'sy/T9-other', reason: 'it holds the change' }],
          ['close_pr', { instead: 'bot-work', reason: 'it holds the change' }],
          ['close_pr', { instead: 'grace/home', reason: 'it holds the change' }],
        );
      },
      () =>
        toolCalls([
          'close_pr',
          {
            instead: 'https://github.com/acme/web/tree/ada/home',
            reason: 'it already makes the same fallback change',
          },
        ]),
    ]);
    await send(w.app.ctx, localMessage('Please default the login redirect to /home'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[3]).toContain('opened draft PR acme/web#1');
    expect(flow.results[4]).toEqual([
      'Error: refused: sy/T9-other is the bot’s own branch; yield only to a person’s branch',
      'Error: refused: bot-work is the bot’s own branch; yield only to a person’s branch',
      'Error: refused: acme/web has no branch grace/home',
    ]);
    expect(w.gh.pulls.find((p) => p.number === 1)?.state).toBe('closed');
    expect(r[5]).toBe('closed acme/web#1, pointing to branch ada/home');
    const comment = await waitFor(() => w.gh.comments.find((c) => c.number === 1), 'the closing sentence');
    expect(comment.body.split('\n')[0]).toBe(
      'Closing in favour of the branch ada/home by @ada: it already makes the same fallback change.',
    );
  });
});
