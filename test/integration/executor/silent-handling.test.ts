import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wasTakenBy } from '../../../src/tickets/handback.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, inputOf, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

describe('issue 15: hand-back after silent handling', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C3: a follow-up the executor acted on without replying is taken, not a new candidate; one it left alone is handed back', async () => {
    /** Cards the main session was asked to route (candidates); a steering notice is not one. */
    const mainCandidates: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') {
        if (req.messages.at(-1)?.role === 'tool') return text('Routed.');
        mainCandidates.push(...cardsIn(req));
        return openAll(req);
      }
      if (continues(req)) return text('Done for now.');
      const input = inputOf(req);
      const to = cardsIn(req)[0];
      if (input.includes('also default to /home'))
        return toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          [
            'write_file',
            { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/home";\n' },
          ],
        );
      if (input.includes('nice weather')) return text('Nothing to do for this one.');
      return toolCalls(['reply', { to, text: 'I will fix the login redirect in src/login.ts.' }]);
    });
    const opening = await send(w.app.ctx, localMessage('Please fix the login redirect', { chat: 'room' }));
    const ack = await waitFor(
      async () => (await botMessages(w.app.ctx, 'room')).find((m) => m.text.startsWith('I will fix')),
      'the acknowledgement',
    );
    const [ticket] = await w.app.ctx.redis.smembers(w.app.ctx.keys.cardOwners(opening));
    expect(ticket).toBeDefined();
    const acted = await send(
      w.app.ctx,
      localMessage('also default to /home when there is no target', { chat: 'room', replyTo: ack.id }),
    );
    await waitFor(() => wasTakenBy(w.app.ctx, acted, ticket as string), 'the acted-on follow-up taken');
    const left = await send(w.app.ctx, localMessage('nice weather today', { chat: 'room', replyTo: ack.id }));
    await waitFor(
      async () => (await w.app.ctx.redis.hexists(w.app.ctx.keys.cardHandbacks(left), ticket as string)) === 1,
      'the untouched follow-up handed back',
    );
    await waitFor(() => mainCandidates.includes(left), 'the untouched follow-up as a candidate');
    expect(await w.app.ctx.redis.hexists(w.app.ctx.keys.cardHandbacks(acted), ticket as string)).toBe(0);
    // Issue 30: its steering notice may start a main turn, but it is never a candidate there.
    expect(mainCandidates).not.toContain(acted);
  });
});
