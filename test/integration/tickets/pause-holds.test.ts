import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heldJobIds } from '../../../src/outbox/held.ts';
import { isAcked } from '../../../src/tickets/acks.ts';
import { isPaused } from '../../../src/tickets/pause.ts';
import { type GitHubWorld, settle, startGitHubWorld } from '../../faults/github-world.ts';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, inputOf, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';

const COMMENTS = '/repos/acme/widgets/issues/7/comments';

/**
 * R-D2 "a pause holds, never discards": what a ticket queued before a person's `/pause` waits and
 * goes out once after `/resume`; a lost acknowledgement never blocks its replacement (R-C2).
 */
describe('a pause holds what the ticket queued (R-D2)', () => {
  let w: GitHubWorld;
  let ticket = '';
  /** By a phrase of its text: what the executor does on the turn that first shows a card (default: acknowledge it). */
  const onCard = new Map<string, (card: string) => ReturnType<typeof toolCalls>>();
  const results: string[][] = [];

  beforeEach(async () => {
    onCard.clear();
    results.length = 0;
    w = await startGitHubWorld();
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return continues(req) ? text('Routed.') : openAll(req);
      if (continues(req)) {
        const got = lastToolResults(req);
        results.push(got);
        if (got.some((t) => t.startsWith('recorded'))) return text('Done for now.');
        return toolCalls(['report', { status: 'working', summary: 'Acknowledged; working on it.' }]);
      }
      const calls = cardsIn(req).map((card) => {
        const phrase = [...onCard.keys()].find((p) => inputOf(req).includes(p));
        const custom = phrase === undefined ? undefined : onCard.get(phrase);
        if (phrase !== undefined) onCard.delete(phrase);
        return custom ? custom(card) : toolCalls(['reply', { to: card, text: `On it: ${card}.` }]);
      });
      return calls.length === 1 ? (calls[0] as ReturnType<typeof toolCalls>) : text('Nothing new.');
    });
    ticket = await w.open('ada', '@switchyard-bot please fix the login redirect');
    // Its acknowledgement is out before a test makes GitHub refuse or slow the next comment.
    await waitFor(() => w.botComments().some((b) => b.startsWith('On it:')), 'the first acknowledgement');
  });
  afterEach(async () => w?.close());

  const comments = (needle: string) => w.botComments().filter((b) => b.includes(needle));

  it('R-D2, R-C2: an acknowledgement queued just before /pause is held, then delivered once after /resume; status edits stay current', async () => {
    const ack = 'On it: also keeping the redirect on logout.';
    // GitHub slows the acknowledgement down (a rate limit), so the pause lands while it waits.
    onCard.set('also keep the redirect', (card) => {
      w.gh.failNext({ method: 'POST', path: COMMENTS, status: 429, retryAfter: 3 });
      return toolCalls(['reply', { to: card, text: ack }]);
    });
    const follow = await w.comment('ada', '@switchyard-bot also keep the redirect on logout');
    await waitFor(() => isAcked(w.app.ctx, ticket, follow), 'the acknowledgement claimed');
    await w.routed(await w.comment('ada', '/pause'));
    expect(await isPaused(w.app.ctx, ticket)).toBe(true);
    // Its retry finds the ticket paused: it waits in the outbox, unsent.
    await waitFor(
      async () => (await heldJobIds(w.app.ctx, ticket)).length === 1,
      'the acknowledgement held',
      15_000,
    );
    await settle(300);
    expect(comments(ack)).toEqual([]);

    await w.routed(await w.comment('ada', '/resume'));
    await waitFor(() => comments(ack).length === 1, 'the held acknowledgement after /resume');
    // The resumed turn sees the card acknowledged: no second acknowledgement, and nothing twice.
    await settle(1500);
    expect(comments(ack)).toHaveLength(1);
    expect(await heldJobIds(w.app.ctx, ticket)).toEqual([]);
    // The status comment went on being edited through the pause and ends showing the ticket as it is now.
    const edits = w.gh.calls.filter((c) => c.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(c.path));
    const last = edits.at(-1)?.body as { body?: string } | undefined;
    expect(last?.body).toBeDefined();
    expect(last?.body).not.toMatch(/· Paused/);
    const bodies = edits.map((c) => (c.body as { body?: string }).body);
    expect(bodies.some((b) => /· Paused/.test(b ?? ''))).toBe(true);
    // Coalesced: an edit never repeats the one before it.
    expect(bodies.filter((b, i) => i > 0 && b === bodies[i - 1])).toEqual([]);
  });

  it('R-C2: an acknowledgement lost for good (GitHub refused it) does not block its replacement', async () => {
    const lost = 'On it: the logout redirect.';
    const again = 'On it (again): the logout redirect.';
    onCard.set('also keep the redirect', (card) => {
      w.gh.failNext({ method: 'POST', path: COMMENTS, status: 422 });
      return toolCalls(['reply', { to: card, text: lost }]);
    });
    const follow = await w.comment('ada', '@switchyard-bot also keep the redirect on logout');
    await waitFor(
      async () => (await w.app.ctx.queues.outbox.getJobs(['failed'])).length === 1,
      'the acknowledgement to fail for good',
    );
    // A later message wakes the ticket; the executor acknowledges the first one again.
    onCard.set('any news', (later) =>
      toolCalls(
        ['reply', { to: follow, text: again, purpose: 'ack' }],
        ['reply', { to: later, text: `On it: ${later}.` }],
      ),
    );
    await w.comment('ada', '@switchyard-bot any news on the logout one?');
    const replies = await waitFor(
      () => results.find((r) => r.some((t) => t.includes(follow)) && r.length === 2),
      'the second acknowledgement’s result',
    );
    expect(replies[0]).toBe(`reply queued to ${follow}`);
    await waitFor(() => comments(again).length === 1, 'the replacement acknowledgement');
    await settle(500);
    expect(comments(lost)).toEqual([]);
    expect(comments(again)).toHaveLength(1);
  });
});
