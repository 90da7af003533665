import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../integration/executor/harness.ts';
import { botMessages, localMessage, send } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../kit/fake-llm.ts';
import { ownedPrefixes, redisUrl } from '../kit/redis.ts';
import { cardsIn, isHostNote, lastToolResults, openAll, roleOf, ticketOf } from '../kit/scripted-model.ts';
import { type BotProcess, startBotProcess } from '../kit/worker-process.ts';

/** Prefixes handed to the product as its own; their keys go after the file. */
const ownPrefix = ownedPrefixes();

const stepOf = (req: RecordedRequest) =>
  req.messages.length - 1 - req.messages.findLastIndex((m) => m.role === 'user' && !isHostNote(m));

describe('issue 19: a worker killed mid-turn; another restores its checkout (one web, three workers)', () => {
  let w: World;
  let prefix: string;
  let workers: BotProcess[];
  const dirs = [0, 1, 2].map((i) => `ws-${i}`);
  let hung: boolean;
  let ticket: string;
  let reads: string[];

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
      const steps = [
        toolCalls(['reply', { to: card, text: `I will write the docs for ${card}.` }]),
        toolCalls(['write_file', { path: 'docs/new.md', content: 'brand new\n' }]),
        toolCalls(['read_file', { path: 'README.md' }]),
        toolCalls(['edit_file', { path: 'README.md', old: '# web', new: '# web, edited' }]),
      ];
      const n = stepOf(req) / 2;
      const step = steps[n];
      if (step) return step;
      if (n === steps.length && !hung) {
        hung = true;
        return { type: 'message', text: 'too late', delayMs: 60_000 };
      }
      if (n === steps.length) return toolCalls(['read_file', { path: 'docs/new.md' }]);
      reads.push(...lastToolResults(req));
      // Issue 28: what the model read before the crash is still known on the resuming worker, and
      // its restored checkout has the same content, so the edit needs no second read.
      if (n === steps.length + 1)
        return toolCalls([
          'edit_file',
          { path: 'README.md', old: '# web, edited', new: '# web, edited again' },
        ]);
      if (n === steps.length + 2) return toolCalls(['read_file', { path: 'README.md' }]);
      return text('Done for now.');
    });
    for (const dir of dirs) {
      workers.push(
        startBotProcess({
          ...w.env,
          ROLE: 'worker',
          REDIS_URL: redisUrl(),
          KEY_PREFIX: prefix,
          LLM_PROVIDER: 'deepseek',
          JOB_LOCK_MS: '1500',
          WORKSPACE_DIR: join(w.root, dir),
        }),
      );
    }
  });
  afterEach(async () => {
    await Promise.all(workers.map((p) => p.stop()));
    await w.close();
  });

  const checkoutIn = (dir: string) => existsSync(join(w.root, dir, prefix, ticket, '.git'));

  it('issue 19: write_file and edit_file uncommitted, SIGKILL, the resuming worker’s read_file sees both; the acknowledgement is sent once', async () => {
    const ctx = w.app.ctx;
    const card = await send(ctx, localMessage('Please write the docs for the web app', { chat: 'room' }));
    await waitFor(() => hung, 'the executor mid-turn after its edits', 90_000);
    const victim = dirs.findIndex(checkoutIn);
    expect(victim).toBeGreaterThanOrEqual(0);
    workers[victim]?.kill9();

    await waitFor(() => reads.length >= 3, 'the resumed turn’s reads', 90_000);
    expect(reads[0]).toBe('     1\tbrand new\n(line 1 of 1)');
    expect(reads[1]).toBe('edited README.md:\n     1\t# web, edited again');
    expect(reads[2]).toBe('     1\t# web, edited again\n(line 1 of 1)');
    // Restored on another worker's disk, not read from the dead one's.
    expect(dirs.filter((d, i) => i !== victim && checkoutIn(d))).toHaveLength(1);
    const acks = (await botMessages(ctx, 'room')).filter((m) => m.text.includes(card));
    expect(acks).toHaveLength(1);
  }, 200_000);
});
