import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

describe('the executor’s checkout is confined and its commands see no bot secrets (issue 4 "Workspace")', () => {
  let w: World;
  const saved = { ...process.env };
  beforeEach(async () => {
    // The bot's own process environment holds its secrets, as in production.
    Object.assign(process.env, SECRETS);
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
    process.env = saved;
  });

  it('workspace: file tools refuse "..", absolute paths, .git and symlinks leading out of the checkout', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['read_file', { path: '../../../../etc/passwd' }]),
      () => toolCalls(['read_file', { path: '/etc/passwd' }]),
      () => toolCalls(['write_file', { path: '.git/config', content: 'x' }]),
      () =>
        toolCalls(['run_command', { command: `ln -s ${w.root} escape && ln -s /nonexistent/x dangling` }]),
      () => toolCalls(['read_file', { path: 'escape/origin.git/HEAD' }]),
      () => toolCalls(['write_file', { path: 'escape/pwned.txt', content: 'x' }]),
      () => toolCalls(['write_file', { path: 'dangling', content: 'x' }]),
      () => toolCalls(['write_file', { path: 'docs/ok.md', content: 'fine' }]),
    ]);
    await send(w.app.ctx, localMessage('Please add docs to the web app'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[1]).toMatch(/refused: .*climbs out/);
    expect(r[2]).toMatch(/refused: .*absolute/);
    expect(r[3]).toMatch(/refused: .*\.git/);
    expect(r[5]).toMatch(/refused: .*outside the checkout/);
    expect(r[6]).toMatch(/refused: .*outside the checkout/);
    expect(r[7]).toMatch(/refused: .*outside the checkout/);
    expect(r[8]).toContain('wrote docs/ok.md');
    expect(existsSync(join(w.root, 'pwned.txt'))).toBe(false);
  });

  it('workspace: run_command’s environment lacks LLM_API_KEY, GITHUB_TOKEN, FEISHU_APP_SECRET and the other bot secrets', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: 'env; git config --list --show-origin' }]),
      () => toolCalls(['run_command', { command: 'pwd' }]),
    ]);
    await send(w.app.ctx, localMessage('Please check the build of the web app'));
    await flow.done();
    const out = flow.results[1]?.join('\n') ?? '';
    expect(out).toContain('exit 0');
    expect(out).toMatch(/\bPATH=/);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(out).not.toContain(`${name}=`);
      expect(out).not.toContain(value);
    }
    expect(out).not.toContain('REDIS_URL=');
    // R-H3: commands see the checkout at a fixed path, not where it lives on the host.
    expect(flow.results[2]?.join()).toContain('/workspace');
  });

  it('workspace: run_command stops at its time-out and keeps head and tail of long output', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: 'sleep 30', timeout_seconds: 1 }]),
      () =>
        toolCalls([
          'run_command',
          { command: 'echo FIRST; head -c 100000 /dev/zero | tr "\\0" x; echo; echo LAST' },
        ]),
    ]);
    await send(w.app.ctx, localMessage('Please time the build of the web app'));
    await flow.done();
    expect(flow.results[1]?.join()).toContain('timed out after 1 s');
    const long = flow.results[2]?.join() ?? '';
    expect(long).toContain('FIRST');
    expect(long).toContain('LAST');
    expect(long).toMatch(/bytes cut/);
    expect(long.length).toBeLessThan(25_000);
  });
});
