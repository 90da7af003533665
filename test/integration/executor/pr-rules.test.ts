import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportsOf } from '../../../src/tickets/reports.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/** A 32×32 PNG header: magic bytes and an IHDR with real dimensions. */
function png(): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(b);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(32, 16);
  b.writeUInt32BE(32, 20);
  return b;
}

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

describe('honest PRs and yielding (R-C6, R-C8)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C6: a UI change is not ready without a real "before" screenshot, and report done is refused while the PR is a draft', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['write_file', { path: 'web/style.css', content: 'body { color: navy; }\n' }]),
      () => toolCalls(['commit_and_push', { message: 'Navy text' }]),
      () => toolCalls(['open_pr', { title: 'Navy text', body: 'Colour change.' }]),
      () => toolCalls(['record_verification', { command: 'true' }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR open.' }]),
      (req) => {
        const dir = `${w.root}/workspaces/${w.app.ctx.keys.prefix}/${ticketOf(req)}`;
        writeFileSync(`${dir}/before.png`, 'not an image');
        return toolCalls(['attach_screenshot', { path: 'before.png', when: 'before' }]);
      },
      (req) => {
        writeFileSync(`${w.root}/workspaces/${w.app.ctx.keys.prefix}/${ticketOf(req)}/before.png`, png());
        return toolCalls(['attach_screenshot', { path: 'before.png', when: 'before' }]);
      },
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR ready.' }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please make the text navy'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[5]).toMatch(
      /refused: the change touches UI files \(web\/style\.css\) and no "before" screenshot/,
    );
    expect(r[6]).toMatch(/refused: not done — PR acme\/web#1 is still a draft/);
    expect(r[7]).toMatch(/refused: before\.png is not a PNG or JPEG/);
    expect(r[8]).toContain('attached before.png as the "before" screenshot on acme/web#1');
    expect(r[9]).toContain('is ready for review');
    expect(r[10]).toContain('recorded done');
    await waitFor(
      () => w.gh.comments.find((c) => c.number === 1 && c.body.includes('Before screenshot')),
      'the screenshot comment',
    );
    const reports = await reportsOf(w.app.ctx, await ticketOpenedBy(w.app.ctx, card));
    expect(reports.map((s) => s.status)).toEqual(['done']);
  });

  it('R-C8: when a person’s PR holds the same change, the executor closes its own PR and points to theirs in one sentence', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls([
          'write_file',
          { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
        ]),
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
    expect(r[4]).toMatch(/refused: "#1" is not another PR/);
    expect(r[5]).toMatch(/refused: the reason is one sentence/);
    expect(r[6]).toContain('closed acme/web#1, pointing to #2');
    expect(w.gh.pulls.find((p) => p.number === 1)?.state).toBe('closed');
    expect(w.gh.pulls.find((p) => p.number === 2)?.state).toBe('open');
    const comment = await waitFor(() => w.gh.comments.find((c) => c.number === 1), 'the closing sentence');
    expect(comment.body.split('\n')[0]).toBe(
      'Closing in favour of #2 by @ada: it already makes the same fallback change.',
    );
  });
});
