import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { queueNote, takeNotes } from '../../../src/tickets/notes.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();

function notesCtx() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = createLogger('info', {}, { destination });
  return { ctx: { redis, keys: keys(), log, now: () => 5 }, lines };
}

describe('issue 20 / R-B5: ticket notes have one owner (tickets/notes.ts)', () => {
  it('notes queued from anywhere are taken once, by one turn, and again by that turn when it resumes', async () => {
    const { ctx } = notesCtx();
    await queueNote(ctx, 'T9', 'main', 'the PR is #4');
    await queueNote(ctx, 'T9', 'peer:T2', 'the schema moved');
    expect(await takeNotes(ctx, 'T9', 'turn-a')).toEqual(['the PR is #4', 'the schema moved']);
    expect(await takeNotes(ctx, 'T9', 'turn-a')).toEqual(['the PR is #4', 'the schema moved']);
    expect(await takeNotes(ctx, 'T9', 'turn-b')).toEqual([]);
  });

  it('a stored note that fails its schema is logged and left out; the valid ones are delivered', async () => {
    const { ctx, lines } = notesCtx();
    await queueNote(ctx, 'T9', 'main', 'first');
    await redis.rpush(ctx.keys.ticketNotes('T9'), JSON.stringify({ from: 'main', text: 42 }), 'not json');
    await queueNote(ctx, 'T9', 'main', 'last');
    expect(await takeNotes(ctx, 'T9', 'turn-a')).toEqual(['first', 'last']);
    const reported = lines.filter((l) => l.msg === 'stored record failed validation');
    expect(reported.map((l) => l.key)).toEqual([ctx.keys.turnNotes('turn-a'), ctx.keys.turnNotes('turn-a')]);
  });
});
