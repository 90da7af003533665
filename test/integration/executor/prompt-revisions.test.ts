import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../../src/context.ts';
import { restore, savePrompts } from '../../../src/prompts/index.ts';
import { createRuntime } from '../../../src/runtime.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import {
  cardsIn,
  continues,
  isHostNote,
  lastToolResults,
  openAll,
  roleOf,
} from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';

const team = (about: string) => ({ team: { about }, overrides: {}, skills: [] });
const panel = { source: 'panel' as const, who: 'ada' };

/** Jobs queued or running, executor turns and main turns together. */
async function queued(ctx: Ctx): Promise<number> {
  const states = ['waiting', 'delayed', 'active', 'prioritized'] as const;
  const [executor, main] = await Promise.all([
    ctx.queues.executor.getJobCounts(...states),
    ctx.queues.main.getJobCounts(...states),
  ]);
  return [...Object.values(executor), ...Object.values(main)].reduce((a, b) => a + b, 0);
}

describe('executors and prompt revisions (R-F3)', () => {
  const w = useModelApp();

  it('P-95: an executor reads the revision it runs under and an older one it worked under, and no other', async () => {
    const rt = await createRuntime(w.app.ctx);
    expect(
      await savePrompts(rt.prompts, { baseRevision: 0, ...team('TEAM-V1 writes docs.') }, panel),
    ).toMatchObject({
      ok: true,
      revision: 1,
    });
    const executor: RecordedRequest[] = [];
    w.llm.respond(async (req) => {
      if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
      if (isHostNote(req.messages.at(-1))) return text('Noted.');
      executor.push(req);
      if (executor.length === 1) {
        // A save during the turn: the next request runs under revision 2.
        await savePrompts(rt.prompts, { baseRevision: 1, ...team('TEAM-V2 writes tests.') }, panel);
        const card = cardsIn(req)[0] ?? '';
        return toolCalls(['reply', { to: card, text: `On it: ${card}.` }]);
      }
      if (executor.length === 2)
        return toolCalls(
          ['read_prompt_revision', {}],
          ['read_prompt_revision', { revision: 1 }],
          ['read_prompt_revision', { revision: 0 }],
        );
      return text('Done.');
    });
    await send(w.app.ctx, localMessage('Please tidy the README'));
    const third = await waitFor(() => executor[2], 'the executor to read its revisions');
    const [now, older, never] = lastToolResults(third);
    expect(now).toMatch(/^revision 2 \(the one you run under now\) of 1, 2 you worked under; saved /);
    expect(now).toContain('TEAM-V2 writes tests.');
    expect(now).not.toContain('TEAM-V1');
    expect(older).toMatch(/^revision 1 of 1, 2 you worked under/);
    expect(older).toContain('TEAM-V1 writes docs.');
    expect(never).toBe(
      'Error: refused: your session did not work under revision 0; it worked under 1, 2 (R-F3)',
    );
  });

  it('P-93: a saved prompt change wakes no session — no job is queued by a save or a restore', async () => {
    const rt = await createRuntime(w.app.ctx);
    const executor: RecordedRequest[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
      executor.push(req);
      if (continues(req)) return text('Done.');
      const card = cardsIn(req)[0] ?? '';
      return toolCalls(['reply', { to: card, text: `On it: ${card}.` }]);
    });
    await send(w.app.ctx, localMessage('Please tidy the README'));
    await waitFor(() => executor.length >= 2, 'the ticket’s turn');
    await waitFor(async () => (await queued(w.app.ctx)) === 0, 'every turn over');
    const requests = w.llm.requests.length;
    expect(await savePrompts(rt.prompts, { baseRevision: 0, ...team('New words.') }, panel)).toMatchObject({
      ok: true,
    });
    expect(await restore(rt.prompts, { baseRevision: 1, defaults: true }, panel)).toMatchObject({ ok: true });
    expect(await queued(w.app.ctx)).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await queued(w.app.ctx)).toBe(0);
    expect(w.llm.requests.length).toBe(requests);
  });
});
