import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 2: a test the branch weakened is named where the push is and in the PR body, with
 * its assertion lines, and the "Verified" line says the verifying command ran it.
 */

const FILES = {
  'package.json': '{ "name": "web", "scripts": { "test": "node --test" } }\n',
  'src/math.js': 'exports.add = (a, b) => a - b;\n',
  'test/math.test.js': [
    "const assert = require('node:assert');",
    "const { test } = require('node:test');",
    "const { add } = require('../src/math.js');",
    '',
    "test('add', () => {",
    '  assert.equal(add(2, 3), 5);',
    '});',
    '',
  ].join('\n'),
};
const WEAKEN = "sed -i 's/assert.equal(add(2, 3), 5)/assert.ok(add(2, 3))/' test/math.test.js";
const NAMED =
  'test/math.test.js (modified; assertion lines 1 → 1): `- assert.equal(add(2, 3), 5);`, `+ assert.ok(add(2, 3));`';

describe('issue 48: changed tests called out', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: a weakened assertion is named in the commit answer and the PR body, and the Verified line says it ran a changed test', async () => {
    w = await startWorld({}, { files: FILES });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(['run_command', { command: WEAKEN }]),
      () => toolCalls(['record_verification', { command: 'node --test' }]),
      () => toolCalls(['commit_and_push', { message: 'Make add pass' }]),
      () => toolCalls(['open_pr', { title: 'Make add pass', body: 'The test passes now.' }]),
    ]);
    await send(w.app.ctx, localMessage('Please make the add test of the web app pass'));
    await flow.done();
    expect(flow.results[2]?.[0]).toMatch(/\): exit 0/);
    const committed = flow.results[3]?.[0] ?? '';
    expect(committed).toContain(
      `tests this branch changed (not only added) — a reviewer reads these first; change a test only where the request asks for it, never to make it pass:\n- ${NAMED}`,
    );
    const body = String(
      (w.gh.callsTo('POST', '/repos/acme/web/pulls')[0]?.body as { body?: string } | undefined)?.body,
    );
    expect(body).toContain(`Tests this branch changed:\n- ${NAMED}`);
    expect(body).toMatch(
      /Verified: `node --test` → exit 0 at `[0-9a-f]{12}` \(ran at `[0-9a-f]{12}` with uncommitted changes, on the same files\); the tests it ran include one this branch changed: test\/math\.test\.js/,
    );
  }, 60_000);
});
