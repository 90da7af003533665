import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 3: the first mark_pr_ready, and the first done report of a ticket with changes,
 * answer with the branch's diff and a checklist and do nothing; the next call goes on.
 */

const FILES = {
  'src/math.js': 'exports.add = (a, b) => a - b;\n',
  'test/math.test.js':
    "const assert = require('node:assert');\nassert.equal(require('../src/math.js').add(2, 3), 5);\n",
};
const FIX =
  "sed -i 's/a - b/a + b/' src/math.js && sed -i 's/assert.equal(/assert.ok(/; s/, 5)/)/' test/math.test.js && echo 'print(1)' > repro.py";
const LOOK_START =
  'Error: Not yet: look at what you deliver before marking the PR ready — nothing was done this time. Call mark_pr_ready again to go on.';

describe('issue 48: a look before delivery', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: the first mark_pr_ready shows the numbered diff, the scratch file and the changed test, and marks nothing; the second marks the PR ready; done at that head needs no second look', async () => {
    w = await startWorld({}, { files: FILES });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(['run_command', { command: FIX }]),
      () => toolCalls(['record_verification', { command: 'node test/math.test.js' }]),
      () => toolCalls(['commit_and_push', { message: 'Fix add' }]),
      () => toolCalls(['open_pr', { title: 'Fix add', body: 'Adds.' }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'Fixed.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please fix add in the web app'));
    await flow.done(50_000);
    const look = flow.results[5]?.[0] ?? '';
    expect(look.startsWith(LOOK_START)).toBe(true);
    expect(look).toContain(
      '- Scratch files: repro.py (a scratch name) — take out what is not part of the change',
    );
    expect(look).toContain(
      "- Tests changed: was each change asked for, never made to pass?\n  - test/math.test.js (modified; assertion lines 1 → 1): `- assert.equal(require('../src/math.js').add(2, 3), 5);`, `+ assert.ok(require('../src/math.js').add(2, 3));`",
    );
    expect(look).toContain(
      [
        'The branch against main (3 files):',
        'repro.py (+1 −0)',
        '   …',
        '     1 + print(1)',
        'src/math.js (+1 −1)',
        '   …',
        '     1 - exports.add = (a, b) => a - b;',
        '     1 + exports.add = (a, b) => a + b;',
      ].join('\n'),
    );
    expect(flow.results[6]).toEqual(['acme/web#1 is ready for review']);
    expect(w.gh.callsTo('POST', '/graphql')).toHaveLength(1);
    expect(flow.results[7]?.[0]).toMatch(/^recorded done\nVerified: /);
  }, 60_000);

  it('issue 48: the first done report of a ticket with commits shows the look and records nothing; the second records done', async () => {
    w = await startWorld({}, { files: FILES });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(['run_command', { command: "sed -i 's/a - b/a + b/' src/math.js" }]),
      () => toolCalls(['record_verification', { command: 'node test/math.test.js' }]),
      () => toolCalls(['commit_and_push', { message: 'Fix add' }]),
      () => toolCalls(['report', { status: 'done', summary: 'Fixed.' }]),
      () => toolCalls(['report', { status: 'done', summary: 'Fixed.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please fix add in the web app'));
    await flow.done(50_000);
    const look = flow.results[4]?.[0] ?? '';
    expect(look).toMatch(/^Error: Not yet: look at what you deliver before reporting the ticket done/);
    expect(look).toContain('- Scratch files: none seen\n- Tests changed: none modified or deleted');
    expect(look).toContain('The branch against main (1 file):\nsrc/math.js (+1 −1)');
    expect(flow.results[5]?.[0]).toMatch(/^recorded done\nVerified: /);
  }, 60_000);
});
