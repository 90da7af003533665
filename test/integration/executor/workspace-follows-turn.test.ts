import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { ownedPrefixes } from '../../kit/redis.ts';
import { cardsIn, inputOf, isHostNote, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

/** The model's requests since the turn's input (host notes are not input): which step of its script the executor is at. */
const stepOf = (req: RecordedRequest) =>
  req.messages.length - 1 - req.messages.findLastIndex((m) => m.role === 'user' && !isHostNote(m));

describe('issue 19: workspaces follow their turn (two workers, each its own WORKSPACE_DIR)', () => {
  let w: World;
  let prefix: string;
  let apps: TestApp[];
  let seen: string[];

  const worker = async (dir: string) => {
    const app = await startTestApp({ ...w.env, KEY_PREFIX: prefix, WORKSPACE_DIR: join(w.root, dir) });
    apps.push(app);
    return app;
  };

  beforeEach(async () => {
    prefix = ownPrefix();
    apps = [];
    seen = [];
    w = await startWorld({ KEY_PREFIX: prefix }, { workers: false });
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      const card = cardsIn(req)[0] ?? '';
      const n = stepOf(req);
      if (inputOf(req).includes('check the changes')) {
        if (n > 0) seen.push(...lastToolResults(req));
        const checks = [
          ['reply', { to: card, text: `Checking the changes for ${card}.` }],
          ['read_file', { path: 'docs/new.md' }],
          ['read_file', { path: 'README.md' }],
          ['run_command', { command: 'git status --porcelain; git log --format=%s -n 2; ls web' }],
        ] as const;
        const step = checks[n / 2];
        return step ? toolCalls([step[0], step[1]]) : text('Checked.');
      }
      const work = [
        ['reply', { to: card, text: `I will write the docs for ${card}.` }],
        ['write_file', { path: 'docs/new.md', content: 'brand new\n' }],
        ['run_command', { command: 'git add docs/new.md && git commit -q -m "local docs commit"' }],
        ['read_file', { path: 'README.md' }],
        ['edit_file', { path: 'README.md', old: '# web', new: '# web, edited' }],
        ['write_file', { path: 'docs/new.md', content: 'brand new, then changed\n' }],
        ['run_command', { command: 'rm web/style.css' }],
      ] as const;
      const step = work[n / 2];
      return step ? toolCalls([step[0], step[1]]) : text('Done for now.');
    });
  });
  afterEach(async () => {
    for (const app of apps) await app.close();
    await w.close();
  });

  it('issue 19: a worker with another WORKSPACE_DIR restores the last recorded step — unpushed commit, edited, new and deleted files, uncommitted', async () => {
    const ctx = w.app.ctx;
    const first = await worker('ws-a');
    await send(ctx, localMessage('Please write the docs for the web app', { chat: 'room' }));
    const ack = await waitFor(
      async () => (await botMessages(ctx, 'room')).find((m) => m.text.startsWith('I will write the docs')),
      'the acknowledgement',
      30_000,
    );
    await waitFor(
      async () => (await ctx.queues.executor.getJobs(['completed'])).length === 1,
      'the first turn to end',
      60_000,
    );
    await first.close();

    await worker('ws-b');
    await send(ctx, localMessage('please check the changes', { chat: 'room', replyTo: ack.id }));
    await waitFor(() => seen.length >= 4, 'the second turn’s checks', 60_000);
    const [, newFile, readme, status] = seen;
    expect(newFile).toBe('     1\tbrand new, then changed\n(line 1 of 1)');
    expect(readme).toContain('# web, edited');
    // The local commit is HEAD; the later changes are still uncommitted, the deletion included.
    expect(status).toMatch(/ M README\.md/);
    expect(status).toMatch(/ M docs\/new\.md/);
    expect(status).toMatch(/ D web\/style\.css/);
    expect(status).toMatch(/^local docs commit\ninitial$/m);
    expect(status).not.toMatch(/^style\.css$/m);
  }, 150_000);
});
