import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setTicketState } from '../../src/tickets/ticket-store.ts';
import { startWorld, type World } from '../integration/executor/harness.ts';
import { localMessage, send } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { cardsIn, isHostNote, lastToolResults, openAll, roleOf, ticketOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const stepOf = (req: RecordedRequest) =>
  req.messages.length - 1 - req.messages.findLastIndex((m) => m.role === 'user' && !isHostNote(m));

describe('issue 19: every worker sweeps its own disk of checkouts no turn needs (two worker processes)', () => {
  let w: World;
  let prefix: string;
  let workers: BotProcess[];
  const dirs = ['ws-a', 'ws-b'];
  let hung: boolean;
  let ticket: string;
  let reads: string[];

  const workerEnv = (dir: string) => ({
    ...w.env,
    ROLE: 'worker',
    REDIS_URL: redisUrl(),
    KEY_PREFIX: prefix,
    LLM_PROVIDER: 'deepseek',
    JOB_LOCK_MS: '1500',
    WORKSPACE_DIR: join(w.root, dir),
    WORKSPACE_SWEEP_MS: '1000',
    WORKSPACE_SWEEP_GRACE_MS: '0',
  });

  beforeEach(async () => {
    prefix = ownPrefix();
    workers = [];
    hung = false;
    ticket = '';
    reads = [];
    w = await startWorld({ KEY_PREFIX: prefix }, { workers: false });
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      ticket ||= ticketOf(req) ?? '';
      const card = cardsIn(req)[0] ?? '';
      const n = stepOf(req) / 2;
      if (n === 0) return toolCalls(['reply', { to: card, text: `I will write the docs for ${card}.` }]);
      if (n === 1) return toolCalls(['write_file', { path: 'docs/new.md', content: 'brand new\n' }]);
      if (n === 2 && !hung) {
        hung = true;
        return { type: 'message', text: 'too late', delayMs: 60_000 };
      }
      if (n === 2) return toolCalls(['read_file', { path: 'docs/new.md' }]);
      reads.push(...lastToolResults(req));
      return text('Done for now.');
    });
    for (const dir of dirs) workers.push(startBotProcess(workerEnv(dir)));
  });
  afterEach(async () => {
    await Promise.all(workers.map((p) => p.stop()));
    await w.close();
  });

  const checkoutIn = (dir: string) => existsSync(join(w.root, dir, prefix, ticket, '.git'));
  /** The ticket's private refs in a worker's mirror of acme/web. */
  const refsIn = (dir: string) => {
    const mirror = join(w.root, dir, prefix, '.mirrors', 'acme', 'web.git');
    if (!existsSync(mirror)) return '';
    const out = execFileSync('git', ['for-each-ref', '--format=%(refname)', 'refs/sy/'], {
      env: { PATH: process.env.PATH ?? '', GIT_DIR: mirror },
    });
    return String(out)
      .split('\n')
      .filter((r) => r.endsWith(`/${ticket}`))
      .join(' ');
  };

  it('issue 19: a turn killed on A resumes on B; A restarted removes its stale copy, B keeps the current one; the ticket done, both disks and mirrors are clean', async () => {
    const ctx = w.app.ctx;
    await send(ctx, localMessage('Please write the docs for the web app', { chat: 'room' }));
    await waitFor(() => hung, 'the executor mid-turn after its write', 90_000);
    const a = dirs.findIndex(checkoutIn);
    expect(a).toBeGreaterThanOrEqual(0);
    const [dirA, dirB] = [dirs[a] as string, dirs[1 - a] as string];
    // Issue 45: the step was recorded through a step repository, so nothing of it is in A's mirror.
    expect(refsIn(dirA)).toBe('');
    workers[a]?.kill9();

    await waitFor(() => reads.length >= 1, 'the resumed turn’s read on B', 90_000);
    expect(reads[0]).toBe('     1\tbrand new\n(line 1 of 1)');
    await waitFor(
      async () => (await ctx.queues.executor.getJobs(['completed'])).length >= 1,
      'the resumed turn’s end',
      60_000,
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; executor jobs: ${JSON.stringify(await ctx.queues.executor.getJobCounts())}`,
      );
    });
    // The ticket is open and B's copy is its current one: B's sweeps (every second) keep it.
    await new Promise((r) => setTimeout(r, 2500));
    expect(checkoutIn(dirB)).toBe(true);

    // A comes back: its copy is stale (B made the ticket's checkout since), its first sweep takes it.
    expect(checkoutIn(dirA)).toBe(true);
    workers[a] = startBotProcess(workerEnv(dirA));
    const homeA = join(w.root, dirA, prefix, '.home', ticket);
    await waitFor(
      () => !checkoutIn(dirA) && !existsSync(homeA),
      'A’s stale checkout and home removed',
      60_000,
    );
    expect(checkoutIn(dirB)).toBe(true);

    await setTicketState(ctx, ticket, 'done');
    await waitFor(() => !checkoutIn(dirB), 'B’s checkout removed once the ticket is done', 30_000);
    await waitFor(() => !refsIn(dirA) && !refsIn(dirB), 'the ticket’s mirror refs removed on both', 30_000);
  }, 240_000);
});
